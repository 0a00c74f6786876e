import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Two-factor sign-in (TOTP, RFC 6238): the caller turns it on for their own account
/// (`/v1/me/two-factor`: their password, then the app's first code, then ten recovery codes
/// shown once), and a password sign-in of an account that has it ends with a code
/// (`POST /v1/auth/signin/code`). Wrong codes count against the sign-in limits like wrong
/// passwords; a code signs in once.
struct TwoFactorRoutes {
    let dependencies: ServerDependencies

    /// The only paths a session that must turn it on may use.
    static let enrollmentPaths: Set<String> = [
        API.twoFactor.path(), API.enrollTwoFactor.path(), API.confirmTwoFactor.path(),
    ]

    func registerSignIn(on group: RouterGroup<AppRequestContext>) {
        group.on(API.signInCode, use: signInCode)
    }

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.twoFactor, use: status)
        group.on(API.enrollTwoFactor, use: enroll)
        group.on(API.confirmTwoFactor, use: confirm)
    }

    private func secrets() async throws -> TwoFactorSecrets {
        TwoFactorSecrets(secret: try await dependencies.accessTokens().key)
    }

    @Sendable func signInCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(SignInCodeRequest.self, from: request)
        let now = dependencies.clock.now()
        let secrets = try await secrets()
        guard let (userId, deviceId) = secrets.verifyChallenge(body.challenge, now: now),
            let user = try await dependencies.store.user(id: userId)
        else {
            throw APIError(
                .unauthorized, .unauthorized,
                "This sign-in took too long or was changed; start again with your password.")
        }
        let auth = AuthRoutes(dependencies: dependencies)
        let (attempt, emailSubject) = try await auth.reserveAttempt(
            email: user.email, request, context, now: now, refusal: "Too many wrong codes")
        guard
            try await dependencies.store.acceptSecondFactor(
                userId: user.id, code: body.code, now: now, open: { try secrets.open($0, for: user.id) })
        else {
            throw APIError(
                .unauthorized, .invalidCode,
                "The code is wrong, expired or used already: type the one your app shows now, or a recovery code.")
        }
        try await dependencies.store.releaseSignInAttempt(attempt, clearing: emailSubject)
        return try await auth.startSession(for: user, deviceId: deviceId, now: now)
    }

    @Sendable func status(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let state = try await dependencies.store.twoFactorStatus(userId: context.caller.userId)
        return try HTTPHelpers.json(
            TwoFactorStatus(
                enabled: state.enabled, enrolling: state.enrolling, recoveryCodesLeft: state.recoveryCodesLeft,
                required: try await required(context.caller)))
    }

    @Sendable func enroll(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(TwoFactorEnrollRequest.self, from: request)
        let now = dependencies.clock.now()
        guard let user = try await dependencies.store.user(id: context.caller.userId) else {
            throw APIError.unauthorized
        }
        let (attempt, subject) = try await reserve(user, now: now, refusal: "Too many wrong passwords")
        guard try await dependencies.hasher.verifyPassword(body.password, storedHash: user.passwordHash) else {
            throw APIError(.unauthorized, .invalidCredentials, "The password is wrong.")
        }
        try await dependencies.store.releaseSignInAttempt(attempt, clearing: subject)
        let secret = TwoFactorSecrets.makeSecret()
        guard
            try await dependencies.store.startTwoFactor(
                userId: user.id, sealedSecret: try await secrets().seal(secret, for: user.id), now: now)
        else {
            throw APIError(.conflict, .versionConflict, "Two-factor sign-in is on already for this account.")
        }
        let text = Base32.encode(secret)
        return try HTTPHelpers.json(TwoFactorEnrollment(secret: text, uri: TOTP.uri(secret: text, account: user.email)))
    }

    @Sendable func confirm(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(TwoFactorConfirmRequest.self, from: request)
        let now = dependencies.clock.now()
        guard let user = try await dependencies.store.user(id: context.caller.userId) else {
            throw APIError.unauthorized
        }
        let (attempt, subject) = try await reserve(user, now: now, refusal: "Too many wrong codes")
        let codes = TwoFactorSecrets.makeRecoveryCodes()
        let secrets = try await secrets()
        guard
            try await dependencies.store.confirmTwoFactor(
                userId: user.id, code: body.code, now: now,
                recoveryHashes: codes.compactMap(TwoFactorSecrets.recoveryHash),
                open: { try secrets.open($0, for: user.id) })
        else {
            throw APIError(
                .unprocessableContent, .invalidCode,
                "The code does not match: check that the phone's clock is right and type the code it shows now.")
        }
        try await dependencies.store.releaseSignInAttempt(attempt, clearing: subject)
        return try HTTPHelpers.json(RecoveryCodes(codes: codes))
    }

    /// Whether the organisation requires a second factor of this caller.
    private func required(_ caller: Caller) async throws -> Bool {
        guard caller.role == .organizer else { return false }
        return try await dependencies.store.tenantSettings(caller.tenantId).organizersNeedTwoFactor == true
    }

    /// One attempt against the account's sign-in limit (a wrong password or code here counts as
    /// at the sign-in).
    private func reserve(
        _ user: UserRecord, now: Date, refusal: String
    ) async throws -> (attempt: [Int64], subject: String) {
        let subject = "email:" + Store.normalizedEmail(user.email)
        let configuration = dependencies.configuration
        let reservation = try await dependencies.store.reserveSignInAttempt(
            subjects: [(subject, configuration.signInFailuresPerEmail)], now: now,
            window: configuration.signInWindow)
        return (try reservation.attempt(now: now, refusal: refusal), subject)
    }
}
