import Foundation
import GRDB
import GRDBSQLite

/// Copies the store's write-ahead log back into the database file on a connection of its own,
/// off the path of the action that wrote.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages:
/// that one confirm copies about 4 MiB back into the file and syncs it, which was the confirm
/// p99 of the scale benchmark's table (6 ms against a 0.6 ms median). Here the store's connection
/// only notes the log's length after each commit (`sqlite3_wal_hook`, which replaces SQLite's
/// automatic checkpoint on that connection), and past the threshold a passive checkpoint runs on
/// a background queue. A passive checkpoint never blocks the writer or a reader; the first
/// commit after a complete one starts the log over from its beginning, so the log stays about
/// the threshold's size. Nothing is at risk meanwhile: a committed transaction is durable in
/// the log, and SQLite reads through it.
package final class WALCheckpointer: @unchecked Sendable {
    /// Log pages before a checkpoint is started: SQLite's own default for its automatic one.
    package static let defaultThreshold = 1000

    package let path: String
    package let threshold: Int
    private let queue = DispatchQueue(label: "outpost.device.wal-checkpoint", qos: .utility)
    private let lock = NSLock()
    /// A checkpoint is queued and has not started.
    private var scheduled = false
    private var completed = 0
    /// The checkpoints' own connection, opened by the first one (only touched on `queue`).
    private var connection: DatabaseQueue?

    package init(path: String, threshold: Int = WALCheckpointer.defaultThreshold, limitBytes: Int) {
        self.path = path
        self.threshold = threshold
        self.limitBytes = limitBytes
    }

    /// The log's size past which a checkpoint that copied everything also cuts it.
    package let limitBytes: Int

    private var logBytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size]) as? Int) ?? 0
    }

    /// Hooks the store's connection: after every commit SQLite reports the log's length here.
    /// Called from the connection's `prepareDatabase`, whose closure (kept by the connection's
    /// configuration for as long as the connection) keeps this object alive for the hook.
    package func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A commit left `pages` pages in the log.
    fileprivate func committed(pages: Int) {
        guard pages >= threshold else { return }
        let start = lock.withLock {
            defer { scheduled = true }
            return !scheduled
        }
        guard start else { return }
        queue.async { self.checkpoint() }
    }

    private func checkpoint() {
        lock.withLock { scheduled = false }
        do {
            if connection == nil {
                var configuration = Configuration()
                configuration.busyMode = .timeout(1)
                connection = try DatabaseQueue(path: path, configuration: configuration)
            }
            // Passive: copies what no reader still needs and returns; never waits for the writer.
            try connection?.writeWithoutTransaction { db in
                let (frames, copied) = try db.checkpoint(.passive)
                // Everything copied, and the file is past the limit (a large transaction: the
                // index snapshot, 115 MiB at 1,000,000 guests). SQLite cuts the log only when a
                // later write starts it over, so without this it stayed that size on disk until
                // the next write. With nothing left to copy, truncating holds the writer's lock
                // only for the truncate; a writer busy now makes it give up (the next asks again).
                if frames >= 0, copied == frames, logBytes > limitBytes {
                    _ = try? db.checkpoint(.truncate)
                }
            }
            lock.withLock { completed += 1 }
        } catch {
            // Busy or failed: the log keeps every commit, and the next commit asks again.
        }
    }

    /// Checkpoints finished so far.
    package var completedCount: Int { lock.withLock { completed } }

    /// Returns when every checkpoint asked for so far has run (tests wait here, not on a clock).
    package func waitUntilIdle() { queue.sync {} }

    /// Holds the checkpoints asked for from now on until ``resume()`` (tests).
    package func suspend() { queue.suspend() }

    package func resume() { queue.resume() }
}

/// SQLite's commit hook for WAL databases: the log's length after each commit.
private func walHook(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?, database: UnsafePointer<CChar>?, pages: Int32
) -> Int32 {
    guard let context else { return SQLITE_OK }
    Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(pages: Int(pages))
    return SQLITE_OK
}
