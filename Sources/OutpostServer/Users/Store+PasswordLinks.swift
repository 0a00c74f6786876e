import Foundation
import OutpostCore

/// Password links: an organizer has a link mailed to a user, who sets a new password with it.
/// The store keeps only the token's SHA-256; a link works once, before it expires, and only
/// while it is the user's newest.
extension Store {
    /// Records a new link for a user of the tenant (the older ones stop working) and queues its
    /// mail, in one transaction; the user, or nil when the tenant has no such user.
    func createPasswordLink(
        userId: UserID, tenantId: TenantID, tokenHash: String, createdBy: UserID, now: Date, expiresAt: Date,
        mail: @Sendable (UserRecord) throws -> OutgoingMail
    ) async throws -> UserRecord? {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT \(Self.userColumns) FROM users WHERE id = ? AND tenant_id = ? AND removed_at IS NULL",
                    [.id(userId), .id(tenantId)])
            else { return nil }
            let user = try Self.user(from: row)
            try await connection.execute(
                "UPDATE password_links SET used_at = ? WHERE user_id = ? AND used_at IS NULL",
                [.date(now), .id(userId)])
            try await connection.execute(
                """
                INSERT INTO password_links (token_hash, user_id, created_by, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?)
                """,
                [.text(tokenHash), .id(userId), .id(createdBy), .date(now), .date(expiresAt)])
            _ = try await Self.enqueueMail(connection, try mail(user), now: now)
            try await Self.recordUserChange(
                connection, tenantId: tenantId, kind: .passwordLinkSent, userId: userId, by: createdBy, now: now)
            return user
        }
    }

    /// The user a link is good for now (unused, unexpired, the user not removed); nil otherwise.
    func passwordLinkUser(tokenHash: String, now: Date) async throws -> UserRecord? {
        try await database.read { connection in
            try await connection.queryOne(
                """
                SELECT u.id, u.tenant_id, u.email, u.name, u.role, u.password_hash FROM password_links l JOIN users u ON u.id = l.user_id
                WHERE l.token_hash = ? AND l.used_at IS NULL AND l.expires_at > ? AND u.removed_at IS NULL
                """, [.text(tokenHash), .date(now)]
            ).map(Self.user(from:))
        }
    }

    /// Sets the password through a link that is still good, uses it up and ends every sign-in of
    /// the user; false when the link is not good (used meanwhile, expired, unknown).
    func usePasswordLink(
        tokenHash: String, userId: UserID, tenantId: TenantID, passwordHash: String, now: Date
    ) async throws -> Bool {
        try await database.transaction { connection in
            guard
                try await connection.queryOne(
                    """
                    UPDATE password_links SET used_at = ?
                    WHERE token_hash = ? AND user_id = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id
                    """, [.date(now), .text(tokenHash), .id(userId), .date(now)]) != nil,
                try await connection.queryOne(
                    "UPDATE users SET password_hash = ? WHERE id = ? AND removed_at IS NULL RETURNING id",
                    [.text(passwordHash), .id(userId)]) != nil
            else { return false }
            try await Self.revokeEverySignIn(connection, userId: userId, now: now)
            try await Self.recordUserChange(
                connection, tenantId: tenantId, kind: .passwordSetByLink, userId: userId, by: userId, now: now)
            return true
        }
    }
}
