import Foundation
import GRDB
import OutpostCore

/// What a module writes with each check-in this device commits, in the check-in's own
/// transaction (the venue mesh's signed entry): it commits with the check-in and its outbox entry
/// or not at all. Found through ``ModuleContext/services(_:)``; check-in depends on no such
/// module. ``CheckInListener`` is told after the commit.
@MainActor
public protocol CheckInJournal: AnyObject {
    /// Inside the check-in's transaction; throwing rolls the check-in back.
    func journal(_ db: Database, eventId: EventID, guestId: GuestID, scannedAt: Date, reconfirm: Bool) throws
}

extension ModuleContext {
    /// Has every ``CheckInJournal`` write its part of a check-in, inside its transaction.
    public func journalCheckIn(
        _ db: Database, eventId: EventID, guestId: GuestID, scannedAt: Date, reconfirm: Bool
    ) throws {
        for journal in services((any CheckInJournal).self) {
            try journal.journal(db, eventId: eventId, guestId: guestId, scannedAt: scannedAt, reconfirm: reconfirm)
        }
    }
}
