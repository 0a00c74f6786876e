import Foundation
import OutpostShell

/// The staff view's list of attendees who checked themselves in at the kiosk and whose guest has
/// notes at the door ("wheelchair, escort to row 1"): each with the notes and the time, until
/// staff clear it. Staff only: the attendee screen shows a count, never a name or a note.
package struct KioskStaffNotesPanel: ScreenPart, Sendable {
    package var entries: [(KioskStaffNote, notes: [String])]
    package var timeZone: String?

    package func elements() -> [UIElement] {
        var elements: [UIElement] = []
        for (entry, notes) in entries {
            elements.append(
                UIElement(
                    UIIdentifier.kioskStaffNote,
                    "\(entry.name) checked in at the kiosk at \(TimeFormatting.time(entry.at, timeZone)): "
                        + (notes.isEmpty ? "(no notes now)" : notes.joined(separator: "; ")),
                    ["guestId": entry.guestId.wire, "name": entry.name]))
        }
        elements.append(UIElement(UIIdentifier.kioskStaffNotesClear, "Seen: clear the kiosk's notes"))
        return elements
    }
}
