import Foundation
import GRDB

/// Which of the store's tables each commit changed, counted per table, so a screen's reload
/// reads again only what a write could have changed: a scan writes no record, and a check-in
/// writes the roster and the outbox but not the walk-in places. A GRDB transaction observer
/// that is told, before each statement runs, which tables it may write (SQLite's authorizer,
/// triggers' tables included), and never asks for the rows themselves, so a roster page of
/// 10,000 upserts costs a set insertion per statement, not per-row callbacks.
///
/// A generation is a sum of counters that only grow: when it is the same as it was, nothing
/// it covers was committed in between. Another connection's commits (another process on this
/// store) move every generation (``noteDataVersion(_:)``).
package final class StoreChanges: TransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    /// Tables the running transaction's statements may have written.
    private var touched: Set<String> = []
    /// Commits that may have written each table, since the store was opened.
    private var commits: [String: Int] = [:]
    /// Commits of other connections seen (or reads of their count that failed).
    private var outside = 0
    private var dataVersion: Int?

    package init() {}

    package func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        lock.withLock { _ = touched.insert(eventKind.tableName) }
        return false
    }

    package func databaseDidChange(with event: DatabaseEvent) {}

    package func databaseDidCommit(_ db: Database) {
        lock.withLock {
            for table in touched { commits[table, default: 0] += 1 }
            touched.removeAll(keepingCapacity: true)
        }
    }

    package func databaseDidRollback(_ db: Database) {
        lock.withLock { touched.removeAll(keepingCapacity: true) }
    }

    /// SQLite's `data_version` as read now (nil: it could not be read, so anything may have
    /// changed): when it moved, another connection committed.
    func noteDataVersion(_ version: Int?) {
        lock.withLock {
            if version == nil || (dataVersion != nil && dataVersion != version) { outside += 1 }
            dataVersion = version
        }
    }

    /// Moves whenever one of `tables` may have changed.
    package func generation(of tables: some Sequence<String>) -> Int {
        lock.withLock { tables.reduce(outside) { $0 + commits[$1, default: 0] } }
    }

    /// Moves whenever a table other than `tables` may have changed.
    package func generation(excluding tables: Set<String>) -> Int {
        lock.withLock { commits.reduce(outside) { tables.contains($1.key) ? $0 : $0 + $1.value } }
    }
}
