import Foundation
import OutpostCore
import OutpostProtocol

/// The pickup station's state, sealed and kept across launches: each event's report as pulled
/// (items, entitlements, what was collected, stock) and the station's screen: the guest scanned
/// last and the last answer.
package struct PickupState: Codable, Sendable, Equatable {
    /// The guest at the station: scanned, not yet served.
    package struct Guest: Codable, Sendable, Hashable {
        package var id: GuestID
        package var name: String
    }

    /// The last answer, as shown.
    package struct Result: Codable, Sendable, Hashable {
        package var handedOut: Bool
        package var sentence: String
    }

    /// By event id.
    package var reports: [String: PickupReport] = [:]
    package var open = false
    package var guest: Guest?
    package var last: Result?

    package init() {}
}
