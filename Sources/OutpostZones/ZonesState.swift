import Foundation
import OutpostCore
import OutpostProtocol

/// The zone station's state, sealed and kept across launches: each event's zones as pulled, the
/// counts the server last gave, what zone and direction this device guards per event, and the
/// station's screen.
package struct ZonesState: Codable, Sendable, Equatable {
    /// What a device is set to guard.
    package struct Station: Codable, Sendable, Hashable {
        package var zoneId: ZoneID
        package var direction: ZoneDirection
    }

    /// The last scan's answer, as shown.
    package struct Result: Codable, Sendable, Hashable {
        package var admitted: Bool
        package var sentence: String
        package var guestName: String?
    }

    /// By event id.
    package var zones: [String: ZoneList] = [:]
    package var reports: [String: ZoneReport] = [:]
    package var stations: [String: Station] = [:]
    /// The station the organizer chose for the signed-in user, by event, as last pulled
    /// (optional: states saved before assignments have none).
    package var assignments: [String: StationAssignment]?
    package var open = false
    package var last: Result?

    package init() {}
}
