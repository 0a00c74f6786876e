import Foundation
import OutpostDevice

/// Lays out a frame of the station or kiosk: a status line, the screen's elements with colour by
/// kind (green checked in, amber already checked in, red refusals), then the input line.
public struct StationView: Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(30, width)
        self.height = max(10, height)
    }

    static let green = "\u{1B}[1;97;42m"
    static let amber = "\u{1B}[1;30;43m"
    static let red = "\u{1B}[1;97;41m"
    static let dim = "\u{1B}[2m"
    static let bold = "\u{1B}[1m"
    static let reset = "\u{1B}[0m"

    /// The colour of an element, by what it means to the person at the door.
    static func style(_ id: String) -> String? {
        switch id {
        case UIIdentifier.checkedInCard, UIIdentifier.kioskConfirmation, UIIdentifier.walkInAddedCard: green
        case UIIdentifier.alreadyCheckedIn, UIIdentifier.kioskAlreadyCheckedInMessage, UIIdentifier.pendingSyncBanner,
            UIIdentifier.notesConflict,
            UIIdentifier.kioskBatteryLowBanner:
            amber
        case UIIdentifier.crossEventBanner, UIIdentifier.tamperedBanner, UIIdentifier.notAdmissibleBanner,
            UIIdentifier.notInRosterBanner, UIIdentifier.syncRejectedBanner, UIIdentifier.kioskEmailNotFoundMessage,
            UIIdentifier.kioskExitLockoutBanner, UIIdentifier.kioskBatteryCriticalBanner, UIIdentifier.signInError,
            UIIdentifier.storageMigrationError, UIIdentifier.forceUpgradeScreen, UIIdentifier.offlineBanner,
            UIIdentifier.kioskNotSavedMessage, UIIdentifier.storageFaultBanner, UIIdentifier.walkInError,
            UIIdentifier.notesError:
            red
        default: nil
        }
    }

    /// Elements the station's keys and hint line stand in for.
    static let hidden: Set<String> = [
        UIIdentifier.manualEntryInput, UIIdentifier.manualEntryToggle, UIIdentifier.tabCheckIn, UIIdentifier.tabWalkIn,
        UIIdentifier.tabEFx, UIIdentifier.signOut, UIIdentifier.confirmButton, UIIdentifier.cancelButton,
        UIIdentifier.reconfirmButton, UIIdentifier.kioskSetupPasscodeInput, UIIdentifier.kioskSetupOrientationLock,
        UIIdentifier.kioskEnterCTA, UIIdentifier.signInEmail, UIIdentifier.signInPassword, UIIdentifier.signInSubmit,
        UIIdentifier.kioskExitCorner, UIIdentifier.kioskEmailInput, UIIdentifier.kioskPasscodeInput,
        UIIdentifier.walkInName, UIIdentifier.walkInEmail, UIIdentifier.walkInAccessType, UIIdentifier.walkInPayment,
        UIIdentifier.walkInSubmit, UIIdentifier.walkInCancel, UIIdentifier.doorNote, UIIdentifier.guestField,
        UIIdentifier.notesInput,
        UIIdentifier.notesSave, UIIdentifier.tabNotes, UIIdentifier.zoneResult, UIIdentifier.zoneChoice,
        UIIdentifier.pickupGuest, UIIdentifier.pickupEntitlement, UIIdentifier.pickupResult, UIIdentifier.leadsResult,
    ]

    /// A full frame.
    public func frame(
        tree: UITree, status: String, body: [String]? = nil, input: String, prompt: String, hint: String,
        highlight: Int? = nil
    ) -> [String] {
        var lines = [
            Self.bold + Self.fit(status, width) + Self.reset,
            Self.dim + String(repeating: "─", count: width) + Self.reset,
        ]
        var suggestion = 0
        for element in tree.elements where !element.text.isEmpty && !Self.hidden.contains(element.id) {
            let wrapped = TreeRenderer.wrap(element.text, width - 2)
            if element.id == UIIdentifier.manualEntrySuggestion {
                suggestion += 1
                let marker = suggestion - 1 == highlight ? "▶" : " "
                lines.append(
                    "\(marker)\(suggestion < 10 ? String(suggestion) : " ") \(Self.fit(element.text, width - 4))")
                continue
            }
            if let style = Self.style(element.id) {
                lines.append(style + String(repeating: " ", count: width) + Self.reset)
                for line in wrapped {
                    lines.append(
                        style + " " + line.padding(toLength: width - 1, withPad: " ", startingAt: 0) + Self.reset)
                }
                lines.append(style + String(repeating: " ", count: width) + Self.reset)
            } else {
                lines += wrapped.map { " " + $0 }
            }
        }
        lines += body ?? []
        let footer = [
            Self.dim + String(repeating: "─", count: width) + Self.reset,
            Self.fit(prompt + input, width) + "█",
            Self.dim + Self.fit(hint, width) + Self.reset,
        ]
        let room = height - footer.count
        if lines.count > room { lines = Array(lines.prefix(room)) }
        while lines.count < room { lines.append("") }
        return lines + footer
    }

    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }
}
