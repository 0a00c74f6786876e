import Foundation
import OutpostCore
import OutpostProtocol

/// A position in an event's audit log (the change sequence number and row id of the last entry).
struct AuditCursor: Sendable, Equatable {
    var seq: Int64
    var id: Int64

    static let start = AuditCursor(seq: 0, id: 0)

    var token: String { "A" + Base32.encode(Array("\(seq):\(id)".utf8)) }

    init(seq: Int64, id: Int64) {
        self.seq = seq
        self.id = id
    }

    init?(token: String) {
        guard token.hasPrefix("A"), let bytes = Base32.decode(token.dropFirst()),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let seq = Int64(parts[0]), let id = Int64(parts[1]), seq >= 0, id >= 0 else {
            return nil
        }
        self.init(seq: seq, id: id)
    }
}

/// Which audit entries to show: every one, or of one kind, device, user or guest.
struct AuditFilter: Sendable, Equatable {
    var kind: AuditKind?
    var deviceId: String?
    var userId: UserID?
    var guestId: GuestID?

    /// The filter's SQL conditions and their values.
    var clauses: (sql: String, values: [SQLValue]) {
        var sql = ""
        var values: [SQLValue] = []
        if let kind {
            sql += " AND l.kind = ?"
            values.append(.text(kind.rawValue))
        }
        if let deviceId {
            sql += " AND l.device_id = ?"
            values.append(.text(deviceId))
        }
        if let userId {
            sql += " AND l.user_id = ?"
            values.append(.id(userId))
        }
        if let guestId {
            sql += " AND l.guest_id = ?"
            values.append(.id(guestId))
        }
        return (sql, values)
    }
}

extension Store {
    /// Audit entries of an event after `cursor` that pass `filter`, in the order the server
    /// appended them, with the guest's and user's names.
    func auditPage(
        event: EventRecord, after cursor: AuditCursor, limit: Int, filter: AuditFilter = AuditFilter()
    ) async throws -> AuditPage {
        try await database.read { connection in
            let (conditions, values) = filter.clauses
            let rows = try await connection.query(
                """
                SELECT l.id, l.kind, l.guest_id, l.device_id, l.user_id, l.at, l.client_at, l.method, l.seq,
                    g.name AS guest_name, u.name AS user_name
                FROM audit_log l LEFT JOIN guests g ON g.id = l.guest_id AND g.event_id = l.event_id
                LEFT JOIN users u ON u.id = l.user_id
                WHERE l.event_id = ? AND l.tenant_id = ? AND (l.seq > ? OR (l.seq = ? AND l.id > ?))\(conditions)
                ORDER BY l.seq, l.id LIMIT ?
                """,
                [.id(event.id), .id(event.tenantId), .int(cursor.seq), .int(cursor.seq), .int(cursor.id)] + values
                    + [.int(Int64(limit + 1))])
            let page = rows.prefix(limit)
            let entries = try page.map { row in
                var entry = try Self.auditEntry(from: row, withEvent: false)
                entry.guestName = try row.optionalText("guest_name")
                entry.userName = try row.optionalText("user_name")
                return entry
            }
            var next = cursor
            if let last = page.last { next = AuditCursor(seq: try last.int("seq"), id: try last.int("id")) }
            return AuditPage(entries: entries, cursor: next.token, hasMore: rows.count > limit)
        }
    }

    /// A tenant's refused attempts (audit rows of no visible event: `seq` 0) after row `after`.
    func refusedAttempts(tenantId: TenantID, after: Int64, limit: Int) async throws -> AuditPage {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT id, kind, event_id, guest_id, device_id, user_id, at, client_at, method FROM audit_log
                WHERE tenant_id = ? AND seq = 0 AND id > ? ORDER BY id LIMIT ?
                """,
                [.id(tenantId), .int(after), .int(Int64(limit + 1))])
            let page = rows.prefix(limit)
            let entries = try page.map { try Self.auditEntry(from: $0, withEvent: true) }
            let last = try page.last?.int("id") ?? after
            return AuditPage(entries: entries, cursor: "R\(last)", hasMore: rows.count > limit)
        }
    }

    /// An audit row as the API shows it; `withEvent` adds the event id (the refused list).
    private static func auditEntry(from row: SQLRow, withEvent: Bool) throws -> AuditEntry {
        AuditEntry(
            id: String(try row.int("id")), kind: try row.enumeration("kind", as: AuditKind.self),
            guestId: try row.optionalID("guest_id"), deviceId: try row.optionalText("device_id"),
            userId: try row.optionalID("user_id"), at: try row.date("at"), clientAt: try row.optionalDate("client_at"),
            method: try row.optionalText("method"), eventId: withEvent ? try row.id("event_id") : nil)
    }
}
