import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    static let userColumns = "id, tenant_id, email, name, role, password_hash"

    static func user(from row: SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.id("id"), tenantId: try row.id("tenant_id"), email: try row.text("email"),
            name: try row.text("name"), role: try row.enumeration("role", as: UserRole.self),
            passwordHash: try row.text("password_hash"))
    }

    /// Normalises an e-mail address, the one way every lookup, stored address, rate-limit subject
    /// and code hash uses: trimmed, compatibility-composed (NFKC: the Kelvin sign is K, a
    /// fullwidth ｋ is k), then lower-cased. Forms that fold to the same address are one address;
    /// forms that do not (a dotless ı, ß) stay apart.
    static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCompatibilityMapping.lowercased()
    }

    /// Creates the first tenant and its organizer; refuses an e-mail that exists.
    func bootstrap(
        tenantName: String, email: String, name: String, passwordHash: String
    ) async throws -> (tenantId: TenantID, userId: UserID) {
        let tenantId = TenantID.random()
        let userId = UserID.random()
        try await database.transaction { connection in
            if try await connection.queryOne(
                "SELECT 1 FROM users WHERE email = ?", [.text(Self.normalizedEmail(email))]) != nil
            {
                throw StoreError.emailTaken
            }
            try await connection.execute(
                "INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)",
                [.id(tenantId), .text(tenantName), .date(.now)])
            try await insertUser(
                connection,
                UserRecord(
                    id: userId, tenantId: tenantId, email: Self.normalizedEmail(email), name: name, role: .organizer,
                    passwordHash: passwordHash))
        }
        return (tenantId, userId)
    }

    func createUser(_ user: UserRecord, by actor: UserID, now: Date) async throws -> UserRecord {
        var user = user
        user.email = Self.normalizedEmail(user.email)
        try await database.transaction { [user] connection in
            try await insertUser(connection, user)
            try await Self.recordUserChange(
                connection, tenantId: user.tenantId, kind: .added, userId: user.id, by: actor,
                detail: user.role.rawValue, now: now)
        }
        return user
    }

    func insertUser(_ connection: any SQLConnection, _ user: UserRecord) async throws {
        let inserted = try await connection.queryOne(
            """
            INSERT INTO users (id, tenant_id, email, name, role, password_hash, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
            """,
            [
                .id(user.id), .id(user.tenantId), .text(user.email), .text(user.name), .text(user.role.rawValue),
                .text(user.passwordHash), .date(.now),
            ])
        if inserted == nil { throw StoreError.emailTaken }
    }

    /// A user who may sign in (not removed).
    func user(email: String) async throws -> UserRecord? {
        try await database.read { connection in
            try await connection.queryOne(
                "SELECT \(Self.userColumns) FROM users WHERE email = ? AND removed_at IS NULL",
                [.text(Self.normalizedEmail(email))]
            ).map(Self.user(from:))
        }
    }

    /// A user who may still use the service (not removed).
    func user(id: UserID) async throws -> UserRecord? {
        try await database.read { connection in
            try await connection.queryOne(
                "SELECT \(Self.userColumns) FROM users WHERE id = ? AND removed_at IS NULL", [.id(id)]
            )
            .map(Self.user(from:))
        }
    }

    /// The tenant's users (not removed), by name then e-mail.
    func users(tenantId: TenantID) async throws -> [UserRecord] {
        try await database.read { connection in
            try await connection.query(
                "SELECT \(Self.userColumns) FROM users WHERE tenant_id = ? AND removed_at IS NULL ORDER BY name, email",
                [.id(tenantId)]
            ).map(Self.user(from:))
        }
    }

    /// The event's staff (not removed), by name then e-mail, each with the role the event gives
    /// them (nil: their own).
    func staff(eventId: EventID) async throws -> [(user: UserRecord, eventRole: UserRole?)] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT \(Self.userColumns),
                    (SELECT s.role FROM event_staff s WHERE s.event_id = ? AND s.user_id = users.id) AS event_role
                FROM users WHERE removed_at IS NULL
                AND id IN (SELECT user_id FROM event_staff WHERE event_id = ?) ORDER BY name, email
                """, [.id(eventId), .id(eventId)]
            ).map { row in
                (try Self.user(from: row), try row.optionalText("event_role").flatMap(UserRole.init(rawValue:)))
            }
        }
    }

    func user(id: UserID, tenantId: TenantID) async throws -> UserRecord? {
        try await database.read { connection in
            try await connection.queryOne(
                "SELECT \(Self.userColumns) FROM users WHERE id = ? AND tenant_id = ? AND removed_at IS NULL",
                [.id(id), .id(tenantId)]
            ).map(Self.user(from:))
        }
    }

    /// Removes a user of the tenant: they can no longer sign in, every sign-in of theirs is
    /// revoked (their devices learn it at their next refresh), and their assignments go. The row
    /// stays for the records that name them. False when no such user of the tenant.
    func removeUser(_ id: UserID, tenantId: TenantID, by actor: UserID, now: Date) async throws -> Bool {
        try await database.transaction { connection in
            guard
                try await connection.queryOne(
                    "UPDATE users SET removed_at = ? WHERE id = ? AND tenant_id = ? AND removed_at IS NULL RETURNING id",
                    [.date(now), .id(id), .id(tenantId)]) != nil
            else { return false }
            try await Self.revokeEverySignIn(connection, userId: id, now: now)
            try await connection.execute("DELETE FROM event_staff WHERE user_id = ?", [.id(id)])
            try await connection.execute("DELETE FROM contact_mentors WHERE user_id = ?", [.id(id)])
            try await Self.recordUserChange(
                connection, tenantId: tenantId, kind: .removed, userId: id, by: actor, now: now)
            return true
        }
    }

    /// Sets a user's password (an organizer's reset) and revokes every sign-in of theirs.
    func resetPassword(
        _ id: UserID, tenantId: TenantID, passwordHash: String, by actor: UserID, now: Date
    ) async throws -> Bool {
        try await database.transaction { connection in
            guard
                try await connection.queryOne(
                    """
                    UPDATE users SET password_hash = ? WHERE id = ? AND tenant_id = ? AND removed_at IS NULL
                    RETURNING id
                    """, [.text(passwordHash), .id(id), .id(tenantId)]) != nil
            else { return false }
            try await Self.revokeEverySignIn(connection, userId: id, now: now)
            try await Self.recordUserChange(
                connection, tenantId: tenantId, kind: .passwordReset, userId: id, by: actor, now: now)
            return true
        }
    }

    /// Why a user's change was refused.
    enum UserChangeRefusal: Error, Equatable {
        /// An exhibitor or block manager works no event's staff: they are on some.
        case onEventStaff
    }

    /// Renames a user of the tenant and changes their role; a new role revokes every sign-in of
    /// theirs (the tokens carry the role). Nil when no such user. (An organizer cannot change
    /// their own role, so the tenant always keeps one.)
    func updateUser(
        _ id: UserID, tenantId: TenantID, name: String?, role: UserRole?, by actor: UserID, now: Date
    ) async throws -> UserRecord? {
        try await database.transaction { connection in
            guard
                let current = try await connection.queryOne(
                    "SELECT \(Self.userColumns) FROM users WHERE id = ? AND tenant_id = ? AND removed_at IS NULL",
                    [.id(id), .id(tenantId)]
                ).map(Self.user(from:))
            else { return nil }
            var updated = current
            if let name { updated.name = name }
            if let role, role != current.role {
                if role == .exhibitor || role == .blockManager,
                    try await connection.queryOne("SELECT 1 FROM event_staff WHERE user_id = ?", [.id(id)]) != nil
                {
                    throw UserChangeRefusal.onEventStaff
                }
                updated.role = role
                try await Self.revokeEverySignIn(connection, userId: id, now: now)
            }
            try await connection.execute(
                "UPDATE users SET name = ?, role = ? WHERE id = ?",
                [.text(updated.name), .text(updated.role.rawValue), .id(id)])
            if updated.name != current.name {
                try await Self.recordUserChange(
                    connection, tenantId: tenantId, kind: .renamed, userId: id, by: actor,
                    detail: "\(current.name) → \(updated.name)", now: now)
            }
            if updated.role != current.role {
                try await Self.recordUserChange(
                    connection, tenantId: tenantId, kind: .roleChanged, userId: id, by: actor,
                    detail: "\(current.role.rawValue) → \(updated.role.rawValue)", now: now)
            }
            return updated
        }
    }

    /// Ends every sign-in of a user of the tenant; false when no such user.
    func signOutEverywhere(_ id: UserID, tenantId: TenantID, by actor: UserID, now: Date) async throws -> Bool {
        try await database.transaction { connection in
            guard try await Self.isActiveUser(connection, id, tenantId: tenantId) else { return false }
            try await Self.revokeEverySignIn(connection, userId: id, now: now)
            try await Self.recordUserChange(
                connection, tenantId: tenantId, kind: .signedOutEverywhere, userId: id, by: actor, now: now)
            return true
        }
    }

    /// Whether the tenant has this user, not removed (inside a transaction that acts on them).
    static func isActiveUser(_ connection: any SQLConnection, _ id: UserID, tenantId: TenantID) async throws -> Bool {
        try await connection.queryOne(
            "SELECT id FROM users WHERE id = ? AND tenant_id = ? AND removed_at IS NULL", [.id(id), .id(tenantId)])
            != nil
    }

    /// Ends every sign-in of a user, and with them every mesh certificate of theirs.
    static func revokeEverySignIn(_ connection: any SQLConnection, userId: UserID, now: Date) async throws {
        try await connection.execute(
            "UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
            [.date(now), .id(userId)])
        try await revokeMeshCertificates(connection, userId: userId, now: now)
    }
}
