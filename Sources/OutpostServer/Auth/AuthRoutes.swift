import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// `POST /v1/auth/signin`, `/refresh`, `/signout`.
struct AuthRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AppRequestContext>) {
        group.on(API.signIn, use: signIn)
        group.on(API.refresh, use: refresh)
        group.on(API.signOut, use: signOut)
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(SignInRequest.self, from: request)
        let deviceId = try HTTPHelpers.nonEmpty(body.deviceId, "deviceId")
        let store = dependencies.store
        let now = dependencies.clock.now()
        let (attempt, emailSubject) = try await reserveAttempt(
            email: body.email, request, context, now: now, refusal: "Too many failed sign-ins")
        let user = try await store.user(email: body.email)
        let valid: Bool
        do {
            valid = try await dependencies.hasher.verifyPassword(body.password, storedHash: user?.passwordHash)
        } catch is WorkGate.Full {
            // Not the caller's failure: the attempt is not counted.
            try await store.releaseSignInAttempt(attempt, clearing: nil)
            throw APIError(
                .serviceUnavailable, .busy, "The server is busy checking other sign-ins; try again in a second.",
                headers: [.retryAfter: "1"])
        }
        guard let user, valid else {
            throw APIError(.unauthorized, .invalidCredentials, "The e-mail or password is wrong.")
        }
        try await store.releaseSignInAttempt(attempt, clearing: emailSubject)
        // Said only to whoever knows the password: it reveals nothing a wrong guess could learn.
        if let provider = try await store.ssoProvider(tenantId: user.tenantId), !provider.settings.passwordSignIn {
            let name = provider.settings.displayName
            throw APIError(
                .forbidden, .passwordSignInOff,
                "Your organisation signs in only with single sign-on: use \"Sign in with \(name)\".")
        }
        if dependencies.hasher.needsUpgrade(user.passwordHash) {
            let upgraded = try await dependencies.hasher.hashPassword(body.password)
            try await store.updatePasswordHash(userId: user.id, from: user.passwordHash, to: upgraded)
        }
        // The password was right; with two-factor sign-in on, a code follows (with the challenge).
        if try await store.twoFactorEnabled(userId: user.id) {
            let secrets = TwoFactorSecrets(secret: try await dependencies.accessTokens().key)
            throw APIError(
                .unauthorized, .twoFactorRequired,
                "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
                challenge: secrets.challenge(user: user.id, deviceId: deviceId, now: now))
        }
        return try await startSession(for: user, deviceId: deviceId, now: now)
    }

    /// Reserves one sign-in attempt against the e-mail and the client address before the secret
    /// (password or code) is checked; past either limit, 429 `rate_limited` with `Retry-After`.
    /// Returns the attempt's rows and the e-mail's subject (to clear after a success).
    func reserveAttempt(
        email: String, _ request: Request, _ context: AppRequestContext, now: Date, refusal: String
    ) async throws -> (attempt: [Int64], emailSubject: String) {
        let configuration = dependencies.configuration
        let emailSubject = "email:" + Store.normalizedEmail(email)
        let addressSubject =
            "addr:" + (context.clientAddress(of: request, trustedProxies: configuration.trustedProxies) ?? "local")
        let reservation = try await dependencies.store.reserveSignInAttempt(
            subjects: [
                (emailSubject, configuration.signInFailuresPerEmail),
                (addressSubject, configuration.signInFailuresPerAddress),
            ], now: now, window: configuration.signInWindow)
        return (try reservation.attempt(now: now, refusal: refusal), emailSubject)
    }

    /// A new sign-in of `user` on `deviceId`: a refresh-token family and the token pair.
    func startSession(for user: UserRecord, deviceId: String, now: Date) async throws -> Response {
        let refreshToken = RefreshTokens.make()
        let family = SignInID.random()
        try await dependencies.store.insertRefreshToken(
            hash: RefreshTokens.hash(refreshToken), familyId: family, userId: user.id, deviceId: deviceId,
            issuedAt: now, expiresAt: now + dependencies.configuration.refreshTokenLifetime)
        return try await tokenPair(for: user, refreshToken: refreshToken, family: family, now: now)
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
        case .rotated(let userId, let family, _), .replayed(let userId, let family, _):
            guard let user = try await dependencies.store.user(id: userId) else { throw APIError.unauthorized }
            return try await tokenPair(for: user, refreshToken: successor, family: family, now: now)
        case .reused:
            dependencies.logger.warning("refresh token reused; its family is revoked")
            throw APIError(
                .unauthorized, .tokenReused,
                "This sign-in was ended because its refresh token was used twice; sign in again.")
        case .invalid:
            if try await dependencies.store.refreshTokenOfRemovedUser(hash: RefreshTokens.hash(body.refreshToken)) {
                throw APIError.accountRemoved
            }
            throw APIError(
                .unauthorized, .unauthorized, "The refresh token is unknown, expired or revoked; sign in again.")
        }
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(RefreshRequest.self, from: request)
        try await dependencies.store.revokeFamily(
            ofTokenHash: RefreshTokens.hash(body.refreshToken), now: dependencies.clock.now())
        dependencies.revokedSessions.invalidate()
        return Response(status: .noContent)
    }

    func tokenPair(
        for user: UserRecord, refreshToken: String, family: SignInID, now: Date
    ) async throws -> Response {
        let settings = try await dependencies.store.tenantSettings(user.tenantId)
        // Required of organizers and not on yet: a session that may only turn it on (and, once
        // on, the next refresh is a whole one).
        var mustEnroll = false
        if user.role == .organizer, settings.organizersNeedTwoFactor == true {
            mustEnroll = !(try await dependencies.store.twoFactorEnabled(userId: user.id))
        }
        let caller = Caller(
            userId: user.id, tenantId: user.tenantId, role: user.role, session: family, mustEnroll: mustEnroll)
        let access = try await dependencies.accessTokens().issue(for: caller, now: now)
        return try HTTPHelpers.json(
            TokenPair(
                accessToken: access, refreshToken: refreshToken,
                expiresIn: Int(dependencies.configuration.accessTokenLifetime), user: user.info,
                offlineUnlockHours: settings.offlineUnlockHours, twoFactorEnrollmentRequired: mustEnroll ? true : nil))
    }
}
