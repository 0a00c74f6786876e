import Foundation
import GRDB
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// The device store's write-ahead log is copied back into the file by a background checkpoint,
/// never inside the commit of an action (the confirm p99).
@Suite("WAL checkpoints")
struct WALCheckpointTests {
    /// A store in a fresh home, and the sizes of its database file and its log.
    struct Opened {
        let store: DeviceStore
        let home: URL

        var fileBytes: Int { Self.size(home.appendingPathComponent("device.sqlite")) }
        var logBytes: Int { Self.size(home.appendingPathComponent("device.sqlite-wal")) }

        static func size(_ url: URL) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
        }

        /// How many rows ``write(_:pages:)`` left in the store.
        func rowsWritten() throws -> Int? {
            try store.queue.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM meta WHERE key LIKE 'row-%'")
            }
        }

        /// One committed transaction of about `pages` pages (a meta row of that many bytes).
        func write(_ key: String, pages: Int) throws {
            let bytes = Data(repeating: 0x5A, count: pages * 4096)
            try store.queue.write { db in
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [key, bytes])
            }
        }
    }

    func open() throws -> Opened {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-wal-\(UUID().uuidString)")
        let keyStore = FileKeyStore(url: home.appendingPathComponent("device.key"))
        let (store, _) = try DeviceStore.open(home: home, keyStore: keyStore)
        return Opened(store: store, home: home)
    }

    @Test(
        "confirm-checkpoint-off-commit-path: the commit that takes the log past the threshold does not copy it back; a background checkpoint does, every row readable throughout"
    )
    func checkpointOffCommitPath() throws {
        let opened = try open()
        defer { try? FileManager.default.removeItem(at: opened.home) }
        let checkpointer = opened.store.checkpointer
        let threshold = checkpointer.threshold
        let fileBefore = opened.fileBytes

        // Checkpoints held: write 1.5 thresholds of pages, 50 pages per commit.
        checkpointer.suspend()
        let writes = threshold * 3 / 2 / 50
        for index in 0..<writes { try opened.write("row-\(index)", pages: 50) }
        // No commit copied the log back (SQLite's automatic checkpoint would have, at 1,000 pages).
        #expect(opened.fileBytes == fileBefore)
        #expect(opened.logBytes > threshold * 4096)
        #expect(try opened.rowsWritten() == writes)

        // Released, the background checkpoint copies the log into the file.
        checkpointer.resume()
        checkpointer.waitUntilIdle()
        #expect(checkpointer.completedCount == 1)
        #expect(opened.fileBytes > fileBefore + threshold * 4096)
    }

    @Test(
        "confirm-checkpoint-off-commit-path: with the background checkpoints running, the log starts over and stays near the threshold however much is written"
    )
    func logStaysBounded() throws {
        let opened = try open()
        defer { try? FileManager.default.removeItem(at: opened.home) }
        let checkpointer = opened.store.checkpointer
        let threshold = checkpointer.threshold
        var largestLog = 0
        // Five thresholds of pages, 50 pages per commit, each checkpoint let finish.
        let writes = threshold * 5 / 50
        for index in 0..<writes {
            try opened.write("row-\(index)", pages: 50)
            checkpointer.waitUntilIdle()
            largestLog = max(largestLog, opened.logBytes)
        }
        #expect(checkpointer.completedCount >= 4)
        // The threshold plus the commit that crossed it, with each frame's header.
        #expect(largestLog <= (threshold + 60) * (4096 + 24) + 32)
        #expect(try opened.rowsWritten() == writes)
    }

    @Test(
        "device-wal-truncated: a transaction that grows the log past its limit (a large roster's page, the index snapshot) leaves no log that size on disk once a checkpoint has copied it back, also when no write follows"
    )
    func logTruncatedAfterLargeTransaction() throws {
        let opened = try open()
        defer { try? FileManager.default.removeItem(at: opened.home) }
        let limitPages = DeviceStore.walLimitBytes / 4096
        try opened.write("row-large", pages: limitPages + limitPages / 4)
        #expect(opened.logBytes > DeviceStore.walLimitBytes, "the log grew past the limit")
        // The threshold was crossed: the background checkpoint copies the log back and, the
        // log being past its limit, cuts it without waiting for a write to start it over (the
        // index snapshot is the last write of a sync; the log of 1,000,000 guests stayed 115 MiB).
        opened.store.checkpointer.waitUntilIdle()
        #expect(opened.logBytes <= DeviceStore.walLimitBytes, "cut with no write after the large one")
        #expect(try opened.rowsWritten() == 1)
        try opened.write("row-small", pages: 1)
        #expect(opened.logBytes <= DeviceStore.walLimitBytes)
        #expect(try opened.rowsWritten() == 2)
    }
}
