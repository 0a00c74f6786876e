import Foundation
import OutpostCore
import OutpostProtocol

/// The check-in tab as the device keeps it (sealed), so a relaunch continues where it stopped.
struct CheckInState: Codable, Sendable {
    var manualEntry = false
    var query: String?
    /// The guest on the confirmation screen, when it is in front.
    var confirmation: Confirmation?
    var banner: Banner?
    var result: ResultCard?
    var info: AlreadyCheckedInInfo?
    /// A confirm that could not be written locally, in words.
    var saveError: String?
}

/// The guest on the confirmation screen and how they were found.
struct Confirmation: Codable, Sendable, Hashable {
    var guestId: GuestID
    var method: CheckInMethod
    var ticket: String?
}

/// A red banner on the check-in tab.
enum Banner: String, Codable, Sendable {
    case crossEvent
    case tampered
    case notAdmissible
    case notInRoster
    case noSuchCode
}

/// The green card after a confirm.
struct ResultCard: Codable, Sendable, Hashable {
    var guestName: String
    var idempotencyKey: String
}

/// "Checked in by NAME at TIME": the server said another device was first.
struct AlreadyCheckedInInfo: Codable, Sendable, Hashable {
    var guestName: String
    var byName: String
    var at: Date
}
