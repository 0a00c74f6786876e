import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    static let eventColumns =
        "e.id, e.tenant_id, e.name, e.starts_at, e.ends_at, e.time_zone, e.modules, e.kiosk_passcode_hash, e.kiosk_orientation"

    /// The condition "the caller may work this event", with its three binds: organizers and
    /// support see every event of their tenant; everyone else (check-in staff, mentors) only those
    /// they are on the staff of.
    static let visibleToCaller = visible(tenant: "?", role: "?", user: "?")

    /// The same condition over three expressions (binds, or a set-based statement's columns).
    static func visible(tenant: String, role: String, user: String) -> String {
        "e.tenant_id = \(tenant) AND (\(role) IN ('organizer', 'support') OR EXISTS (SELECT 1 FROM event_staff s WHERE s.event_id = e.id AND s.user_id = \(user)))"
    }

    static func visibilityBinds(_ caller: Caller) -> [SQLValue] {
        [.id(caller.tenantId), .text(caller.role.rawValue), .id(caller.userId)]
    }

    static func event(from row: SQLRow) throws -> EventRecord {
        var kiosk: KioskInfo?
        if let hash = try row.optionalText("kiosk_passcode_hash"),
            let orientation = try row.optionalText("kiosk_orientation").flatMap(KioskOrientation.init)
        {
            kiosk = KioskInfo(passcodeHash: hash, orientation: orientation)
        }
        return EventRecord(
            id: try row.id("id"), tenantId: try row.id("tenant_id"), name: try row.text("name"),
            startsAt: try row.date("starts_at"), endsAt: try row.date("ends_at"), timeZone: try row.text("time_zone"),
            modules: try row.text("modules").split(separator: ",").map(String.init), kiosk: kiosk)
    }

    func createEvent(tenantId: TenantID, request: CreateEventRequest) async throws -> EventRecord {
        let record = EventRecord(
            id: .random(), tenantId: tenantId, name: request.name, startsAt: request.startsAt, endsAt: request.endsAt,
            timeZone: request.timeZone, modules: request.modules ?? ["checkin"], kiosk: nil)
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO events (id, tenant_id, name, starts_at, ends_at, time_zone, modules, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(record.id), .id(tenantId), .text(record.name), .date(record.startsAt), .date(record.endsAt),
                    .text(record.timeZone), .text(record.modules.joined(separator: ",")), .date(.now),
                ])
        }
        return record
    }

    /// Changes an event's name, times or time zone; returns it as it is now.
    func updateEvent(_ event: EventRecord, with update: UpdateEventRequest) async throws -> EventRecord {
        var updated = event
        updated.name = update.name ?? event.name
        updated.startsAt = update.startsAt ?? event.startsAt
        updated.endsAt = update.endsAt ?? event.endsAt
        updated.timeZone = update.timeZone ?? event.timeZone
        updated.modules = update.modules ?? event.modules
        try await database.transaction { connection in
            try await connection.execute(
                "UPDATE events SET name = ?, starts_at = ?, ends_at = ?, time_zone = ?, modules = ? WHERE id = ?",
                [
                    .text(updated.name), .date(updated.startsAt), .date(updated.endsAt), .text(updated.timeZone),
                    .text(updated.modules.joined(separator: ",")), .id(event.id),
                ])
        }
        return updated
    }

    /// The event's access types, by name.
    func accessTypes(eventId: EventID) async throws -> [AccessTypeInfo] {
        try await database.read { connection in try await Self.accessTypes(connection, eventId: eventId) }
    }

    /// Every event the caller may work, ordered by start time, then name.
    func events(visibleTo caller: Caller) async throws -> [EventRecord] {
        try await database.read { connection in
            try await connection.query(
                "SELECT \(Self.eventColumns) FROM events e WHERE \(Self.visibleToCaller) ORDER BY e.starts_at, e.name, e.id",
                Self.visibilityBinds(caller)
            ).map(Self.event(from:))
        }
    }

    /// The event if the caller may work it; nil for unknown, other tenant's and unassigned events alike.
    func event(_ id: EventID, visibleTo caller: Caller) async throws -> EventRecord? {
        try await database.read { connection in
            try await Self.event(connection, id, visibleTo: caller)
        }
    }

    static func event(
        _ connection: any SQLConnection, _ id: EventID, visibleTo caller: Caller
    ) async throws -> EventRecord? {
        try await connection.queryOne(
            "SELECT \(eventColumns) FROM events e WHERE e.id = ? AND \(visibleToCaller)",
            [.id(id)] + visibilityBinds(caller)
        ).map(event(from:))
    }

    /// The event if the caller may work it, with their role on it: `organizer` for the
    /// organisation's organizers and for those on its staff as its organizer, else their own
    /// role. Nil for unknown, other tenant's and unassigned events alike.
    func eventAccess(_ id: EventID, caller: Caller) async throws -> (event: EventRecord, role: UserRole)? {
        try await database.read { connection in
            guard
                let row = try await connection.queryOne(
                    """
                    SELECT \(Self.eventColumns),
                        (SELECT s.role FROM event_staff s WHERE s.event_id = e.id AND s.user_id = ?) AS event_role
                    FROM events e WHERE e.id = ? AND \(Self.visibleToCaller)
                    """,
                    [.id(caller.userId), .id(id)] + Self.visibilityBinds(caller))
            else { return nil }
            return (
                try Self.event(from: row),
                Self.role(of: caller, onEvent: try row.optionalText("event_role").flatMap(UserRole.init(rawValue:)))
            )
        }
    }

    /// A caller's role on an event whose staff gives them `eventRole` (nil: none of its own).
    static func role(of caller: Caller, onEvent eventRole: UserRole?) -> UserRole {
        caller.role == .organizer ? .organizer : eventRole ?? caller.role
    }

    /// The events whose organizer the user is by their staff role (not by their own).
    func organizedEvents(userId: UserID) async throws -> Set<EventID> {
        try await database.read { connection in
            Set(
                try await connection.query(
                    "SELECT event_id FROM event_staff WHERE user_id = ? AND role = ?",
                    [.id(userId), .text(UserRole.organizer.rawValue)]
                ).map { try $0.id("event_id") })
        }
    }

    /// Takes a user off an event's staff; false when they were not on it.
    func unassignStaff(eventId: EventID, userId: UserID) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.queryOne(
                "DELETE FROM event_staff WHERE event_id = ? AND user_id = ? RETURNING user_id",
                [.id(eventId), .id(userId)]) != nil
        }
    }

    /// Puts a user on an event's staff in `role` (nil: their own), or sets the role of one on it.
    func assignStaff(eventId: EventID, userId: UserID, role: UserRole? = nil) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO event_staff (event_id, user_id, role) VALUES (?, ?, ?)
                ON CONFLICT (event_id, user_id) DO UPDATE SET role = excluded.role
                """,
                [.id(eventId), .id(userId), role.map { .text($0.rawValue) } ?? .null])
        }
    }

    func createAccessType(
        eventId: EventID, name: String, walkInAllowed: Bool, walkInCapacity: Int? = nil
    ) async throws -> AccessTypeInfo {
        let id = AccessTypeID.random()
        try await database.transaction { connection in
            _ = try await bumpSequence(connection, eventId: eventId)
            try await connection.execute(
                """
                INSERT INTO access_types (id, event_id, name, walk_in_allowed, walk_in_capacity, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(id), .id(eventId), .text(name), .bool(walkInAllowed),
                    walkInCapacity.map { .int(Int64($0)) } ?? .null, .date(.now),
                ])
        }
        return AccessTypeInfo(id: id, name: name, walkInAllowed: walkInAllowed, walkInCapacity: walkInCapacity)
    }

    static func accessTypes(_ connection: any SQLConnection, eventId: EventID) async throws -> [AccessTypeInfo] {
        try await connection.query(
            """
            SELECT id, name, walk_in_allowed, walk_in_capacity FROM access_types WHERE event_id = ?
            ORDER BY created_at, id
            """,
            [.id(eventId)]
        ).map {
            AccessTypeInfo(
                id: try $0.id("id"), name: try $0.text("name"), walkInAllowed: try $0.bool("walk_in_allowed"),
                walkInCapacity: try $0.optionalInt("walk_in_capacity").map(Int.init))
        }
    }

    func setKiosk(eventId: EventID, passcodeHash: String, orientation: KioskOrientation) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                "UPDATE events SET kiosk_passcode_hash = ?, kiosk_orientation = ?, seq = seq + 1 WHERE id = ?",
                [.text(passcodeHash), .text(orientation.rawValue), .id(eventId)])
        }
    }

    /// Every signing key of the event still valid at `now`, oldest first.
    static func eventKeys(_ connection: any SQLConnection, eventId: EventID, now: Date) async throws -> [EventKeyRecord]
    {
        try await allEventKeys(connection, eventId: eventId).filter { $0.isValid(at: now) }
    }

    /// Every signing key of the event, expired ones too, oldest first (a transaction that checks
    /// many tickets reads them once: ``TicketKeyCache``).
    static func allEventKeys(_ connection: any SQLConnection, eventId: EventID) async throws -> [EventKeyRecord] {
        try await connection.query(
            """
            SELECT key_id, public_key, private_key, expires_at FROM event_keys
            WHERE event_id = ? ORDER BY created_at, key_id
            """,
            [.id(eventId)]
        ).map {
            EventKeyRecord(
                keyID: TicketKeyID(rawValue: UInt32(truncatingIfNeeded: try $0.int("key_id"))),
                publicKey: try $0.blob("public_key"), privateKey: try $0.blob("private_key"),
                expiresAt: try $0.optionalInt("expires_at"))
        }
    }

    /// The event's ticket verification keys as devices take them (the roster's, a booth's).
    static func rosterKeys(_ connection: any SQLConnection, eventId: EventID, now: Date) async throws -> [RosterKey] {
        try await eventKeys(connection, eventId: eventId, now: now).map {
            RosterKey(keyId: $0.keyID.description, publicKey: Base64URL.encode($0.publicKey))
        }
    }

    /// The event, for a caller already allowed to it another way (an exhibitor through a booth).
    static func event(_ connection: any SQLConnection, _ id: EventID) async throws -> EventRecord? {
        try await connection.queryOne("SELECT \(eventColumns) FROM events e WHERE e.id = ?", [.id(id)]).map(
            event(from:))
    }

    /// The event's signing key, created on first use (once, even with several server instances:
    /// creation holds the event's row lock).
    func signingKey(eventId: EventID, now: Date) async throws -> EventKeyRecord {
        if let key = try await database.read({ try await Self.eventKeys($0, eventId: eventId, now: now).first }) {
            return key
        }
        return try await database.transaction { connection in
            guard try await bumpSequence(connection, eventId: eventId) != nil else { throw StoreError.notFound }
            if let key = try await Self.eventKeys(connection, eventId: eventId, now: now).first { return key }
            let privateKey = Curve25519.Signing.PrivateKey()
            let record = EventKeyRecord(
                keyID: TicketKeyID(publicKey: privateKey.publicKey),
                publicKey: Array(privateKey.publicKey.rawRepresentation),
                privateKey: Array(privateKey.rawRepresentation), expiresAt: nil)
            try await connection.execute(
                """
                INSERT INTO event_keys (event_id, key_id, public_key, private_key, created_at)
                VALUES (?, ?, ?, ?, ?)
                """,
                [
                    .id(eventId), .int(Int64(record.keyID.rawValue)), .blob(record.publicKey),
                    .blob(record.privateKey), .date(now),
                ])
            return record
        }
    }

    func stats(eventId: EventID) async throws -> EventStats {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT a.id, a.name,
                    (SELECT COUNT(*) FROM guests g WHERE g.access_type_id = a.id AND g.status = 'confirmed') AS guests,
                    (SELECT COUNT(*) FROM checkins c JOIN guests g ON g.id = c.guest_id WHERE g.access_type_id = a.id)
                        AS checked_in
                FROM access_types a WHERE a.event_id = ? ORDER BY a.created_at, a.id
                """,
                [.id(eventId)])
            let byType = try rows.map {
                AccessTypeStats(
                    accessTypeId: try $0.id("id"), name: try $0.text("name"), guests: Int(try $0.int("guests")),
                    checkedIn: Int(try $0.int("checked_in")))
            }
            let last = try await connection.queryOne(
                "SELECT MAX(at) AS last_at FROM checkins WHERE event_id = ?", [.id(eventId)])
            return EventStats(
                guests: byType.reduce(0) { $0 + $1.guests }, checkedIn: byType.reduce(0) { $0 + $1.checkedIn },
                byAccessType: byType, lastCheckInAt: try last?.optionalDate("last_at"))
        }
    }
}
