import Foundation
import Hummingbird
import OutpostCore

/// Reads `Authorization: Bearer <accessToken>`; without a valid one, or when its sign-in has
/// ended (signed out, password changed, user removed), the request ends in 401.
struct AuthenticatorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tokens: @Sendable () async throws -> AccessTokens
    let revoked: RevokedSessions
    let store: Store
    let clock: WallClock

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw APIError.unauthorized
        }
        let token = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        let now = clock.now()
        guard let caller = try await tokens().verify(token, now: now) else { throw APIError.unauthorized }
        if let session = caller.session, try await revoked.isRevoked(family: session, now: now) {
            // The device says why it was signed out: a removal is not a sign-in to repeat.
            if try await store.isRemoved(userId: caller.userId) { throw APIError.accountRemoved }
            throw APIError(.unauthorized, .unauthorized, "This sign-in has ended; sign in again.")
        }
        // A session that must turn on two-factor sign-in first does only that.
        if caller.mustEnroll, !TwoFactorRoutes.enrollmentPaths.contains(request.uri.path) {
            throw APIError(
                .forbidden, .twoFactorEnrollmentRequired,
                "Your organisation requires two-factor sign-in: turn it on first (an authenticator app).")
        }
        var context = context
        context.caller = caller
        return try await next(request, context)
    }
}
