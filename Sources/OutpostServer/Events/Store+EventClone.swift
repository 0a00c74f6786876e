import Foundation
import OutpostCore
import OutpostProtocol

/// Events made from another, and the events list's counts.
extension Store {
    /// A new event of the original's tenant, in one transaction: the original's modules, access
    /// types (their names and walk-in places, new ids, none of their walk-ins), guest fields (new
    /// ids, in order), staff (their event roles too) and badge layout. No guests, check-ins, keys, kiosk passcode, zones or stations come along: those
    /// belong to the original's day.
    func cloneEvent(_ original: EventRecord, as request: CloneEventRequest, now: Date) async throws -> EventRecord {
        let record = EventRecord(
            id: .random(), tenantId: original.tenantId, name: request.name, startsAt: request.startsAt,
            endsAt: request.endsAt, timeZone: request.timeZone ?? original.timeZone, modules: original.modules,
            kiosk: nil)
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO events (id, tenant_id, name, starts_at, ends_at, time_zone, modules, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(record.id), .id(record.tenantId), .text(record.name), .date(record.startsAt),
                    .date(record.endsAt), .text(record.timeZone), .text(record.modules.joined(separator: ",")),
                    .date(now),
                ])
            let types = try await connection.query(
                "SELECT name, walk_in_allowed, walk_in_capacity, created_at FROM access_types WHERE event_id = ?",
                [.id(original.id)])
            for type in types {
                try await connection.execute(
                    """
                    INSERT INTO access_types (id, event_id, name, walk_in_allowed, walk_in_capacity, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .id(AccessTypeID.random()), .id(record.id), .text(try type.text("name")),
                        .bool(try type.bool("walk_in_allowed")),
                        try type.optionalInt("walk_in_capacity").map(SQLValue.int) ?? .null,
                        .int(try type.int("created_at")),
                    ])
            }
            for field in try await Self.guestFields(connection, eventId: original.id).enumerated() {
                try await connection.execute(
                    """
                    INSERT INTO guest_fields (id, event_id, position, label, kind, choices)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .id(GuestFieldID.random()), .id(record.id), .int(Int64(field.offset)),
                        .text(field.element.label), .text(field.element.kind.rawValue),
                        .text(field.element.choices.joined(separator: "\n")),
                    ])
            }
            try await connection.execute(
                "INSERT INTO event_staff (event_id, user_id, role) SELECT ?, user_id, role FROM event_staff WHERE event_id = ?",
                [.id(record.id), .id(original.id)])
            try await connection.execute(
                """
                INSERT INTO badge_layouts (event_id, tenant_id, layout, updated_at)
                SELECT ?, tenant_id, layout, ? FROM badge_layouts WHERE event_id = ?
                """,
                [.id(record.id), .date(now), .id(original.id)])
        }
        return record
    }

    /// The confirmed guests and the check-ins of each of a tenant's events, by event.
    func eventCounts(tenantId: TenantID) async throws -> [EventID: EventCounts] {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT e.id,
                    (SELECT COUNT(*) FROM guests g WHERE g.event_id = e.id AND g.status = 'confirmed') AS guests,
                    (SELECT COUNT(*) FROM checkins c WHERE c.event_id = e.id) AS checked_in
                FROM events e WHERE e.tenant_id = ?
                """,
                [.id(tenantId)])
            var counts: [EventID: EventCounts] = [:]
            for row in rows {
                counts[try row.id("id")] = EventCounts(
                    guests: Int(try row.int("guests")), checkedIn: Int(try row.int("checked_in")))
            }
            return counts
        }
    }
}
