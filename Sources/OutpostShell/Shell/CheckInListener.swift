import Foundation
import OutpostCore

/// What a module that acts on check-ins offers the check-in module (the print module prints a
/// badge): told of each check-in committed on this device (the door's, the kiosk's), after its
/// transaction. Found through ``ModuleContext/services(_:)``; check-in depends on no such module.
@MainActor
public protocol CheckInListener: AnyObject {
    /// `guestId` was checked in (`reconfirm`: they already were); `ticket` is the scanned ticket
    /// when the check-in came from one.
    func checkedIn(eventId: EventID, guestId: GuestID, ticket: String?, reconfirm: Bool)
}

extension ModuleContext {
    /// Tells every ``CheckInListener`` of a check-in this device committed.
    public func announceCheckIn(eventId: EventID, guestId: GuestID, ticket: String?, reconfirm: Bool) {
        for listener in services((any CheckInListener).self) {
            listener.checkedIn(eventId: eventId, guestId: guestId, ticket: ticket, reconfirm: reconfirm)
        }
    }
}
