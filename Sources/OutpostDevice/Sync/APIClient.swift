import Foundation
import OutpostCore
import OutpostProtocol

/// A signed-in session as the device keeps it (sealed at rest).
public struct SessionState: Codable, Sendable, Hashable {
    public var serverURL: String
    public var accessToken: String
    public var refreshToken: String
    public var user: UserInfo
}

/// Why an API call did not give an answer the caller can use.
public enum APIClientError: Error, Sendable, Equatable {
    /// No answer: offline, timed out, connection failed. The session stays.
    case transport(TransportError)
    /// An HTTP answer that is an API error.
    case http(status: Int, code: String?)
    /// The server definitely refused the refresh token: the session is over (pending data stays).
    case sessionEnded(code: String?)
    /// The answer could not be read.
    case undecodable(String)
}

/// The API of API.md over a ``Transport``: sign-in, refresh, sign-out and the shared decoding.
/// Authenticated calls go through ``SessionKeeper``, which rotates an expired token silently.
struct APIClient: Sendable {
    let transport: any Transport

    func signIn(email: String, password: String, deviceId: String) async throws -> TokenPair {
        let response = try await send(
            TransportRequest(
                method: "POST", path: "/v1/auth/signin", headers: ["Content-Type": "application/json"],
                body: try OutpostJSON.encode(SignInRequest(email: email, password: password, deviceId: deviceId))))
        return try Self.decode(TokenPair.self, response)
    }

    func clientPolicy() async throws -> ClientPolicy {
        try Self.decode(ClientPolicy.self, try await send(TransportRequest(method: "GET", path: "/v1/client-policy")))
    }

    func signOut(refreshToken: String) async {
        _ = try? await send(
            TransportRequest(
                method: "POST", path: "/v1/auth/signout", headers: ["Content-Type": "application/json"],
                body: try? OutpostJSON.encode(RefreshRequest(refreshToken: refreshToken))))
    }

    /// Rotates the refresh token. Only the server's own 401 ends the session; a portal's page,
    /// a 5xx or no answer at all keeps it (the caller tries again later).
    func refreshed(_ session: SessionState) async throws -> SessionState {
        let response = try await send(
            TransportRequest(
                method: "POST", path: "/v1/auth/refresh", headers: ["Content-Type": "application/json"],
                body: try OutpostJSON.encode(RefreshRequest(refreshToken: session.refreshToken))))
        let answer = ServerAnswer(response)
        if answer.isUnauthorized { throw APIClientError.sessionEnded(code: Self.errorCode(response.body)) }
        guard case .success = answer, let pair = try? OutpostJSON.decode(TokenPair.self, from: response.body) else {
            throw APIClientError.transport(.connectionFailed("the refresh was answered with HTTP \(response.status)"))
        }
        var updated = session
        updated.accessToken = pair.accessToken
        updated.refreshToken = pair.refreshToken
        updated.user = pair.user
        return updated
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            return try await transport.send(request)
        } catch let error as TransportError {
            throw APIClientError.transport(error)
        } catch is CancellationError {
            throw APIClientError.transport(.timedOut)
        } catch {
            throw APIClientError.transport(.connectionFailed("\(error)"))
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TransportResponse) throws -> T {
        guard (200..<300).contains(response.status) else {
            throw APIClientError.http(status: response.status, code: errorCode(response.body))
        }
        do {
            return try OutpostJSON.decode(type, from: response.body)
        } catch {
            throw APIClientError.undecodable("\(T.self): \(error)")
        }
    }

    static func errorCode(_ body: Data) -> String? {
        (try? OutpostJSON.decode(ErrorBody.self, from: body))?.error
    }
}
