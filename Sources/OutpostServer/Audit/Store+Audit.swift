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

extension Store {
    /// Audit entries of an event after `cursor`, in the order the server appended them.
    func auditPage(event: EventRecord, after cursor: AuditCursor, limit: Int) async throws -> AuditPage {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT id, kind, guest_id, device_id, user_id, at, client_at, method, seq FROM audit_log
                WHERE event_id = ? AND tenant_id = ? AND (seq > ? OR (seq = ? AND id > ?))
                ORDER BY seq, id LIMIT ?
                """,
                [
                    .uuid(event.id), .uuid(event.tenantId), .int(cursor.seq), .int(cursor.seq), .int(cursor.id),
                    .int(Int64(limit + 1)),
                ])
            let page = rows.prefix(limit)
            let entries = try page.map { try Self.auditEntry(from: $0, withEvent: false) }
            var next = cursor
            if let last = page.last { next = AuditCursor(seq: try last.int("seq"), id: try last.int("id")) }
            return AuditPage(entries: entries, cursor: next.token, hasMore: rows.count > limit)
        }
    }

    /// A tenant's refused attempts (audit rows of no visible event: `seq` 0) after row `after`.
    func refusedAttempts(tenantId: UUID, after: Int64, limit: Int) async throws -> AuditPage {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT id, kind, event_id, guest_id, device_id, user_id, at, client_at, method FROM audit_log
                WHERE tenant_id = ? AND seq = 0 AND id > ? ORDER BY id LIMIT ?
                """,
                [.uuid(tenantId), .int(after), .int(Int64(limit + 1))])
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
