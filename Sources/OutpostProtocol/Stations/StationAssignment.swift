import Foundation
import OutpostCore

/// Which EFx station a user's device is at an event (the EFx tab opens it).
public enum StationKind: String, Codable, Sendable, CaseIterable {
    case zone
    case pickup
}

/// An organizer's choice of a user's EFx station at an event: a zone station at a zone, counting
/// one way or both, or a pickup station. Exhibitors need none: their role makes them a lead
/// station.
public struct StationAssignment: Codable, Sendable, Hashable {
    public var kind: StationKind
    /// The zone of a zone station; absent for a pickup station.
    public var zoneId: ZoneID?
    /// Which way a zone station counts; absent for a pickup station.
    public var direction: ZoneDirection?

    public init(kind: StationKind, zoneId: ZoneID? = nil, direction: ZoneDirection? = nil) {
        self.kind = kind
        self.zoneId = zoneId
        self.direction = direction
    }

    public static func zone(_ id: ZoneID, _ direction: ZoneDirection) -> Self {
        Self(kind: .zone, zoneId: id, direction: direction)
    }

    public static let pickup = Self(kind: .pickup)
}

/// `GET /v1/events/{eventId}/my-station`: the signed-in user's station at the event, `null`
/// when the organizer chose none (the staff member picks one on the device).
public struct MyStation: Codable, Sendable, Hashable {
    public var station: StationAssignment?

    public init(station: StationAssignment?) { self.station = station }

    private enum CodingKeys: String, CodingKey { case station }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(station, forKey: .station)  // explicit null
    }
}

/// One user's station at an event, as the organizer's list shows it.
public struct StaffStation: Codable, Sendable, Hashable {
    public var userId: UserID
    public var station: StationAssignment

    public init(userId: UserID, station: StationAssignment) {
        self.userId = userId
        self.station = station
    }
}

/// `GET /v1/events/{eventId}/stations` (organizer, support): every station the organizer chose.
public struct StationList: Codable, Sendable, Hashable {
    public var stations: [StaffStation]

    public init(stations: [StaffStation]) { self.stations = stations }
}
