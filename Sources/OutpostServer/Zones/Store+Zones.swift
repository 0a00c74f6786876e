import Foundation
import OutpostCore
import OutpostProtocol

/// How saving an event's zones ended.
enum ZonesWrite: Sendable, Equatable {
    case saved(ZoneList)
    /// A zone left out of the list has recorded passages (its name): it stays.
    case zoneInUse(String)
    /// A rule names an access type that is not the event's.
    case unknownAccessType
    /// A zone's id is another event's zone.
    case zoneIdTaken
    case notFound
}

/// How recording a zone passage ended.
enum ZonePassageWrite: Sendable, Equatable {
    case recorded(StoredZonePassage)
    /// The same passage sent again (its answer was lost): as the server keeps it now.
    case replayed(StoredZonePassage)
    /// The passage's id is another passage's.
    case idTaken
    case unknownGuest
    case unknownZone
    case notFound
}

/// Zone access control on the server: the event's zones and rules, and the passages stations
/// report. A station decides offline (``ZoneRules``); the server keeps every entry it admitted
/// and marks what the station could not know: an entry after the first (by scan time) of a
/// no-re-entry ticket, made at any station, is a `no_re_entry` violation, whichever arrived first.
extension Store {
    func zones(eventId: EventID) async throws -> ZoneList {
        try await database.read { connection in try await Self.zones(connection, eventId: eventId) }
    }

    static func zones(_ connection: any SQLConnection, eventId: EventID) async throws -> ZoneList {
        let rules = try await connection.query(
            """
            SELECT a.zone_id, a.access_type_id, a.windows, a.re_entry FROM zone_access a
            JOIN zones z ON z.id = a.zone_id WHERE z.event_id = ? ORDER BY a.position
            """, [.id(eventId)])
        var access: [ZoneID: [ZoneAccessRule]] = [:]
        for row in rules {
            let windows = try OutpostJSON.decode([ZoneWindow].self, from: Data(try row.text("windows").utf8))
            access[try row.id("zone_id"), default: []].append(
                ZoneAccessRule(
                    accessTypeId: try row.id("access_type_id"), windows: windows, reEntry: try row.bool("re_entry")))
        }
        let zones = try await connection.query(
            "SELECT id, name, capacity FROM zones WHERE event_id = ? ORDER BY position, id", [.id(eventId)])
        return ZoneList(
            zones: try zones.map { row in
                let id: ZoneID = try row.id("id")
                return Zone(
                    id: id, name: try row.text("name"), capacity: try row.optionalInt("capacity").map(Int.init),
                    access: access[id] ?? [])
            })
    }

    /// Replaces the event's zones and their rules with `list`.
    func setZones(caller: Caller, eventId: EventID, list: ZoneList) async throws -> ZonesWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            let accessTypes = Set(
                try await connection.query("SELECT id FROM access_types WHERE event_id = ?", [.id(eventId)])
                    .map { try $0.id("id", as: AccessTypeID.self) })
            guard list.zones.allSatisfy({ $0.access.allSatisfy { accessTypes.contains($0.accessTypeId) } }) else {
                return .unknownAccessType
            }
            for zone in list.zones {
                if let owner = try await connection.queryOne("SELECT event_id FROM zones WHERE id = ?", [.id(zone.id)]),
                    try owner.id("event_id", as: EventID.self) != eventId
                {
                    return .zoneIdTaken
                }
            }
            let kept = Set(list.zones.map(\.id))
            let existing = try await connection.query(
                "SELECT id, name FROM zones WHERE event_id = ?", [.id(eventId)])
            for row in existing where !kept.contains(try row.id("id", as: ZoneID.self)) {
                let id: ZoneID = try row.id("id")
                if try await connection.queryOne("SELECT 1 FROM zone_passages WHERE zone_id = ? LIMIT 1", [.id(id)])
                    != nil
                {
                    return .zoneInUse(try row.text("name"))
                }
                try await connection.execute("DELETE FROM zone_access WHERE zone_id = ?", [.id(id)])
                // A station set to a zone that goes is set to none: its user picks another.
                try await connection.execute("DELETE FROM station_assignments WHERE zone_id = ?", [.id(id)])
                try await connection.execute("DELETE FROM zones WHERE id = ?", [.id(id)])
            }
            for (position, zone) in list.zones.enumerated() {
                try await connection.execute(
                    """
                    INSERT INTO zones (id, tenant_id, event_id, name, capacity, position) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, capacity = excluded.capacity,
                        position = excluded.position
                    """,
                    [
                        .id(zone.id), .id(caller.tenantId), .id(eventId), .text(zone.name),
                        zone.capacity.map { .int(Int64($0)) } ?? .null, .int(Int64(position)),
                    ])
                try await connection.execute("DELETE FROM zone_access WHERE zone_id = ?", [.id(zone.id)])
                for (order, rule) in zone.access.enumerated() {
                    try await connection.execute(
                        """
                        INSERT INTO zone_access (zone_id, access_type_id, windows, re_entry, position)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                        [
                            .id(zone.id), .id(rule.accessTypeId),
                            .text(String(decoding: try OutpostJSON.encode(rule.windows), as: UTF8.self)),
                            .bool(rule.reEntry), .int(Int64(order)),
                        ])
                }
            }
            return .saved(try await Self.zones(connection, eventId: eventId))
        }
    }

    static let zonePassageColumns = """
        p.id, p.zone_id, p.guest_id, p.movement, p.device_id, p.scanned_at, p.violation, p.by_name, p.at,
        g.name AS guest_name
        """

    static func zonePassage(from row: SQLRow) throws -> StoredZonePassage {
        StoredZonePassage(
            passage: ZonePassage(
                id: try row.id("id"), zoneId: try row.id("zone_id"), guestId: try row.id("guest_id"),
                movement: try row.enumeration("movement", as: ZoneMovement.self), deviceId: try row.text("device_id"),
                scannedAt: try row.date("scanned_at")),
            violation: try row.optionalText("violation").flatMap(ZoneViolation.init(rawValue:)),
            byName: try row.text("by_name"), guestName: try row.text("guest_name"), at: try row.date("at"))
    }

    private static func storedZonePassage(
        _ connection: any SQLConnection, _ id: ZonePassageID
    ) async throws
        -> StoredZonePassage?
    {
        try await connection.queryOne(
            "SELECT \(zonePassageColumns) FROM zone_passages p JOIN guests g ON g.id = p.guest_id WHERE p.id = ?",
            [.id(id)]
        ).map(zonePassage(from:))
    }

    func recordZonePassage(
        caller: Caller, eventId: EventID, passage: ZonePassage, now: Date
    ) async throws -> ZonePassageWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            if let existing = try await connection.queryOne(
                "SELECT event_id, tenant_id FROM zone_passages WHERE id = ?", [.id(passage.id)])
            {
                let stored = try await Self.storedZonePassage(connection, passage.id)
                let event: EventID = try existing.id("event_id")
                let tenant: TenantID = try existing.id("tenant_id")
                guard let stored, stored.passage == passage, event == eventId, tenant == caller.tenantId else {
                    return .idTaken
                }
                return .replayed(stored)
            }
            guard
                let guest = try await connection.queryOne(
                    "SELECT access_type_id, status FROM guests WHERE id = ? AND event_id = ?",
                    [.id(passage.guestId), .id(eventId)])
            else { return .unknownGuest }
            guard
                try await connection.queryOne(
                    "SELECT 1 FROM zones WHERE id = ? AND event_id = ?", [.id(passage.zoneId), .id(eventId)]) != nil
            else { return .unknownZone }
            let access = try await Self.zones(connection, eventId: eventId).zones
                .first { $0.id == passage.zoneId }?.access(for: try guest.id("access_type_id"))
            let status = GuestStatus(rawValue: try guest.text("status")) ?? .revoked
            // The stations' own decision, on this entry alone at its scan time; re-entry is judged
            // over all the guest's entries below, and a capacity is not the server's to mark.
            let violation: ZoneViolation? =
                passage.movement == .leave
                ? nil
                : ZoneViolation(
                    ZoneRules.decide(
                        status: status, access: access, presence: .never, direction: .entry,
                        now: passage.scannedAt, occupancy: 0, capacity: nil))
            let byName =
                try await connection.queryOne("SELECT name FROM users WHERE id = ?", [.id(caller.userId)])?.text("name")
                ?? ""
            try await connection.execute(
                """
                INSERT INTO zone_passages (id, tenant_id, event_id, zone_id, guest_id, movement, device_id, user_id,
                    by_name, scanned_at, at, violation)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(passage.id), .id(caller.tenantId), .id(eventId), .id(passage.zoneId), .id(passage.guestId),
                    .text(passage.movement.rawValue), .text(passage.deviceId), .id(caller.userId), .text(byName),
                    .date(passage.scannedAt), .date(now), .optionalText(violation?.rawValue),
                ])
            if passage.movement == .enter, let access, !access.reEntry {
                try await Self.markReEntries(connection, zoneId: passage.zoneId, guestId: passage.guestId)
            }
            guard let stored = try await Self.storedZonePassage(connection, passage.id) else { return .idTaken }
            return .recorded(stored)
        }
    }

    /// Of a guest's entries into a zone that no other rule marked, the first by scan time is the
    /// entry; every later one is `no_re_entry` (an entry scanned earlier that arrives later takes
    /// the first place, and the one that had it is marked instead).
    private static func markReEntries(_ connection: any SQLConnection, zoneId: ZoneID, guestId: GuestID) async throws {
        let entries = try await connection.query(
            """
            SELECT id FROM zone_passages WHERE zone_id = ? AND guest_id = ? AND movement = 'enter'
            AND (violation IS NULL OR violation = ?) ORDER BY scanned_at, id
            """, [.id(zoneId), .id(guestId), .text(ZoneViolation.noReEntry.rawValue)])
        for (index, row) in entries.enumerated() {
            try await connection.execute(
                "UPDATE zone_passages SET violation = ? WHERE id = ?",
                [index == 0 ? .null : .text(ZoneViolation.noReEntry.rawValue), .text(try row.text("id"))])
        }
    }

    /// Every zone's count and the latest violations (newest first, at most `limit`).
    func zoneReport(eventId: EventID, limit: Int = 100) async throws -> ZoneReport {
        try await database.read { connection in
            let zones = try await Self.zones(connection, eventId: eventId).zones
            let counts = try await connection.query(
                """
                SELECT zone_id, movement, COUNT(*) AS n, COUNT(violation) AS flagged FROM zone_passages
                WHERE event_id = ? GROUP BY zone_id, movement
                """, [.id(eventId)])
            var entries: [ZoneID: Int] = [:]
            var exits: [ZoneID: Int] = [:]
            var violations: [ZoneID: Int] = [:]
            for row in counts {
                let zone: ZoneID = try row.id("zone_id")
                let count = Int(try row.int("n"))
                if try row.enumeration("movement", as: ZoneMovement.self) == .enter {
                    entries[zone] = count
                    violations[zone] = Int(try row.int("flagged"))
                } else {
                    exits[zone] = count
                }
            }
            let flagged = try await connection.query(
                """
                SELECT \(Self.zonePassageColumns) FROM zone_passages p JOIN guests g ON g.id = p.guest_id
                WHERE p.event_id = ? AND p.violation IS NOT NULL ORDER BY p.at DESC, p.scanned_at DESC, p.id LIMIT ?
                """, [.id(eventId), .int(Int64(limit))])
            return ZoneReport(
                zones: zones.map { zone in
                    let inside = max(0, (entries[zone.id] ?? 0) - (exits[zone.id] ?? 0))
                    return ZoneOccupancy(
                        zoneId: zone.id, name: zone.name, capacity: zone.capacity, inside: inside,
                        entries: entries[zone.id] ?? 0, exits: exits[zone.id] ?? 0, violations: violations[zone.id] ?? 0
                    )
                },
                violations: try flagged.map(Self.zonePassage(from:)))
        }
    }
}

extension ZoneViolation {
    /// What a station's decision on an entry marks (nil: the entry stands).
    init?(_ decision: ZoneDecision) {
        switch decision {
        case .enter, .leave: return nil
        case .refuse(.notAdmissible): self = .notAdmissible
        case .refuse(.notValidForZone): self = .notValidForZone
        case .refuse(.notYetOpen), .refuse(.closed): self = .outsideHours
        case .refuse(.noReEntry): self = .noReEntry
        case .refuse(.full): return nil
        }
    }
}
