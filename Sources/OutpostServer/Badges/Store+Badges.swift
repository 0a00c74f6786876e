import Foundation
import OutpostCore
import OutpostProtocol

/// How recording a print ended.
enum BadgePrintWrite: Sendable, Equatable {
    case recorded(StoredBadgePrint)
    /// The same print sent again (its answer was lost): as first stored.
    case replayed(StoredBadgePrint)
    /// The print's id is another print's.
    case idTaken
    /// The guest is not one of the event's.
    case unknownGuest
    case notFound
}

/// Badges: an event's layout (the standard one until the organizer sets one) and the prints the
/// devices report, each stored once under its id, with an audit entry (`badge_printed`, or
/// `badge_reprinted` with the reason) in the same transaction.
extension Store {
    func badgeLayout(eventId: EventID) async throws -> BadgeLayout {
        try await database.read { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT layout FROM badge_layouts WHERE event_id = ?", [.id(eventId)])
            else { return .standard }
            return try OutpostJSON.decode(BadgeLayout.self, from: Data(try row.text("layout").utf8))
        }
    }

    func setBadgeLayout(eventId: EventID, tenantId: TenantID, layout: BadgeLayout, now: Date) async throws {
        let json = String(decoding: try OutpostJSON.encode(layout), as: UTF8.self)
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO badge_layouts (event_id, tenant_id, layout, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (event_id) DO UPDATE SET layout = excluded.layout, updated_at = excluded.updated_at
                """,
                [.id(eventId), .id(tenantId), .text(json), .date(now)])
        }
    }

    static let badgePrintColumns =
        "p.id, p.guest_id, p.reprint, p.reason, p.device_id, p.by_name, p.printed_at, p.at, g.name AS guest_name"

    static func badgePrint(from row: SQLRow) throws -> StoredBadgePrint {
        StoredBadgePrint(
            record: BadgePrintRecord(
                id: try row.id("id"), guestId: try row.id("guest_id"), reprint: try row.bool("reprint"),
                reason: try row.optionalText("reason"), deviceId: try row.text("device_id"),
                printedAt: try row.date("printed_at")),
            byName: try row.text("by_name"), guestName: try row.text("guest_name"), at: try row.date("at"))
    }

    func recordBadgePrint(
        caller: Caller, eventId: EventID, record: BadgePrintRecord, now: Date
    ) async throws -> BadgePrintWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            if let existing = try await connection.queryOne(
                """
                SELECT \(Self.badgePrintColumns), p.event_id, p.tenant_id FROM badge_prints p
                JOIN guests g ON g.id = p.guest_id WHERE p.id = ?
                """,
                [.id(record.id)])
            {
                let stored = try Self.badgePrint(from: existing)
                let event = try existing.id("event_id", as: EventID.self)
                let tenant = try existing.id("tenant_id", as: TenantID.self)
                let same = stored.record == record && event == eventId && tenant == caller.tenantId
                return same ? .replayed(stored) : .idTaken
            }
            guard
                let guest = try await connection.queryOne(
                    "SELECT name FROM guests WHERE id = ? AND event_id = ?", [.id(record.guestId), .id(eventId)])
            else { return .unknownGuest }
            let byName =
                try await connection.queryOne("SELECT name FROM users WHERE id = ?", [.id(caller.userId)])?.text("name")
                ?? ""
            try await connection.execute(
                """
                INSERT INTO badge_prints (id, tenant_id, event_id, guest_id, reprint, reason, device_id, user_id,
                    by_name, printed_at, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(record.id), .id(caller.tenantId), .id(eventId), .id(record.guestId), .bool(record.reprint),
                    .optionalText(record.reason), .text(record.deviceId), .id(caller.userId), .text(byName),
                    .date(record.printedAt), .date(now),
                ])
            // In the event's audit order at the current change number (a print changes no guest).
            try await connection.execute(
                """
                INSERT INTO audit_log (tenant_id, event_id, seq, kind, guest_id, device_id, user_id, at, client_at, method)
                SELECT ?, ?, seq, ?, ?, ?, ?, ?, ?, ? FROM events WHERE id = ?
                """,
                [
                    .id(caller.tenantId), .id(eventId),
                    .text((record.reprint ? AuditKind.badgeReprinted : .badgePrinted).rawValue), .id(record.guestId),
                    .text(record.deviceId), .id(caller.userId), .date(now), .date(record.printedAt),
                    .text(record.reason ?? "badge"), .id(eventId),
                ])
            return .recorded(
                StoredBadgePrint(record: record, byName: byName, guestName: try guest.text("name"), at: now))
        }
    }

    /// The event's prints, newest first (at most `limit`), and the counts of all.
    func badgePrints(eventId: EventID, limit: Int) async throws -> BadgePrintList {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT \(Self.badgePrintColumns) FROM badge_prints p JOIN guests g ON g.id = p.guest_id
                WHERE p.event_id = ? ORDER BY p.at DESC, p.printed_at DESC, p.id LIMIT ?
                """,
                [.id(eventId), .int(Int64(limit))])
            let counts = try await connection.queryOne(
                """
                SELECT COUNT(*) AS total, COALESCE(SUM(reprint), 0) AS reprinted FROM badge_prints WHERE event_id = ?
                """,
                [.id(eventId)])
            let total = Int(try counts?.int("total") ?? 0)
            let reprinted = Int(try counts?.int("reprinted") ?? 0)
            return BadgePrintList(
                prints: try rows.map(Self.badgePrint(from:)), printed: total - reprinted, reprinted: reprinted)
        }
    }
}
