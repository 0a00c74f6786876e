import Foundation
import Hummingbird
import OutpostCore

/// Reads `Authorization: Bearer <accessToken>`; without a valid one the request ends in 401.
struct AuthenticatorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tokens: @Sendable () async throws -> AccessTokens
    let clock: WallClock

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw APIError.unauthorized
        }
        let token = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let caller = try await tokens().verify(token, now: clock.now()) else { throw APIError.unauthorized }
        var context = context
        context.caller = caller
        return try await next(request, context)
    }
}
