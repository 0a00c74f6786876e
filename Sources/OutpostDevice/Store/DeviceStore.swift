import Crypto
import Foundation
import GRDB
import OutpostCore
import OutpostProtocol

/// The device's local database: one GRDB gateway in WAL mode with named write transactions.
/// Every guest name, e-mail, code, note and every token is sealed (``Sealer``); codes and
/// e-mails are looked up by blind index.
public final class DeviceStore: Sendable {
    let queue: DatabaseQueue
    let sealer: Sealer
    /// Copies the write-ahead log back into the file in the background (not inside a commit).
    let checkpointer: WALCheckpointer

    /// What opening the store did.
    public struct OpenReport: Sendable {
        /// Migrations applied by this launch.
        public var applied: [String]
        /// True when the store existed and this launch upgraded it (an app update).
        public var upgraded: Bool
        /// Outbox entries pending after the upgrade.
        public var pendingAfterOpen: Int
    }

    /// SQLite's page cache for the store, in KiB (measured: issue 15's scale table).
    static let cacheKiB = 32 * 1024
    /// How much of the file SQLite may map instead of reading it with system calls.
    static let mmapBytes = 256 << 20

    init(queue: DatabaseQueue, sealer: Sealer, checkpointer: WALCheckpointer) {
        self.queue = queue
        self.sealer = sealer
        self.checkpointer = checkpointer
    }

    /// Opens the store under `home`, running every pending migration before anything reads it.
    /// A failed migration throws ``DeviceStoreError/migrationFailed(_:)`` and leaves the file as
    /// it was.
    static func open(
        home: URL, keyStore: any KeyStore, modules: [DeviceMigration] = [], simulateMigrationFailure: Bool = false,
        upTo target: String? = nil
    ) throws -> (DeviceStore, OpenReport) {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let sealer = Sealer(masterKey: try keyStore.masterKey())
        let path = home.appendingPathComponent("device.sqlite").path
        let checkpointer = WALCheckpointer(path: path)
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
                sql: "PRAGMA cache_size = -\(DeviceStore.cacheKiB); PRAGMA mmap_size = \(DeviceStore.mmapBytes)")
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let migrator = DeviceSchema.migrator(
            sealer: sealer, modules: modules, simulateFailure: simulateMigrationFailure)
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

    /// A read of one SQL statement. One statement is its own snapshot in SQLite, so it runs
    /// without the transaction and `query_only` switches GRDB's `read` puts around a closure
    /// (four more statements each time, and a screen reload makes about a dozen reads: issue 15,
    /// scan to decision). A read of several statements that must agree uses `queue.read`.
    func readStatement<T>(_ value: (Database) throws -> T) throws -> T {
        try queue.unsafeRead(value)
    }

    // MARK: - Metadata

    func plainMeta(_ key: String) throws -> String? {
        try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
    }

    func setPlainMeta(_ key: String, _ value: String) throws {
        try queue.write { db in try putMeta(db, key, Data(value.utf8)) }
    }

    /// Writes (or replaces) one meta row.
    private func putMeta(_ db: Database, _ key: String, _ value: Data) throws {
        try db.execute(
            sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }

    func sealedMeta<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
        }.map { try sealer.open(json: $0, as: type) }
    }

    /// Bytes kept sealed under `key` (a module's saved state).
    func sealedBlob(_ key: String) throws -> Data? {
        try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
        }.map { try sealer.open($0) }
    }

    func setSealedBlob(_ key: String, _ value: Data) throws {
        let box = try sealer.seal(value)
        try queue.write { db in try putMeta(db, key, box) }
    }

    /// Keeps each blob sealed under its key, all in one transaction.
    func setSealedBlobs(_ blobs: [(String, Data)]) throws {
        let boxes = try blobs.map { ($0.0, try sealer.seal($0.1)) }
        try queue.write { db in
            for (key, box) in boxes { try putMeta(db, key, box) }
        }
    }

    func setSealedMeta<T: Encodable>(_ key: String, _ value: T?) throws {
        try queue.write { db in try setSealedMeta(db, key, value) }
    }

    func setSealedMeta<T: Encodable>(_ db: Database, _ key: String, _ value: T?) throws {
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

    func replaceEvents(_ events: [EventInfo]) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM events")
            for (position, event) in events.enumerated() {
                try db.execute(
                    sql: "INSERT INTO events (id, position, sealed) VALUES (?, ?, ?)",
                    arguments: [event.id.wire, position, try sealer.seal(json: event)])
            }
        }
    }

    func events() throws -> [EventInfo] {
        try readStatement { db in
            try Data.fetchAll(db, sql: "SELECT sealed FROM events ORDER BY position")
        }.map { try sealer.open(json: $0, as: EventInfo.self) }
    }

    // MARK: - Roster

    /// Applies one roster page and its cursor in one transaction. A check-in this device made
    /// that the server has not answered yet survives a page that does not know of it.
    func applyRosterPage(eventId: EventID, page: RosterPage) throws {
        try queue.write { db in
            let pendingHere = Set(
                try String.fetchAll(
                    db, sql: "SELECT id FROM guests WHERE event_id = ? AND local_pending = 1", arguments: [eventId.wire]
                ))
            for guest in page.guests {
                var checkIn = guest.checkIn.map {
                    LocalCheckIn(at: $0.at, byName: $0.byName, deviceId: $0.deviceId, pending: false)
                }
                if checkIn == nil, pendingHere.contains(guest.id.wire),
                    let local = try Data.fetchOne(
                        db, sql: "SELECT sealed FROM guests WHERE event_id = ? AND id = ?",
                        arguments: [eventId.wire, guest.id.wire]
                    ).map({ try sealer.openGuest($0) })?.checkIn, local.pending
                {
                    checkIn = local
                }
                let local = LocalGuest(
                    id: guest.id, eventId: eventId, accessTypeId: guest.accessTypeId, name: guest.name,
                    email: guest.email,
                    code: guest.code, notes: guest.notes, status: guest.status, checkIn: checkIn)
                try upsert(db, local)
            }
            try db.execute(sql: "DELETE FROM access_types WHERE event_id = ?", arguments: [eventId.wire])
            for type in page.accessTypes {
                try db.execute(
                    sql: "INSERT INTO access_types (event_id, id, sealed) VALUES (?, ?, ?)",
                    arguments: [eventId.wire, type.id.wire, try sealer.seal(json: type)])
            }
            try db.execute(sql: "DELETE FROM event_keys WHERE event_id = ?", arguments: [eventId.wire])
            for key in page.keys {
                guard let raw = Base64URL.decode(key.publicKey) else { continue }
                try db.execute(
                    sql: "INSERT INTO event_keys (event_id, key_id, public_key) VALUES (?, ?, ?)",
                    arguments: [eventId.wire, key.keyId, Data(raw)])
            }
            try db.execute(
                sql: """
                    INSERT INTO sync_state (event_id, cursor, synced_at, kiosk) VALUES (?, ?, ?, ?)
                    ON CONFLICT (event_id) DO UPDATE SET cursor = excluded.cursor, synced_at = excluded.synced_at,
                        kiosk = excluded.kiosk
                    """,
                arguments: [
                    eventId.wire, page.cursor, page.serverTime.millisecondsSince1970,
                    try page.kiosk.map { try sealer.seal(json: $0) },
                ])
        }
    }

    func upsert(_ db: Database, _ guest: LocalGuest) throws {
        // A cached statement: parsing this SQL for every guest showed up in the roster-sync profile.
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO guests (event_id, id, code_index, email_index, keys_digest, status, checked_in_at,
                    local_pending, sealed)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (event_id, id) DO UPDATE SET code_index = excluded.code_index,
                    email_index = excluded.email_index, keys_digest = excluded.keys_digest, status = excluded.status,
                    checked_in_at = excluded.checked_in_at, local_pending = excluded.local_pending,
                    sealed = excluded.sealed
                """)
        try statement.execute(arguments: [
            guest.eventId.wire, guest.id.wire, sealer.blind(guest.code), sealer.blind(guest.email),
            sealer.digest([guest.name, guest.email, guest.code]), guest.status.rawValue,
            guest.checkIn?.at.millisecondsSince1970, guest.checkIn?.pending == true ? 1 : 0,
            try sealer.seal(guest: guest),
        ])
    }

    /// Writes back a guest read in the same transaction `db` whose check-in alone changed (an
    /// outbox answer): the sealed guest and the two check-in columns. Its code, e-mail, name and
    /// status are the stored ones, so its blind indexes and keys digest stand; recomputing them
    /// (three HMACs) and rewriting their index entries was a third of the sealing work per
    /// answer in a drain (issue 15, step 9).
    func updateCheckIn(_ db: Database, _ guest: LocalGuest) throws {
        try db.cachedStatement(
            sql: "UPDATE guests SET checked_in_at = ?, local_pending = ?, sealed = ? WHERE event_id = ? AND id = ?"
        ).execute(arguments: [
            guest.checkIn?.at.millisecondsSince1970, guest.checkIn?.pending == true ? 1 : 0,
            try sealer.seal(guest: guest), guest.eventId.wire, guest.id.wire,
        ])
    }

    /// The stored cursor of an event's roster; nil before the first page.
    func cursor(eventId: EventID) throws -> String? {
        try readStatement { db in
            try String.fetchOne(db, sql: "SELECT cursor FROM sync_state WHERE event_id = ?", arguments: [eventId.wire])
        }
    }

    /// When an event's roster was last brought up to date (the server's time of its last page).
    func rosterSyncedAt(eventId: EventID) throws -> Date? {
        try readStatement { db in
            try Int64.fetchOne(
                db, sql: "SELECT synced_at FROM sync_state WHERE event_id = ?", arguments: [eventId.wire])
        }.map(Date.init(millisecondsSince1970:))
    }

    func kiosk(eventId: EventID) throws -> KioskInfo? {
        try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT kiosk FROM sync_state WHERE event_id = ?", arguments: [eventId.wire])
        }.map { try sealer.open(json: $0, as: KioskInfo.self) }
    }

    func guest(eventId: EventID, id: GuestID) throws -> LocalGuest? {
        try readStatement { db in try guest(db, eventId: eventId, id: id) }
    }

    /// The guest, read inside the caller's access `db`.
    func guest(_ db: Database, eventId: EventID, id: GuestID) throws -> LocalGuest? {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT sealed FROM guests WHERE event_id = ? AND id = ?"),
            arguments: [eventId.wire, id.wire]
        ).map { try sealer.openGuest($0) }
    }

    /// Exact lookup by confirmation code (blind index; case-insensitive).
    func guest(eventId: EventID, code: String) throws -> LocalGuest? {
        try readStatement { db in
            try Data.fetchOne(
                db, sql: "SELECT sealed FROM guests WHERE event_id = ? AND code_index = ?",
                arguments: [eventId.wire, sealer.blind(code)])
        }.map { try sealer.openGuest($0) }
    }

    /// Exact lookup by e-mail (blind index); every guest with that e-mail.
    func guests(eventId: EventID, email: String) throws -> [LocalGuest] {
        try readStatement { db in
            try Data.fetchAll(
                db, sql: "SELECT sealed FROM guests WHERE event_id = ? AND email_index = ?",
                arguments: [eventId.wire, sealer.blind(email)])
        }.map { try sealer.openGuest($0) }
    }

    /// Unseals guests on every core (the search index's build reads the whole roster).
    func openGuests(_ boxes: [Data]) throws -> [LocalGuest] {
        let chunks = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 2, boxes.count / 2_000))
        let results = ChunkResults(count: chunks)
        let sealer = sealer
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (boxes.count * chunk / chunks)..<(boxes.count * (chunk + 1) / chunks)
            results.store(chunk, Result { try boxes[range].map { try sealer.openGuest($0) } })
        }
        return try results.all().flatMap { try $0.get() }
    }

    func accessTypes(eventId: EventID) throws -> [AccessTypeInfo] {
        try readStatement { db in
            try Data.fetchAll(db, sql: "SELECT sealed FROM access_types WHERE event_id = ?", arguments: [eventId.wire])
        }.map { try sealer.open(json: $0, as: AccessTypeInfo.self) }
    }

    /// The event's ticket keys, for offline verification.
    func ticketKeys(eventId: EventID) throws -> [TicketKeyID: Curve25519.Signing.PublicKey] {
        let rows = try readStatement { db in
            try Row.fetchAll(
                db, sql: "SELECT key_id, public_key FROM event_keys WHERE event_id = ?", arguments: [eventId.wire])
        }
        var keys: [TicketKeyID: Curve25519.Signing.PublicKey] = [:]
        for row in rows {
            guard let id = TicketKeyID(hex: row["key_id"]),
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: row["public_key"] as Data)
            else { continue }
            keys[id] = key
        }
        return keys
    }

    /// Every check-in confirmed on this device that the store still holds, answered ones first
    /// (by key), then the outbox in replay order, damaged rows included. Sign-out forgets the
    /// answers; with discard, the user's entries too.
    public func ledger() throws -> [CheckInLedgerEntry] {
        let answers = try readStatement { db in
            try Row.fetchAll(db, sql: "SELECT idempotency_key, status, body FROM answers ORDER BY idempotency_key")
        }
        var entries: [CheckInLedgerEntry] = try answers.map { row in
            let status: Int = row["status"]
            let body = try sealer.open(row["body"] as Data)
            var entry = CheckInLedgerEntry(idempotencyKey: row["idempotency_key"], state: .answered, status: status)
            if (200..<300).contains(status), let answer = try? OutpostJSON.decode(CheckInResponse.self, from: body) {
                entry.result = answer.result.rawValue
                entry.checkInDeviceId = answer.checkIn.deviceId
            } else {
                entry.error = try? OutpostJSON.decode(ErrorBody.self, from: body).error
            }
            return entry
        }
        // The outbox by its plaintext columns: a row that cannot be unsealed is still listed.
        let answered = Dictionary(entries.enumerated().map { ($1.idempotencyKey, $0) }) { first, _ in first }
        for row in try outboxRows() where row.kind == .checkIn {
            let state: CheckInLedgerEntry.State =
                switch row.state {
                case .pending: .pending
                case .rejected: .rejected
                case .quarantined: .quarantined
                }
            if let index = answered[row.idempotencyKey] {
                // A refusal is stored as an answer too; the entry's state says it was refused.
                if state != .pending { entries[index].state = state }
                continue
            }
            entries.append(CheckInLedgerEntry(idempotencyKey: row.idempotencyKey, state: state, error: row.lastError))
        }
        return entries
    }

    /// Rewrites the database file so deleted rows leave no trace on disk.
    func vacuum() throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM")
        }
    }
}

/// Per-chunk results of a parallel unseal, collected under a lock.
private final class ChunkResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<[LocalGuest], any Error>]

    init(count: Int) { results = Array(repeating: .success([]), count: count) }

    func store(_ chunk: Int, _ result: Result<[LocalGuest], any Error>) { lock.withLock { results[chunk] = result } }

    func all() -> [Result<[LocalGuest], any Error>] { lock.withLock { results } }
}
