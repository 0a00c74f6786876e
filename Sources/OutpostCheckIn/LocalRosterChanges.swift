import Foundation
import GRDB
import OutpostCore
import OutpostShell

/// The roster changes this device's own writes made (a walk-in added, answered or taken off, a
/// ticket named at the door), each kept once its transaction committed, so the search index
/// follows them instead of being built again at the next search: at 1,000,000 guests a build
/// is seconds of a door's first search after every walk-in.
///
/// A write inside another module's transaction reads the roster's version before and after it
/// in that transaction (the triggers move it one step per guest added, removed or re-keyed);
/// GRDB's commit hook keeps the change, on the store's writer, and a rollback drops it. The
/// check-in module takes them on the main actor, in commit order, before it searches or
/// follows a sync.
package final class LocalRosterChanges: @unchecked Sendable {
    package struct Change: Sendable {
        var eventId: EventID
        var versionBefore: Int
        var versionAfter: Int
        var changed: [LocalGuest]
        var removed: [GuestID]
    }

    private let lock = NSLock()
    private var committed: [Change] = []

    package init() {}

    /// Runs `write` inside `db`; when it moved the event's roster version, keeps `changed` and
    /// `removed` for after the commit.
    func track(
        _ db: Database, eventId: EventID, changed: [LocalGuest] = [], removed: [GuestID] = [],
        _ write: () throws -> Void
    ) throws {
        let before = try ModuleStore<CheckInModule>.rosterVersion(db, eventId)
        try write()
        let after = try ModuleStore<CheckInModule>.rosterVersion(db, eventId)
        guard after != before else { return }
        let change = Change(
            eventId: eventId, versionBefore: before, versionAfter: after, changed: changed, removed: removed)
        db.afterNextTransaction { [self] _ in lock.withLock { committed.append(change) } }
    }

    /// The changes committed since the last call, oldest first.
    func take() -> [Change] {
        lock.withLock {
            defer { committed = [] }
            return committed
        }
    }
}
