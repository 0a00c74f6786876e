import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The guest about to be checked in: who, their access type, status and notes, and, when they
/// are already checked in, by whom and when (re-confirm, never a second check-in).
package struct ConfirmationScreen: ScreenModel {
    package var guest: LocalGuest
    package var accessTypeName: String
    package var method: CheckInMethod
    package var timeZone: String?
    /// The guest's notes at the door ("body · author"), oldest first, from the module that keeps
    /// them (``GuestNotesSource``); staff only, never on the kiosk's attendee screens.
    package var doorNotes: [String] = []

    package var identifier: String { UIIdentifier.confirmationScreen }

    package func elements() -> [UIElement] {
        var elements = [
            UIElement(
                UIIdentifier.confirmationScreen, guest.name,
                [
                    "guestId": guest.id.wire, "accessType": accessTypeName, "status": guest.status.rawValue,
                    "notes": guest.notes, "method": method.rawValue,
                ])
        ]
        elements += doorNotes.map { UIElement(UIIdentifier.doorNote, $0) }
        if let checkIn = guest.checkIn {
            elements.append(
                UIElement(
                    UIIdentifier.alreadyCheckedIn,
                    "Already checked in at \(TimeFormatting.time(checkIn.at, timeZone)) by \(checkIn.byName)",
                    ["byName": checkIn.byName, "at": OutpostJSON.format(checkIn.at), "kind": "info"]))
            elements.append(UIElement(UIIdentifier.reconfirmButton, "Re-confirm"))
            elements.append(UIElement(UIIdentifier.cancelButton, "Dismiss"))
        } else {
            elements.append(UIElement(UIIdentifier.confirmButton, "Confirm check-in"))
            elements.append(UIElement(UIIdentifier.cancelButton, "Cancel"))
        }
        return elements
    }
}
