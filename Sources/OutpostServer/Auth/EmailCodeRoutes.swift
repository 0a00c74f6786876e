import Crypto
import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Passwordless sign-in and registration (seed 003's "Log In" and "Create Account"):
/// `POST /v1/auth/email-code` queues a six-digit code's mail (ten minutes, single use, stored as
/// an HMAC; ``EmailCodeMail``); `POST /v1/auth/email-signin` trades it for a token pair, creating the account when
/// the e-mail has none and the person gave a name and their consent. Rate limited per e-mail
/// and per address, like password sign-in.
struct EmailCodeRoutes {
    let dependencies: ServerDependencies

    static let codeLifetime: TimeInterval = 600
    static let codesPerEmailPerHour = 5
    static let codesPerAddressPerHour = 20

    func register(on group: RouterGroup<AppRequestContext>) {
        group.on(API.emailCode, use: sendCode)
        group.on(API.emailSignIn, use: signIn)
    }

    @Sendable func sendCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(EmailCodeRequest.self, from: request)
        let email = try UserRoutes.validEmail(body.email)
        guard dependencies.configuration.smtpRelay != nil else {
            throw APIError(
                .serviceUnavailable, .mailUnavailable,
                "This server cannot send e-mail (no SMTP relay is configured); sign in with a password.")
        }
        let now = dependencies.clock.now()
        let configuration = dependencies.configuration
        let address = context.clientAddress(of: request, trustedProxies: configuration.trustedProxies) ?? "local"
        // Every request counts (these rows are never released): a mailbox cannot be flooded.
        _ = try await dependencies.store.reserveSignInAttempt(
            subjects: [
                ("code-email:" + Store.normalizedEmail(email), Self.codesPerEmailPerHour),
                ("code-addr:" + address, Self.codesPerAddressPerHour),
            ], now: now, window: 3600
        ).attempt(now: now, refusal: "Too many codes asked for")
        // The request is queued as it is, whether or not the e-mail has an account, and answered:
        // the mail queue's sender makes the code and its mail (``EmailCodeMail``), or nothing for
        // a sign-in to an unknown e-mail. The answer and its timing are the same either way, and
        // a relay that is down delays the mail instead of losing it.
        try await dependencies.store.queueCodeRequest(
            OutgoingMail(
                request: body.purpose == .signin ? .signInCode : .registrationCode, from: configuration.mailFrom,
                to: Store.normalizedEmail(email), expiresAt: now + Self.codeLifetime),
            now: now)
        dependencies.mailQueue.nudge()
        return Response(status: .accepted)
    }

    /// The code on the first line, then what it is for.
    static func body(code: String, existing: Bool) -> String {
        """
        \(code)

        This is your Outpost code. It works once, for ten minutes.
        \(existing ? "Enter it in the app to sign in." : "Enter it in the app to create your account.")
        If you did not ask for it, ignore this mail: nothing happens without the code.
        """
    }

    /// Six uniformly random digits.
    static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(EmailSignInRequest.self, from: request)
        let email = try UserRoutes.validEmail(body.email)
        let deviceId = try HTTPHelpers.nonEmpty(body.deviceId, "deviceId")
        let store = dependencies.store
        let now = dependencies.clock.now()
        let (attempt, emailSubject) = try await AuthRoutes(dependencies: dependencies).reserveAttempt(
            email: email, request, context, now: now, refusal: "Too many wrong codes")
        let existing = try await store.user(email: email)
        let code = body.code.trimmingCharacters(in: .whitespaces)
        let wrongCode = APIError(.unauthorized, .invalidCode, "That code is wrong, used or expired; ask for a new one.")
        /// The code is checked (and, when `consume`, used up); a wrong code is one answer whether
        /// or not the e-mail has an account, and its attempt stays counted.
        func check(consume: Bool) async throws -> Bool {
            guard code.count == 6, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else { return false }
            return try await store.useEmailCode(
                email: email, hash: try await store.emailCodeHash(email: email, code: code), now: now, consume: consume)
                == .valid
        }
        let registration: (name: String, consent: String)?
        if existing == nil {
            guard let name = body.name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty,
                let consent = body.consentVersion?.trimmingCharacters(in: .whitespaces), !consent.isEmpty
            else {
                // Only the holder of a valid code learns there is no account (the mail said so);
                // the code is not used up, so a forgotten name does not cost it.
                guard try await check(consume: false) else { throw wrongCode }
                throw APIError.invalidRequest(
                    "No account has this e-mail: to create one, give 'name' and the 'consentVersion' accepted.",
                    status: .unprocessableContent)
            }
            registration = (name, consent)
        } else {
            registration = nil
        }
        guard try await check(consume: true) else { throw wrongCode }
        var user = existing
        if let registration {
            // Nobody knows this password: the account signs in with codes.
            let unusable = try await dependencies.hasher.unusablePasswordHash()
            user = try await store.registerWorker(
                email: email, name: registration.name, consentVersion: registration.consent, passwordHash: unusable,
                now: now)
        }
        guard let user else { throw APIError(.conflict, .emailTaken, "A user with this e-mail already exists.") }
        try await store.releaseSignInAttempt(attempt, clearing: emailSubject)
        return try await AuthRoutes(dependencies: dependencies).startSession(for: user, deviceId: deviceId, now: now)
    }
}

/// `GET` and `PUT /v1/me/consent`: the terms version the signed-in user accepted.
struct ConsentRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.consent, use: show)
        group.on(API.setConsent, use: update)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try HTTPHelpers.json(try await dependencies.store.consent(userId: context.caller.userId))
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(ConsentRecord.self, from: request)
        guard let version = body.version?.trimmingCharacters(in: .whitespaces), !version.isEmpty, version.count <= 64
        else {
            throw APIError.invalidRequest(
                "'version' names the accepted terms (1 to 64 characters).", status: .unprocessableContent)
        }
        try await dependencies.store.setConsent(
            userId: context.caller.userId, version: version, now: dependencies.clock.now())
        return try HTTPHelpers.json(try await dependencies.store.consent(userId: context.caller.userId))
    }
}
