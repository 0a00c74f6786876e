import Foundation
import OutpostCore
import OutpostProtocol

/// The signed-in session: its tokens, their silent rotation, and its end.
///
/// What a caller may rely on:
/// - A rotated token pair is saved (``persist``) the moment it arrives, before the request that
///   needed it is retried, so a retry that fails cannot leave an already-rotated refresh token
///   in the store.
/// - One refresh at a time: callers that meet an expired token together share one rotation.
/// - Only the server's own refusal of the refresh token ends the session; a portal's page, a
///   5xx or a lost answer keeps it (the server's grace window answers a repeated refresh with
///   the same successor).
@MainActor
package final class SessionKeeper {
    private(set) var current: SessionState?
    /// Stores the session (sealed) or forgets it.
    private let persist: (SessionState?) throws -> Void
    private var refreshing: Task<SessionState, any Error>?

    package init(current: SessionState?, persist: @escaping (SessionState?) throws -> Void) {
        self.current = current
        self.persist = persist
    }

    /// The signed-in user's id; nil when signed out.
    package var userId: UserID? { current?.user.id }

    /// Starts a session (a sign-in) and saves it.
    package func begin(_ session: SessionState) throws {
        current = session
        try persist(session)
    }

    /// The session unsealed by an unlock: held in memory again (it is already stored).
    package func resume(_ session: SessionState) {
        current = session
    }

    /// The app locked: the tokens leave memory (they stay sealed in the store).
    package func forget() {
        current = nil
    }

    /// Asks the server whether the session still stands by rotating its refresh token now.
    /// Throws ``APIClientError/sessionEnded(code:)`` when the server refuses it (a removed
    /// user, a password reset), a transport error when it could not be asked.
    package func validate(client: APIClient) async throws {
        guard let session = current else { throw APIClientError.sessionEnded(code: nil) }
        _ = try await rotate(from: session, client: client)
    }

    /// Forgets the session (sign-out, or the server ended it): gone from memory at once, and from
    /// the store; throws when the store's copy could not be cleared (the caller surfaces it: on a
    /// shared phone the next person must not find this session restored at the next launch).
    package func end() throws {
        current = nil
        try persist(nil)
    }

    /// Sends `request` with the access token; on the server's 401 rotates the token pair once
    /// and retries. Throws ``APIClientError/sessionEnded(code:)`` when the server refuses the
    /// refresh token or the rotated access token.
    package func authorized(_ request: TransportRequest, client: APIClient) async throws -> TransportResponse {
        guard let session = current else { throw APIClientError.sessionEnded(code: nil) }
        var request = request
        request.headers["Authorization"] = "Bearer \(session.accessToken)"
        let response = try await client.send(request)
        guard ServerAnswer(response).isUnauthorized else { return response }
        let rotated = try await rotate(from: session, client: client)
        request.headers["Authorization"] = "Bearer \(rotated.accessToken)"
        let retried = try await client.send(request)
        if ServerAnswer(retried).isUnauthorized {
            throw APIClientError.sessionEnded(code: APIClient.errorCode(retried.body))
        }
        return retried
    }

    /// The session after rotating `stale`'s refresh token, shared by concurrent callers; a
    /// caller holding a pair that was already rotated gets the current one without a request.
    private func rotate(from stale: SessionState, client: APIClient) async throws -> SessionState {
        if let refreshing { return try await refreshing.value }
        if let current, current.refreshToken != stale.refreshToken { return current }
        let task = Task { try await client.refreshed(stale) }
        refreshing = task
        defer { refreshing = nil }
        let rotated = try await task.value
        current = rotated
        try persist(rotated)
        return rotated
    }
}
