import Foundation
import OutpostCore

/// What a module that keeps notes at the door offers the screens of other modules (check-in's
/// confirmation card): a guest's current notes, oldest first, each with who wrote it. Found
/// through ``ModuleContext/service(_:)``; check-in does not depend on the module that keeps them.
@MainActor
public protocol GuestNotesSource: AnyObject {
    func doorNotes(eventId: EventID, guestId: GuestID) -> [String]
}
