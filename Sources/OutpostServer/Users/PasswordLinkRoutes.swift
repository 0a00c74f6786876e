import Crypto
import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Password links: an organizer has a link mailed to a user (`POST
/// /v1/users/{userId}/password-link`), who sets a new password with it on the console's page
/// (`POST /v1/auth/password-link`, no sign-in). The organizer never learns the password. A
/// link works once, for a day, and only while it is the user's newest; using it ends every
/// sign-in of the user.
struct PasswordLinkRoutes {
    let dependencies: ServerDependencies

    /// How long a mailed link works.
    static let lifetime: TimeInterval = 24 * 3_600

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.sendPasswordLink, use: send)
    }

    func registerUse(on group: RouterGroup<AppRequestContext>) {
        group.on(API.usePasswordLink, use: use)
    }

    /// The database keeps the token's SHA-256 only: a copy of it opens no account.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Sendable func send(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.sendPasswordLink.parameters(in: context)
        // Another tenant's user is not found, whatever this server's mail can do.
        guard try await dependencies.store.user(id: id, tenantId: context.caller.tenantId) != nil else {
            throw APIError.notFound
        }
        let configuration = dependencies.configuration
        guard let relay = configuration.smtpRelay else {
            throw APIError(.serviceUnavailable, .mailUnavailable, "\(MailError.notConfigured).")
        }
        // The link must name this server as its users reach it; a guessed host could be wrong.
        guard let base = configuration.publicURL?.absoluteString else {
            throw APIError(
                .serviceUnavailable, .mailUnavailable,
                "The server does not know its public address (outpost serve --public-url), so it cannot make a link.")
        }
        let token = RefreshTokens.make()
        let link =
            (base.hasSuffix("/") ? String(base.dropLast()) : base)
            + ConsolePages.passwordPage.path(query: [("token", token)])
        let now = dependencies.clock.now()
        let expiresAt = now + Self.lifetime
        let from = configuration.mailFrom
        let messageID = relay.newMessageID()
        guard
            let user = try await dependencies.store.createPasswordLink(
                userId: id, tenantId: context.caller.tenantId, tokenHash: Self.hash(token),
                createdBy: context.caller.userId, now: now, expiresAt: expiresAt,
                mail: { user in
                    try OutgoingMail(
                        purpose: .passwordLink, message: Self.message(to: user, from: from, link: link),
                        messageID: messageID, now: now, expiresAt: expiresAt)
                })
        else { throw APIError.notFound }
        dependencies.mailQueue.nudge()
        return try HTTPHelpers.json(PasswordLinkSent(email: user.email, expiresAt: expiresAt), status: .accepted)
    }

    @Sendable func use(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(PasswordLinkUse.self, from: request)
        guard body.password.count >= 8 else {
            throw APIError.invalidRequest("'password' must be at least 8 characters.", status: .unprocessableContent)
        }
        let now = dependencies.clock.now()
        let hash = Self.hash(body.token)
        let refused = APIError(
            .unauthorized, .invalidCode,
            "This link has expired, was used already or was replaced by a newer one: ask an organizer for a new one.")
        // The link is checked before the password is hashed (a guessed token costs no bcrypt), and
        // again as it is used up (two tabs, one wins).
        guard let user = try await dependencies.store.passwordLinkUser(tokenHash: hash, now: now) else { throw refused }
        let passwordHash = try await dependencies.hasher.hashPassword(body.password)
        guard
            try await dependencies.store.usePasswordLink(
                tokenHash: hash, userId: user.id, tenantId: user.tenantId, passwordHash: passwordHash, now: now)
        else { throw refused }
        dependencies.revokedSessions.invalidate()
        return Response(status: .noContent)
    }

    /// The mail. Pure.
    static func message(to user: UserRecord, from: String, link: String) -> MailMessage {
        MailMessage(
            from: from, to: user.email, subject: "Set your Outpost password",
            body: """
                Hello \(user.name),

                An organizer asked for a new password for your Outpost account (\(user.email)).
                Open this link within a day to choose it:

                \(link)

                The link works once. When you have set the password, every device you were signed in
                on asks for it again. If you did not expect this mail, tell your organizer.
                """)
    }
}
