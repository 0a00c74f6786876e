import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// One of the event's own fields on the guest card, by its label.
package struct GuestFieldLine: Sendable, Hashable {
    package var label: String
    package var value: String
}

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
    /// The ticket's block, when it is one (its scope shows on the card: "Sponsor: Acme (block
    /// of 20)").
    package var block: RosterBlock?
    /// The guest's values of the event's own fields, in the fields' order ("T-shirt size: M").
    package var fields: [GuestFieldLine] = []

    /// A block's ticket nobody has named: the door names it (if the block allows) before the
    /// check-in.
    package var isUnnamedBlockTicket: Bool { block != nil && guest.isUnnamedBlockTicket }

    /// Whether the door names this ticket before checking it in (its block allows it).
    package var namesAtDoor: Bool { isUnnamedBlockTicket && block?.doorNaming == true && guest.checkIn == nil }

    package var identifier: String { UIIdentifier.confirmationScreen }

    package func elements() -> [UIElement] {
        var elements = [
            UIElement(
                UIIdentifier.confirmationScreen,
                isUnnamedBlockTicket ? "Unnamed ticket of \(block?.partner ?? "")'s block" : guest.name,
                [
                    "guestId": guest.id.wire, "accessType": accessTypeName, "status": guest.status.rawValue,
                    "notes": guest.notes, "method": method.rawValue,
                ])
        ]
        if let block {
            elements.append(
                UIElement(
                    UIIdentifier.blockScope, block.scope,
                    ["blockId": block.id.wire, "partner": block.partner, "size": "\(block.size)"]))
        }
        elements += fields.map {
            UIElement(UIIdentifier.guestField, "\($0.label): \($0.value)", ["label": $0.label, "value": $0.value])
        }
        elements += doorNotes.map { UIElement(UIIdentifier.doorNote, $0) }
        if isUnnamedBlockTicket, let block, guest.checkIn == nil {
            if namesAtDoor {
                elements.append(UIElement(UIIdentifier.doorNameInput, "Who holds this ticket? Their name:"))
                elements.append(UIElement(UIIdentifier.confirmButton, "Name and check in"))
            } else {
                elements.append(
                    UIElement(
                        UIIdentifier.unnamedTicketBanner,
                        TicketNamingRefusal.noDoorNaming(partner: block.partner).sentence,
                        ["kind": "error"]))
            }
            elements.append(UIElement(UIIdentifier.cancelButton, "Cancel"))
        } else if let checkIn = guest.checkIn {
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
