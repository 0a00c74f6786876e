import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The check-in tab's content: the roster count, the camera (or the permission prompt), manual
/// entry with its suggestions, and the last action's banner, card or notice.
package struct CheckInTabScreen: ScreenPart, Sendable {
    package var rosterCount: Int
    package var cameraDenied: Bool
    package var settingsURL: String
    package var manualEntry: Bool
    package var query: String?
    package var suggestions: [LocalGuest]
    package var banner: Banner?
    package var result: ResultCard?
    /// The result card's entry still waits in the outbox.
    package var resultSyncing: Bool
    package var info: AlreadyCheckedInInfo?
    package var saveError: String?
    package var timeZone: String?

    package func elements() -> [UIElement] {
        var elements = [
            UIElement(UIIdentifier.rosterList, "\(rosterCount) guests on this device", ["count": String(rosterCount)])
        ]
        if cameraDenied {
            elements.append(
                UIElement(
                    UIIdentifier.cameraPermissionPrompt,
                    "Camera access required for QR check-in. Open Settings > Outpost > Camera."))
            elements.append(UIElement(UIIdentifier.cameraSettingsLink, "Open Settings", ["url": settingsURL]))
            elements.append(UIElement(UIIdentifier.manualEntryToggle, "Manual entry"))
            elements += manualEntryElements()
        } else if manualEntry {
            elements.append(UIElement(UIIdentifier.manualEntryToggle, "Scan QR"))
            elements += manualEntryElements()
        } else {
            elements.append(UIElement(UIIdentifier.cameraViewfinder, "Point the camera at a ticket"))
            elements.append(UIElement(UIIdentifier.manualEntryToggle, "Manual entry"))
        }
        if let banner { elements.append(Self.element(banner)) }
        if let saveError {
            elements.append(UIElement(UIIdentifier.saveErrorBanner, saveError, ["severity": "error"]))
        }
        if let result {
            elements.append(
                UIElement(UIIdentifier.checkedInCard, "✓ \(result.guestName) checked in", ["dismissAfter": "1.5"]))
            if resultSyncing { elements.append(UIElement(UIIdentifier.syncingIndicator, "Syncing…")) }
        }
        if let info {
            elements.append(
                UIElement(
                    UIIdentifier.alreadyCheckedIn,
                    "\(info.guestName): checked in by \(info.byName) at \(TimeFormatting.time(info.at, timeZone))",
                    ["byName": info.byName, "at": OutpostJSON.format(info.at), "kind": "info"]))
        }
        return elements
    }

    /// The suggestions staff can pick: those of manual entry, shown when the camera is denied or
    /// staff chose manual entry (none while the viewfinder is shown).
    package var shownSuggestions: [LocalGuest] { cameraDenied || manualEntry ? suggestions : [] }

    private func manualEntryElements() -> [UIElement] {
        [UIElement(UIIdentifier.manualEntryInput, query ?? "", ["placeholder": "Name, e-mail or code"])]
            + shownSuggestions.map { guest in
                UIElement(
                    UIIdentifier.manualEntrySuggestion, "\(guest.name) · \(guest.email) · \(guest.code)",
                    ["guestId": guest.id.wire, "code": guest.code, "checkedIn": String(guest.checkIn != nil)])
            }
    }

    /// Red banners share one structure (same attribute keys); wrong-event and forged tickets
    /// differ only in identifier and words (anti-probing: neither names another event).
    package static func element(_ banner: Banner) -> UIElement {
        let (id, text): (String, String) =
            switch banner {
            case .crossEvent:
                (UIIdentifier.crossEventBanner, "This QR is for a different event. Ask the guest to confirm.")
            case .tampered: (UIIdentifier.tamperedBanner, "This QR is invalid.")
            case .notAdmissible:
                (
                    UIIdentifier.notAdmissibleBanner,
                    "This registration is cancelled or revoked. Please see the organizer."
                )
            case .notInRoster:
                (
                    UIIdentifier.notInRosterBanner,
                    "This guest is not on this device's roster yet. Sync, then scan again."
                )
            case .noSuchCode: (UIIdentifier.notInRosterBanner, "No guest has this code.")
            }
        return UIElement(id, text, ["severity": "error", "dismissAfter": "1.5"])
    }
}
