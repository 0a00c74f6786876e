import Foundation
import OutpostCore
import OutpostProtocol

/// What the app shows, kept across launches (sealed), so every `outpost device` invocation
/// continues where the last one left off.
struct AppState: Codable, Sendable {
    enum Screen: String, Codable, Sendable {
        case signIn
        case eventPicker
        case eventShell
        case confirmation
        case signOutWarning
    }

    var screen: Screen = .signIn
    var eventId: String?
    var eventRange: String = "all"
    var manualEntry = false
    var query: String?
    var confirmation: Confirmation?
    var banner: Banner?
    var result: ResultCard?
    var info: AlreadyCheckedInInfo?
    var signInError: String?
    var signOutMessage: String?
    var showUpdateBanner = false
    var backgroundedAt: Date?
}

/// The guest on the confirmation screen and how they were found.
struct Confirmation: Codable, Sendable, Hashable {
    var guestId: String
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
