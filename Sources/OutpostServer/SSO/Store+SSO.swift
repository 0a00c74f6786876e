import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// A tenant's identity provider as stored: its settings (without the secret), the secret sealed
/// by the key-encryption keys, and the endpoints its discovery document named at save.
struct SSOProviderRecord: Sendable {
    var tenantId: TenantID
    var settings: SSOSettings
    var secretKEKId: String
    var sealedSecret: [UInt8]
    var endpoints: IdentityProviderClient.Discovery
}

/// One browser sign-in under way, keyed by the `state` sent to the provider (ten minutes).
struct SSOAttempt: Sendable {
    var state: String
    var tenantId: TenantID
    var nonce: String
    /// The PKCE verifier of the server's own request to the provider.
    var providerVerifier: String
    /// The callback URL the provider was given (the code exchange names it again).
    var callback: String
    /// The app's PKCE challenge, its redirect and its own state.
    var appChallenge: String
    var appRedirect: String
    var appState: String?
    var expiresAt: Date
}

/// Why a provider's settings were not saved.
enum SSOStoreError: Error, Equatable {
    /// The domain is signed in by another tenant's provider.
    case domainTaken(String)
}

extension Store {
    private static let providerColumns = """
        tenant_id, display_name, issuer, client_id, secret_kek_id, sealed_secret, authorization_endpoint,
        token_endpoint, jwks_uri, new_users, password_sign_in
        """

    /// The tenant's provider, if it has one.
    func ssoProvider(tenantId: TenantID) async throws -> SSOProviderRecord? {
        try await database.read { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT \(Self.providerColumns) FROM sso_providers WHERE tenant_id = ?", [.id(tenantId)])
            else { return nil }
            let domains = try await connection.query(
                "SELECT domain FROM sso_domains WHERE tenant_id = ? ORDER BY domain", [.id(tenantId)]
            ).map { try $0.text("domain") }
            return try Self.provider(from: row, domains: domains)
        }
    }

    /// The provider that signs in `domain` (lower-case), if any tenant's does.
    func ssoProvider(domain: String) async throws -> SSOProviderRecord? {
        let tenant = try await database.read { connection in
            try await connection.queryOne("SELECT tenant_id FROM sso_domains WHERE domain = ?", [.text(domain)])
                .map { try $0.id("tenant_id", as: TenantID.self) }
        }
        guard let tenant else { return nil }
        return try await ssoProvider(tenantId: tenant)
    }

    private static func provider(from row: SQLRow, domains: [String]) throws -> SSOProviderRecord {
        let issuer = try row.text("issuer")
        return SSOProviderRecord(
            tenantId: try row.id("tenant_id"),
            settings: SSOSettings(
                displayName: try row.text("display_name"), issuer: issuer, clientId: try row.text("client_id"),
                allowedDomains: domains, newUsers: try row.enumeration("new_users", as: SSONewUsers.self),
                passwordSignIn: try row.bool("password_sign_in")),
            secretKEKId: try row.text("secret_kek_id"), sealedSecret: try row.blob("sealed_secret"),
            endpoints: IdentityProviderClient.Discovery(
                issuer: issuer, authorizationEndpoint: try row.text("authorization_endpoint"),
                tokenEndpoint: try row.text("token_endpoint"), jwksURI: try row.text("jwks_uri")))
    }

    /// Saves the tenant's provider and the domains it signs in (replacing the tenant's earlier
    /// ones); a domain another tenant's provider signs in refuses the whole save.
    func saveSSOProvider(_ record: SSOProviderRecord, now: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute("DELETE FROM sso_domains WHERE tenant_id = ?", [.id(record.tenantId)])
            for domain in record.settings.allowedDomains {
                let inserted = try await connection.queryOne(
                    "INSERT INTO sso_domains (domain, tenant_id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING domain",
                    [.text(domain), .id(record.tenantId)])
                if inserted == nil { throw SSOStoreError.domainTaken(domain) }
            }
            let settings = record.settings
            try await connection.execute(
                """
                INSERT INTO sso_providers (\(Self.providerColumns), updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id) DO UPDATE SET display_name = excluded.display_name,
                    issuer = excluded.issuer, client_id = excluded.client_id,
                    secret_kek_id = excluded.secret_kek_id, sealed_secret = excluded.sealed_secret,
                    authorization_endpoint = excluded.authorization_endpoint,
                    token_endpoint = excluded.token_endpoint, jwks_uri = excluded.jwks_uri,
                    new_users = excluded.new_users, password_sign_in = excluded.password_sign_in,
                    updated_at = excluded.updated_at
                """,
                [
                    .id(record.tenantId), .text(settings.displayName), .text(settings.issuer),
                    .text(settings.clientId), .text(record.secretKEKId), .blob(record.sealedSecret),
                    .text(record.endpoints.authorizationEndpoint), .text(record.endpoints.tokenEndpoint),
                    .text(record.endpoints.jwksURI), .text(settings.newUsers.rawValue),
                    .bool(settings.passwordSignIn), .date(now),
                ])
        }
    }

    /// Replaces the sealed secret (sealed again under the current key-encryption key) unless a
    /// save or another instance changed it meanwhile.
    func resealSSOSecret(tenantId: TenantID, from oldKEKId: String, to kekId: String, sealed: [UInt8]) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                "UPDATE sso_providers SET secret_kek_id = ?, sealed_secret = ? WHERE tenant_id = ? AND secret_kek_id = ?",
                [.text(kekId), .blob(sealed), .id(tenantId), .text(oldKEKId)])
        }
    }

    /// Removes the tenant's provider (its users sign in with passwords again); false when it had none.
    /// The identities it linked stay, so the same people are the same users if it comes back.
    func removeSSOProvider(tenantId: TenantID) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.execute("DELETE FROM sso_domains WHERE tenant_id = ?", [.id(tenantId)])
            return try await connection.queryOne(
                "DELETE FROM sso_providers WHERE tenant_id = ? RETURNING tenant_id", [.id(tenantId)]) != nil
        }
    }

    /// Keeps a new attempt; attempts that expired unused go.
    func insertSSOAttempt(_ attempt: SSOAttempt, now: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute("DELETE FROM sso_attempts WHERE expires_at <= ?", [.date(now)])
            try await connection.execute(
                """
                INSERT INTO sso_attempts (state, tenant_id, nonce, provider_verifier, callback, app_challenge,
                    app_redirect, app_state, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(attempt.state), .id(attempt.tenantId), .text(attempt.nonce), .text(attempt.providerVerifier),
                    .text(attempt.callback), .text(attempt.appChallenge), .text(attempt.appRedirect),
                    .optionalText(attempt.appState), .date(attempt.expiresAt),
                ])
        }
    }

    /// Takes the attempt of `state` (deleted: a second callback with it finds nothing); nil when
    /// there is none, it expired or it belongs to another tenant's provider. Expired attempts go too.
    func takeSSOAttempt(state: String, tenantId: TenantID, now: Date) async throws -> SSOAttempt? {
        try await database.transaction { connection in
            try await connection.execute("DELETE FROM sso_attempts WHERE expires_at <= ?", [.date(now)])
            guard
                let row = try await connection.queryOne(
                    """
                    DELETE FROM sso_attempts WHERE state = ? RETURNING state, tenant_id, nonce, provider_verifier,
                        callback, app_challenge, app_redirect, app_state, expires_at
                    """, [.text(state)])
            else { return nil }
            let attempt = SSOAttempt(
                state: try row.text("state"), tenantId: try row.id("tenant_id"), nonce: try row.text("nonce"),
                providerVerifier: try row.text("provider_verifier"), callback: try row.text("callback"),
                appChallenge: try row.text("app_challenge"), appRedirect: try row.text("app_redirect"),
                appState: try row.optionalText("app_state"), expiresAt: try row.date("expires_at"))
            return attempt.tenantId == tenantId ? attempt : nil
        }
    }

    /// The user an identity (issuer and subject) was linked to, unless removed.
    func ssoUser(issuer: String, subject: String) async throws -> UserRecord? {
        try await database.read { connection in
            try await connection.queryOne(
                """
                SELECT \(Self.userColumns) FROM users WHERE removed_at IS NULL
                AND id = (SELECT user_id FROM sso_identities WHERE issuer = ? AND subject = ?)
                """, [.text(issuer), .text(subject)]
            ).map(Self.user(from:))
        }
    }

    /// Links an identity to `user`, creating the user first when `create` (in one transaction:
    /// two first sign-ins of one person at once make one account).
    func linkSSOIdentity(
        issuer: String, subject: String, to user: UserRecord, create: Bool, now: Date
    ) async throws -> UserRecord {
        try await database.transaction { connection in
            if create { try await insertUser(connection, user) }
            try await connection.execute(
                """
                INSERT INTO sso_identities (issuer, subject, tenant_id, user_id, linked_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (issuer, subject) DO NOTHING
                """, [.text(issuer), .text(subject), .id(user.tenantId), .id(user.id), .date(now)])
            return user
        }
    }

    /// Stores a one-time code (as its hash) for `userId`, bound to the app's PKCE challenge.
    func insertSSOCode(_ code: String, userId: UserID, appChallenge: String, expiresAt: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                "INSERT INTO sso_codes (code_hash, user_id, app_challenge, expires_at) VALUES (?, ?, ?, ?)",
                [.text(Self.ssoCodeHash(code)), .id(userId), .text(appChallenge), .date(expiresAt)])
        }
    }

    /// Uses up a one-time code: its user and the challenge it was bound to; nil when unknown,
    /// used or expired. Whatever the verifier, the code is gone after this.
    func takeSSOCode(_ code: String, now: Date) async throws -> (userId: UserID, appChallenge: String)? {
        try await database.transaction { connection in
            try await connection.execute("DELETE FROM sso_codes WHERE expires_at <= ?", [.date(now)])
            return try await connection.queryOne(
                "DELETE FROM sso_codes WHERE code_hash = ? RETURNING user_id, app_challenge",
                [.text(Self.ssoCodeHash(code))]
            ).map { (try $0.id("user_id"), try $0.text("app_challenge")) }
        }
    }

    private static func ssoCodeHash(_ code: String) -> String {
        SHA256.hash(data: Data(code.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
