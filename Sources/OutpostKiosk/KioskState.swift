import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Kiosk mode as the device keeps it (sealed), so a crash or relaunch returns to the welcome
/// screen and the exit lockout cannot be reset by relaunching.
package struct KioskState: Codable, Sendable, Equatable {
    /// Kiosk mode is on: only the attendee UI is shown.
    package var active = false
    package var orientation = KioskOrientation.portrait
    package var lockout = KioskLockout()
    /// Recent taps on the exit corner.
    package var cornerTaps: [Date] = []
    package var exitPromptShown = false
    /// The last attendee's outcome, shown until it times out (then a clean welcome screen).
    package var result: KioskResult?
    /// Staff set-up feedback: the rules a refused passcode broke.
    package var setupRules: [PasscodeRule] = []
    package var setupMessage: String?
    package var exitMessage: String?
    /// What the person at the kiosk has typed and not submitted (an e-mail, or the passcode on
    /// the exit prompt), and when they last typed. Idle longer than
    /// ``KioskScreen/draftIdleSeconds`` it is gone: the next attendee never sees it.
    package var draft = ""
    package var draftAt: Date?
    /// Attendees checked in here whose guest has notes at the door ("wheelchair, escort to row
    /// 1"), newest last, until staff clear them: shown on the staff view, never to attendees.
    package var staffNotes: [KioskStaffNote] = []

    package init() {}

    private enum CodingKeys: String, CodingKey {
        case active, orientation, lockout, cornerTaps, exitPromptShown, result, setupRules, setupMessage, exitMessage
        case draft, draftAt, staffNotes
    }

    /// A state saved before staff notes existed restores with none.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        active = try container.decode(Bool.self, forKey: .active)
        orientation = try container.decode(KioskOrientation.self, forKey: .orientation)
        lockout = try container.decode(KioskLockout.self, forKey: .lockout)
        cornerTaps = try container.decode([Date].self, forKey: .cornerTaps)
        exitPromptShown = try container.decode(Bool.self, forKey: .exitPromptShown)
        result = try container.decodeIfPresent(KioskResult.self, forKey: .result)
        setupRules = try container.decode([PasscodeRule].self, forKey: .setupRules)
        setupMessage = try container.decodeIfPresent(String.self, forKey: .setupMessage)
        exitMessage = try container.decodeIfPresent(String.self, forKey: .exitMessage)
        draft = try container.decode(String.self, forKey: .draft)
        draftAt = try container.decodeIfPresent(Date.self, forKey: .draftAt)
        staffNotes = try container.decodeIfPresent([KioskStaffNote].self, forKey: .staffNotes) ?? []
    }
}

/// A kiosk check-in staff should know about: the guest has notes at the door.
package struct KioskStaffNote: Codable, Sendable, Equatable {
    package var guestId: GuestID
    package var name: String
    package var at: Date
}

/// What the last attendee saw.
package struct KioskResult: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable {
        case welcome
        case alreadyCheckedIn
        case notFound
        /// The check-in could not be saved on this kiosk (a full disk): the attendee sees staff.
        case notSaved
    }

    package var kind: Kind
    /// The name to greet (only after the attendee proved who they are).
    package var name: String?
    package var shownAt: Date
}

/// What must survive the device store being deleted or rolled back: whether kiosk mode holds the
/// device (for which event) and the exit lockout. Kept in the key store (``KeyStore/record(named:)``).
package struct KioskGuard: Codable, Sendable, Equatable {
    package static let recordName = "kiosk-guard"

    package var active: Bool
    package var eventId: EventID?
    package var orientation: KioskOrientation
    package var lockout: KioskLockout
}
