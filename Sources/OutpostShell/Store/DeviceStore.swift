import Crypto
import Foundation
import GRDB
import OutpostCore
import OutpostProtocol

/// The device's local database: one GRDB gateway in WAL mode with named write transactions.
/// Every guest name, e-mail, code, note and every token is sealed (``Sealer``); codes and
/// e-mails are looked up by blind index.
public final class DeviceStore: Sendable {
    package let queue: DatabaseQueue
    package let sealer: Sealer
    /// Copies the write-ahead log back into the file in the background (not inside a commit).
    package let checkpointer: WALCheckpointer
    /// Which tables each commit changed (the screens read again only after a change).
    package let changes: StoreChanges

    /// What opening the store did.
    public struct OpenReport: Sendable {
        /// Migrations applied by this launch.
        public var applied: [String]
        /// True when the store existed and this launch upgraded it (an app update).
        public var upgraded: Bool
        /// Outbox entries pending after the upgrade.
        public var pendingAfterOpen: Int
    }

    /// SQLite's page cache for the store, in KiB (measured: the scale benchmark's table).
    package static let cacheKiB = 32 * 1024
    /// How much of the file SQLite may map instead of reading it with system calls.
    package static let mmapBytes = 256 << 20
    /// The most the write-ahead log keeps on disk once a checkpoint has copied it back. SQLite
    /// reuses the log's file instead of truncating it, so without a limit the log of a
    /// 1,000,000-guest roster sync stayed at its largest, 1,086 MB beside a 1,062 MB store.
    /// Twice the log's usual length (the checkpointer starts at 1,000 pages, about 4 MiB), so
    /// only a transaction larger than that (the index snapshot, 115 MiB at 1,000,000 guests;
    /// a migration) leaves a log to cut; 64 MiB kept up to 56 MiB more on a phone's disk.
    package static let walLimitBytes = 8 << 20

    package init(queue: DatabaseQueue, sealer: Sealer, checkpointer: WALCheckpointer) {
        self.queue = queue
        self.sealer = sealer
        self.checkpointer = checkpointer
        let changes = StoreChanges()
        queue.add(transactionObserver: changes, extent: .databaseLifetime)
        self.changes = changes
    }

    /// Opens the store under `home`, running every pending migration before anything reads it.
    /// A failed migration throws ``DeviceStoreError/migrationFailed(_:)`` and leaves the file as
    /// it was.
    package static func open(
        home: URL, keyStore: any KeyStore, modules: [DeviceMigration] = [], simulateMigrationFailure: Bool = false,
        upTo target: String? = nil
    ) throws -> (DeviceStore, OpenReport) {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let sealer = Sealer(masterKey: try keyStore.masterKey())
        let path = home.appendingPathComponent("device.sqlite").path
        let checkpointer = WALCheckpointer(path: path, limitBytes: DeviceStore.walLimitBytes)
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // This closure keeps the checkpointer for as long as the connection it hooks.
            checkpointer.install(on: db)
            // The blind indexes are HMACs, so a roster sync inserts at random places in three
            // indexes; with SQLite's default 2 MiB cache, a roster beyond about 20,000 guests
            // read its index pages back from the file for every insert (pread in the profile).
            try db.execute(
                sql: """
                    PRAGMA cache_size = -\(DeviceStore.cacheKiB); PRAGMA mmap_size = \(DeviceStore.mmapBytes);
                    PRAGMA journal_size_limit = \(DeviceStore.walLimitBytes)
                    """)
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let migrator = DeviceSchema.migrator(
            sealer: sealer, modules: modules, simulateFailure: simulateMigrationFailure)
        try adopt(modules, in: queue)
        let before = try queue.read { try migrator.appliedIdentifiers($0) }
        do {
            if let target { try migrator.migrate(queue, upTo: target) } else { try migrator.migrate(queue) }
        } catch {
            throw DeviceStoreError.migrationFailed("\(error)")
        }
        let after = try queue.read { try migrator.appliedIdentifiers($0) }
        let store = DeviceStore(queue: queue, sealer: sealer, checkpointer: checkpointer)
        let applied = migrator.migrations.filter { after.contains($0) && !before.contains($0) }
        let pending = after.contains(DeviceSchema.v2) ? try store.pendingCount(owner: nil) : 0
        return (
            store,
            OpenReport(applied: applied, upgraded: !before.isEmpty && !applied.isEmpty, pendingAfterOpen: pending)
        )
    }

    /// Records as run each module migration that adopts a shell migration this store already
    /// ran (``DeviceMigration/adopting``): that shell migration did its work when the shell still
    /// made the module's tables. Decided from the store as it was opened, before any migration.
    private static func adopt(_ migrations: [DeviceMigration], in queue: DatabaseQueue) throws {
        let adopting = migrations.filter { $0.adopting != nil }
        guard !adopting.isEmpty else { return }
        try queue.write { db in
            guard try db.tableExists("grdb_migrations") else { return }
            let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
            for migration in adopting {
                guard let shell = migration.adopting, applied.contains(shell), !applied.contains(migration.identifier)
                else { continue }
                try db.execute(
                    sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
            }
        }
    }

    /// A read of one SQL statement. One statement is its own snapshot in SQLite, so it runs
    /// without the transaction and `query_only` switches GRDB's `read` puts around a closure
    /// (four more statements each time, and a screen reload makes about a dozen reads, measured
    /// on scan to decision). A read of several statements that must agree uses `queue.read`.
    package func readStatement<T>(_ value: (Database) throws -> T) throws -> T {
        try queue.unsafeRead(value)
    }

    // MARK: - Metadata

    package func plainMeta(_ key: String) throws -> String? {
        try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
    }

    package func setPlainMeta(_ key: String, _ value: String) throws {
        try queue.write { db in try putMeta(db, key, Data(value.utf8)) }
    }

    /// Writes (or replaces) one meta row.
    /// Prepared once (it runs after almost every action: parsing it was a fifth of saving the
    /// screens' states).
    private func putMeta(_ db: Database, _ key: String, _ value: Data) throws {
        try db.cachedStatement(
            sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        ).execute(arguments: [key, value])
    }

    package func sealedMeta<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
        }.map { try sealer.open(json: $0, as: type) }
    }

    /// Bytes kept sealed under `key` (a module's saved state).
    package func sealedBlob(_ key: String) throws -> Data? {
        try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
        }.map { try sealer.open($0) }
    }

    package func setSealedBlob(_ key: String, _ value: Data) throws {
        let box = try sealer.seal(value)
        try queue.write { db in try putMeta(db, key, box) }
    }

    /// Keeps each blob sealed under its key, all in one transaction.
    package func setSealedBlobs(_ blobs: [(String, Data)]) throws {
        let boxes = try blobs.map { ($0.0, try sealer.seal($0.1)) }
        try queue.write { db in
            for (key, box) in boxes { try putMeta(db, key, box) }
        }
    }

    /// Notes other connections' commits (SQLite's `data_version`) in ``changes``: called before
    /// reading generations that must see them.
    package func noteOutsideCommits() {
        // Unread, it counts as a change: everything is read again.
        changes.noteDataVersion(
            try? queue.inDatabase { try Int.fetchOne($0.cachedStatement(sql: "PRAGMA data_version")) })
    }

    package func setSealedMeta<T: Encodable>(_ key: String, _ value: T?) throws {
        try queue.write { db in try setSealedMeta(db, key, value) }
    }

    package func setSealedMeta<T: Encodable>(_ db: Database, _ key: String, _ value: T?) throws {
        if let value {
            try putMeta(db, key, try sealer.seal(json: value))
        } else {
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
    }

    /// This installation's device id, created on first launch.
    public func deviceId() throws -> String {
        if let id = try plainMeta("device_id") { return id }
        let id = "dev-" + UUID().uuidString.lowercased().prefix(13)
        try setPlainMeta("device_id", String(id))
        return String(id)
    }

    // MARK: - Events

    package func replaceEvents(_ events: [EventInfo]) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM events")
            for (position, event) in events.enumerated() {
                try db.execute(
                    sql: "INSERT INTO events (id, position, sealed) VALUES (?, ?, ?)",
                    arguments: [event.id.wire, position, try sealer.seal(json: event)])
            }
        }
    }

    package func events() throws -> [EventInfo] {
        try readStatement { db in
            try Data.fetchAll(db, sql: "SELECT sealed FROM events ORDER BY position")
        }.map { try sealer.open(json: $0, as: EventInfo.self) }
    }

    /// Rewrites the database file so deleted rows leave no trace on disk.
    package func vacuum() throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM")
        }
    }
}
