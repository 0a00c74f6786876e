import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    static let userColumns = "id, tenant_id, email, name, role, password_hash"

    static func user(from row: SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.uuid("id"), tenantId: try row.uuid("tenant_id"), email: try row.text("email"),
            name: try row.text("name"), role: try row.enumeration("role", as: UserRole.self),
            passwordHash: try row.text("password_hash"))
    }

    /// Normalises an e-mail address for lookups: trimmed, lower-cased.
    static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Creates the first tenant and its organizer; refuses an e-mail that exists.
    func bootstrap(
        tenantName: String, email: String, name: String, passwordHash: String
    ) async throws -> (tenantId: UUID, userId: UUID) {
        let tenantId = UUID()
        let userId = UUID()
        try await database.transaction { connection in
            if try await connection.queryOne(
                "SELECT 1 FROM users WHERE email = ?", [.text(Self.normalizedEmail(email))]) != nil
            {
                throw StoreError.emailTaken
            }
            try await connection.execute(
                "INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)",
                [.uuid(tenantId), .text(tenantName), .date(.now)])
            try await insertUser(
                connection,
                UserRecord(
                    id: userId, tenantId: tenantId, email: Self.normalizedEmail(email), name: name, role: .organizer,
                    passwordHash: passwordHash))
        }
        return (tenantId, userId)
    }

    func createUser(_ user: UserRecord) async throws -> UserRecord {
        var user = user
        user.email = Self.normalizedEmail(user.email)
        try await database.transaction { [user] connection in try await insertUser(connection, user) }
        return user
    }

    private func insertUser(_ connection: any SQLConnection, _ user: UserRecord) async throws {
        let inserted = try await connection.queryOne(
            """
            INSERT INTO users (id, tenant_id, email, name, role, password_hash, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
            """,
            [
                .uuid(user.id), .uuid(user.tenantId), .text(user.email), .text(user.name), .text(user.role.rawValue),
                .text(user.passwordHash), .date(.now),
            ])
        if inserted == nil { throw StoreError.emailTaken }
    }

    func user(email: String) async throws -> UserRecord? {
        try await database.read { connection in
            try await connection.queryOne(
                "SELECT \(Self.userColumns) FROM users WHERE email = ?", [.text(Self.normalizedEmail(email))]
            ).map(Self.user(from:))
        }
    }

    func user(id: UUID) async throws -> UserRecord? {
        try await database.read { connection in
            try await connection.queryOne("SELECT \(Self.userColumns) FROM users WHERE id = ?", [.uuid(id)])
                .map(Self.user(from:))
        }
    }

    func user(id: UUID, tenantId: UUID) async throws -> UserRecord? {
        try await database.read { connection in
            try await connection.queryOne(
                "SELECT \(Self.userColumns) FROM users WHERE id = ? AND tenant_id = ?", [.uuid(id), .uuid(tenantId)]
            ).map(Self.user(from:))
        }
    }
}
