import Foundation
import OutpostCore

/// What one access type may do in a zone (``ZoneAccess``), as the zone lists it.
public struct ZoneAccessRule: Codable, Sendable, Hashable {
    public var accessTypeId: AccessTypeID
    /// When it may enter; empty: whenever the event runs.
    public var windows: [ZoneWindow]
    public var reEntry: Bool

    public init(accessTypeId: AccessTypeID, windows: [ZoneWindow] = [], reEntry: Bool = true) {
        self.accessTypeId = accessTypeId
        self.windows = windows
        self.reEntry = reEntry
    }

    public var access: ZoneAccess { ZoneAccess(windows: windows, reEntry: reEntry) }
}

/// A zone of an event (a hall, the VIP lounge, workshop A): its name, its capacity and the
/// access types it admits. An access type it does not list has no access.
public struct Zone: Codable, Sendable, Hashable {
    public static let maxNameLength = 80
    public static let maxWindows = 20

    public var id: ZoneID
    public var name: String
    public var capacity: Int?
    public var access: [ZoneAccessRule]

    public init(id: ZoneID, name: String, capacity: Int? = nil, access: [ZoneAccessRule]) {
        self.id = id
        self.name = name
        self.capacity = capacity
        self.access = access
    }

    /// What `accessType` may do here; nil: no access.
    public func access(for accessType: AccessTypeID) -> ZoneAccess? {
        access.first { $0.accessTypeId == accessType }?.access
    }
}

/// `GET` and `PUT /v1/events/{eventId}/zones`: the event's zones, in the organizer's order. A
/// `PUT` replaces them all (a zone with recorded passages cannot be dropped).
public struct ZoneList: Codable, Sendable, Hashable {
    public static let maxZones = 50

    public var zones: [Zone]

    public init(zones: [Zone]) { self.zones = zones }
}

/// Which way someone went through a zone station.
public enum ZoneMovement: String, Codable, Sendable, CaseIterable {
    case enter
    case leave
}

/// `PUT /v1/events/{eventId}/zone-passages/{passageId}`: one entry or exit a zone station
/// recorded, under the id its device made (sent again, the same answer).
public struct ZonePassage: Codable, Sendable, Hashable {
    public var id: ZonePassageID
    public var zoneId: ZoneID
    public var guestId: GuestID
    public var movement: ZoneMovement
    public var deviceId: String
    public var scannedAt: Date

    public init(
        id: ZonePassageID, zoneId: ZoneID, guestId: GuestID, movement: ZoneMovement, deviceId: String, scannedAt: Date
    ) {
        self.id = id
        self.zoneId = zoneId
        self.guestId = guestId
        self.movement = movement
        self.deviceId = deviceId
        self.scannedAt = scannedAt
    }
}

/// Why the server marked an entry a station admitted: what the station could not know offline
/// (another station's entry), or rules that changed since it synced. The entry is kept and
/// counted; the organizer sees it.
public enum ZoneViolation: String, Codable, Sendable, CaseIterable {
    /// A no-re-entry ticket's entry after its first one (by scan time), at any station.
    case noReEntry = "no_re_entry"
    /// The guest's access type has no access to the zone.
    case notValidForZone = "not_valid_for_zone"
    /// Outside the access type's windows.
    case outsideHours = "outside_hours"
    /// A cancelled or revoked ticket.
    case notAdmissible = "not_admissible"

    public var sentence: String {
        switch self {
        case .noReEntry: "entered again on a ticket without re-entry"
        case .notValidForZone: "entered a zone the ticket is not valid for"
        case .outsideHours: "entered outside the zone's hours for the ticket"
        case .notAdmissible: "entered on a cancelled or revoked ticket"
        }
    }
}

/// A passage as the server keeps it.
public struct StoredZonePassage: Codable, Sendable, Hashable {
    public var passage: ZonePassage
    public var violation: ZoneViolation?
    public var byName: String
    public var guestName: String
    /// When the server received it.
    public var at: Date

    public init(passage: ZonePassage, violation: ZoneViolation?, byName: String, guestName: String, at: Date) {
        self.passage = passage
        self.violation = violation
        self.byName = byName
        self.guestName = guestName
        self.at = at
    }
}

/// One zone's count: people inside (entries minus exits, never below zero).
public struct ZoneOccupancy: Codable, Sendable, Hashable {
    public var zoneId: ZoneID
    public var name: String
    public var capacity: Int?
    public var inside: Int
    public var entries: Int
    public var exits: Int
    public var violations: Int

    public init(
        zoneId: ZoneID, name: String, capacity: Int?, inside: Int, entries: Int, exits: Int, violations: Int
    ) {
        self.zoneId = zoneId
        self.name = name
        self.capacity = capacity
        self.inside = inside
        self.entries = entries
        self.exits = exits
        self.violations = violations
    }
}

/// `GET /v1/events/{eventId}/zone-occupancy`: every zone's count and the latest violations.
public struct ZoneReport: Codable, Sendable, Hashable {
    public var zones: [ZoneOccupancy]
    /// Newest first, at most 100.
    public var violations: [StoredZonePassage]

    public init(zones: [ZoneOccupancy], violations: [StoredZonePassage]) {
        self.zones = zones
        self.violations = violations
    }
}
