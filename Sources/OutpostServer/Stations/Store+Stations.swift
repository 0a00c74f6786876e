import Foundation
import OutpostCore
import OutpostProtocol

/// How setting a user's station ended.
enum StationWrite: Sendable, Equatable {
    case saved(StaffStation)
    /// The user does not work the event's doors (not on its staff, or a role without stations).
    case notStaff
    /// A zone station names no zone of the event, or a direction is missing or out of place.
    case invalid(String)
    case notFound
}

/// EFx station assignments: per event and user, the station the organizer chose. A user works
/// the event (on its staff, or support, or the organizer), so their device is the station.
extension Store {
    private static func station(from row: SQLRow) throws -> StationAssignment {
        StationAssignment(
            kind: try row.enumeration("kind", as: StationKind.self), zoneId: try row.optionalID("zone_id"),
            direction: try row.optionalText("direction").map {
                guard let direction = ZoneDirection(rawValue: $0) else { throw StoreError.notFound }
                return direction
            })
    }

    func stations(eventId: EventID) async throws -> StationList {
        try await database.read { connection in
            StationList(
                stations: try await connection.query(
                    "SELECT user_id, kind, zone_id, direction FROM station_assignments WHERE event_id = ? ORDER BY user_id",
                    [.id(eventId)]
                ).map { StaffStation(userId: try $0.id("user_id"), station: try Self.station(from: $0)) })
        }
    }

    /// The station `userId` works at `eventId`, if the organizer chose one.
    func station(eventId: EventID, userId: UserID) async throws -> StationAssignment? {
        try await database.read { connection in
            try await connection.queryOne(
                "SELECT kind, zone_id, direction FROM station_assignments WHERE event_id = ? AND user_id = ?",
                [.id(eventId), .id(userId)]
            ).map(Self.station(from:))
        }
    }

    /// Sets `userId`'s station at `eventId` (an event of `caller`'s tenant the caller may see).
    func setStation(
        caller: Caller, eventId: EventID, userId: UserID, station: StationAssignment
    ) async throws -> StationWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            guard
                let user = try await connection.queryOne(
                    "SELECT role FROM users WHERE id = ? AND tenant_id = ? AND removed_at IS NULL",
                    [.id(userId), .id(caller.tenantId)])
            else { return .notFound }
            let role = try user.enumeration("role", as: UserRole.self)
            let onStaff =
                try await connection.queryOne(
                    "SELECT 1 FROM event_staff WHERE event_id = ? AND user_id = ?", [.id(eventId), .id(userId)]) != nil
            guard role == .organizer || role == .support || (role == .checkinStaff && onStaff) else {
                return .notStaff
            }
            switch station.kind {
            case .zone:
                guard let zone = station.zoneId, station.direction != nil,
                    try await connection.queryOne(
                        "SELECT 1 FROM zones WHERE id = ? AND event_id = ?", [.id(zone), .id(eventId)]) != nil
                else { return .invalid("A zone station names one of this event's zones and a direction.") }
            case .pickup:
                guard station.zoneId == nil, station.direction == nil else {
                    return .invalid("A pickup station names no zone and no direction.")
                }
            }
            try await connection.execute(
                """
                INSERT INTO station_assignments (event_id, user_id, kind, zone_id, direction) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (event_id, user_id) DO UPDATE SET kind = excluded.kind, zone_id = excluded.zone_id,
                    direction = excluded.direction
                """,
                [
                    .id(eventId), .id(userId), .text(station.kind.rawValue),
                    station.zoneId.map { .id($0) } ?? .null, .optionalText(station.direction?.rawValue),
                ])
            return .saved(StaffStation(userId: userId, station: station))
        }
    }

    /// Takes a user's station away; false when they had none.
    func clearStation(eventId: EventID, userId: UserID) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.queryOne(
                "DELETE FROM station_assignments WHERE event_id = ? AND user_id = ? RETURNING user_id",
                [.id(eventId), .id(userId)]) != nil
        }
    }
}
