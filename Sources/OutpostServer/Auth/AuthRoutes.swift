import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// `POST /v1/auth/signin`, `/refresh`, `/signout`.
struct AuthRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AppRequestContext>) {
        group.post("signin", use: signIn)
        group.post("refresh", use: refresh)
        group.post("signout", use: signOut)
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(SignInRequest.self, from: request)
        let deviceId = try HTTPHelpers.nonEmpty(body.deviceId, "deviceId")
        let store = dependencies.store
        let configuration = dependencies.configuration
        let now = dependencies.clock.now()
        let emailSubject = "email:" + Store.normalizedEmail(body.email)
        let addressSubject = "addr:" + context.clientAddress
        for (subject, limit) in [
            (emailSubject, configuration.signInFailuresPerEmail),
            (addressSubject, configuration.signInFailuresPerAddress),
        ] {
            let failures = try await store.signInFailures(subject: subject, since: now - configuration.signInWindow)
            if failures.count >= limit, let oldest = failures.oldest {
                let retryAfter = max(1, Int((oldest + configuration.signInWindow).timeIntervalSince(now).rounded(.up)))
                throw APIError(
                    .tooManyRequests, .rateLimited, "Too many failed sign-ins; try again in \(retryAfter) seconds.",
                    headers: [.retryAfter: String(retryAfter)])
            }
        }
        let user = try await store.user(email: body.email)
        let valid = try await dependencies.hasher.verify(
            body.password, hash: user?.passwordHash ?? PasswordHasher.decoyHash)
        guard let user, valid else {
            try await store.recordSignInFailure(subjects: [emailSubject, addressSubject], at: now)
            throw APIError(.unauthorized, .invalidCredentials, "The e-mail or password is wrong.")
        }
        try await store.clearSignInFailures(subject: emailSubject)
        let refreshToken = RefreshTokens.make()
        try await store.insertRefreshToken(
            hash: RefreshTokens.hash(refreshToken), familyId: UUID(), userId: user.id, deviceId: deviceId,
            issuedAt: now,
            expiresAt: now + configuration.refreshTokenLifetime)
        return try await tokenPair(for: user, refreshToken: refreshToken, now: now)
    }

    @Sendable func refresh(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(RefreshRequest.self, from: request)
        let now = dependencies.clock.now()
        let successor = try await dependencies.accessTokens().refreshSuccessor(of: body.refreshToken)
        let outcome = try await dependencies.store.rotateRefreshToken(
            hash: RefreshTokens.hash(body.refreshToken), successorHash: RefreshTokens.hash(successor), now: now,
            lifetime: dependencies.configuration.refreshTokenLifetime,
            graceWindow: dependencies.configuration.refreshGraceWindow)
        switch outcome {
        case .rotated(let userId, _, _):
            guard let user = try await dependencies.store.user(id: userId) else { throw APIError.unauthorized }
            return try await tokenPair(for: user, refreshToken: successor, now: now)
        case .reused:
            dependencies.logger.warning("refresh token reused; its family is revoked")
            throw APIError(
                .unauthorized, .tokenReused,
                "This sign-in was ended because its refresh token was used twice; sign in again.")
        case .invalid:
            throw APIError(
                .unauthorized, .unauthorized, "The refresh token is unknown, expired or revoked; sign in again.")
        }
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(RefreshRequest.self, from: request)
        try await dependencies.store.revokeFamily(
            ofTokenHash: RefreshTokens.hash(body.refreshToken), now: dependencies.clock.now())
        return Response(status: .noContent)
    }

    private func tokenPair(for user: UserRecord, refreshToken: String, now: Date) async throws -> Response {
        let caller = Caller(userId: user.id, tenantId: user.tenantId, role: user.role)
        let access = try await dependencies.accessTokens().issue(for: caller, now: now)
        return try HTTPHelpers.json(
            TokenPair(
                accessToken: access, refreshToken: refreshToken,
                expiresIn: Int(dependencies.configuration.accessTokenLifetime), user: user.info))
    }
}
