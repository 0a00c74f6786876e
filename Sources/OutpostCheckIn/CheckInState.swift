import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The check-in tab as the device keeps it (sealed), so a relaunch continues where it stopped.
package struct CheckInState: Codable, Sendable, Equatable {
    package var manualEntry = false
    package var query: String?
    /// The guest on the confirmation screen, when it is in front.
    package var confirmation: Confirmation?
    package var banner: Banner?
    package var result: ResultCard?
    package var info: AlreadyCheckedInInfo?
    /// A confirm that could not be written locally, in words.
    package var saveError: String?
}

/// The guest on the confirmation screen and how they were found.
package struct Confirmation: Codable, Sendable, Hashable {
    package var guestId: GuestID
    package var method: CheckInMethod
    package var ticket: String?
    /// Whether the card showed the guest as already checked in (here, or at another door over
    /// the venue mesh) when it was last put in front of staff. Nil in a state saved before it.
    package var shownCheckedIn: Bool?
}

/// A red banner on the check-in tab.
package enum Banner: String, Codable, Sendable {
    case crossEvent
    case tampered
    case notAdmissible
    case notInRoster
    case noSuchCode
}

/// The green card after a confirm.
package struct ResultCard: Codable, Sendable, Hashable {
    package var guestName: String
    package var idempotencyKey: String
}

/// "Checked in by NAME at TIME": the server said another device was first.
package struct AlreadyCheckedInInfo: Codable, Sendable, Hashable {
    package var guestName: String
    package var byName: String
    package var at: Date
}
