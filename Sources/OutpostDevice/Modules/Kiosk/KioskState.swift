import Foundation
import OutpostCore
import OutpostProtocol

/// Kiosk mode as the device keeps it (sealed), so a crash or relaunch returns to the welcome
/// screen and the exit lockout cannot be reset by relaunching.
struct KioskState: Codable, Sendable {
    /// Kiosk mode is on: only the attendee UI is shown.
    var active = false
    var orientation = KioskOrientation.portrait
    var lockout = KioskLockout()
    /// Recent taps on the exit corner.
    var cornerTaps: [Date] = []
    var exitPromptShown = false
    /// The last attendee's outcome, shown until it times out (then a clean welcome screen).
    var result: KioskResult?
    /// Staff set-up feedback: the rules a refused passcode broke.
    var setupRules: [PasscodeRule] = []
    var setupMessage: String?
    var exitMessage: String?
    /// What the person at the kiosk has typed and not submitted (an e-mail, or the passcode on
    /// the exit prompt), and when they last typed. Idle longer than
    /// ``KioskScreen/draftIdleSeconds`` it is gone: the next attendee never sees it.
    var draft = ""
    var draftAt: Date?
}

/// What the last attendee saw.
struct KioskResult: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        case welcome
        case alreadyCheckedIn
        case notFound
    }

    var kind: Kind
    /// The name to greet (only after the attendee proved who they are).
    var name: String?
    var shownAt: Date
}

/// What must survive the device store being deleted or rolled back: whether kiosk mode holds the
/// device (for which event) and the exit lockout. Kept in the key store (``KeyStore/record(named:)``).
struct KioskGuard: Codable, Sendable, Equatable {
    static let recordName = "kiosk-guard"

    var active: Bool
    var eventId: EventID?
    var orientation: KioskOrientation
    var lockout: KioskLockout
}
