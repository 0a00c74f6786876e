import Foundation
import OutpostCore
import OutpostProtocol

/// The organisation's record of what was done to its users' accounts (added, renamed, a new
/// role, removed, passwords, sign-ins ended, a second factor turned off): written in the same
/// transaction as the change, append-only (schema v28's triggers refuse UPDATE and DELETE).
extension Store {
    static func recordUserChange(
        _ connection: any SQLConnection, tenantId: TenantID, kind: UserChangeKind, userId: UserID, by actor: UserID,
        detail: String? = nil, now: Date
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO user_changes (id, tenant_id, seq, at, kind, user_id, by_id, detail)
            VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM user_changes WHERE tenant_id = ?), ?, ?, ?, ?, ?)
            """,
            [
                .text(UUID().uuidString.lowercased()), .id(tenantId), .id(tenantId), .date(now), .text(kind.rawValue),
                .id(userId), .id(actor), detail.map { .text($0) } ?? .null,
            ])
    }

    /// How a change names a user whose account was erased.
    static let erased = "an erased account"

    /// The tenant's latest changes to its users, newest first (in the order they were written:
    /// a rename and a new role of one request keep theirs), with the names the users have now.
    func userChanges(tenantId: TenantID, limit: Int) async throws -> [UserChange] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT c.at, c.kind, c.user_id, c.by_id, c.detail, u.name AS user_name, b.name AS by_name
                FROM user_changes c LEFT JOIN users u ON u.id = c.user_id LEFT JOIN users b ON b.id = c.by_id
                WHERE c.tenant_id = ? ORDER BY c.seq DESC, c.id DESC LIMIT ?
                """, [.id(tenantId), .int(Int64(limit))]
            ).map { row in
                UserChange(
                    at: try row.date("at"), kind: try row.enumeration("kind", as: UserChangeKind.self),
                    userId: try row.id("user_id"), userName: try row.optionalText("user_name") ?? Self.erased,
                    byId: try row.id("by_id"), byName: try row.optionalText("by_name") ?? Self.erased,
                    detail: try row.optionalText("detail"))
            }
        }
    }
}
