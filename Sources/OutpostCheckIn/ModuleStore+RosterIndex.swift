import Foundation
import GRDB
import OutpostCore
import OutpostShell

/// The check-in module's own tables and the sealed snapshot of its search index.
///
/// `roster_versions` counts, per event, the roster's guests and the changes to the roster that
/// can change a search: a guest added or removed, or its name, e-mail or code changed. Triggers keep it, so no
/// write path can forget to; a check-in or a status change does not count, because the index
/// holds only ids and search keys. A guest's search keys are compared by `keys_digest`, an
/// HMAC under the store's index key (it says no more than a blind index of the code would).
///
/// Codes and e-mails had blind indexes (HMACs) of their own; they are now looked up in the
/// search index (``CheckInModule/lookUp(eventId:_:_:)``), and the last migration drops them.
extension ModuleStore where Owner == CheckInModule {
    package static var checkInMigrations: [DeviceMigration] {
        [
            // The roster's tables, as the shell's v1 made them before check-in had a target.
            DeviceMigration("roster tables", adopting: DeviceSchema.v1) { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE access_types (
                            event_id TEXT NOT NULL, id TEXT NOT NULL, sealed BLOB NOT NULL, PRIMARY KEY (event_id, id));
                        CREATE TABLE guests (
                            event_id TEXT NOT NULL, id TEXT NOT NULL, code_index BLOB NOT NULL, email_index BLOB NOT NULL,
                            status TEXT NOT NULL, checked_in_at INTEGER, sealed BLOB NOT NULL, PRIMARY KEY (event_id, id));
                        CREATE INDEX guests_code ON guests (event_id, code_index);
                        CREATE INDEX guests_email ON guests (event_id, email_index);
                        CREATE TABLE event_keys (
                            event_id TEXT NOT NULL, key_id TEXT NOT NULL, public_key BLOB NOT NULL, PRIMARY KEY (event_id, key_id));
                        CREATE TABLE sync_state (event_id TEXT PRIMARY KEY, cursor TEXT, synced_at INTEGER, kiosk BLOB);
                        """)
            },
            // Whether a guest's check-in is known only to this device: the one thing a roster page
            // must not overwrite. As a plain flag, applying a page reads and unseals only those
            // guests instead of every guest on the page. (The shell's v3 before check-in had a target.)
            DeviceMigration("local pending flag", adopting: DeviceSchema.v3) { db, sealer in
                try db.execute(sql: "ALTER TABLE guests ADD COLUMN local_pending INTEGER NOT NULL DEFAULT 0")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT event_id, id, sealed FROM guests WHERE checked_in_at IS NOT NULL")
                for row in rows where try sealer.openGuest(row["sealed"] as Data).checkIn?.pending == true {
                    try db.execute(
                        sql: "UPDATE guests SET local_pending = 1 WHERE event_id = ? AND id = ?",
                        arguments: [row["event_id"] as String, row["id"] as String])
                }
            },
            DeviceMigration("v1 roster version and pending index") { db, _ in
                try db.execute(
                    sql: """
                        ALTER TABLE guests ADD COLUMN keys_digest BLOB;
                        CREATE INDEX guests_pending ON guests (event_id) WHERE local_pending = 1;
                        DROP INDEX guests_code;
                        DROP INDEX guests_email;
                        CREATE INDEX guests_code ON guests (code_index);
                        CREATE INDEX guests_email ON guests (email_index);
                        CREATE TABLE roster_versions (
                            event_id TEXT PRIMARY KEY, version INTEGER NOT NULL, guests INTEGER NOT NULL);
                        INSERT INTO roster_versions (event_id, version, guests)
                            SELECT event_id, 1, COUNT(*) FROM guests GROUP BY event_id;
                        CREATE TRIGGER guests_added AFTER INSERT ON guests BEGIN
                            INSERT INTO roster_versions (event_id, version, guests) VALUES (NEW.event_id, 1, 1)
                            ON CONFLICT (event_id) DO UPDATE SET version = version + 1, guests = guests + 1;
                        END;
                        CREATE TRIGGER guests_removed AFTER DELETE ON guests BEGIN
                            UPDATE roster_versions SET version = version + 1, guests = guests - 1
                            WHERE event_id = OLD.event_id;
                        END;
                        CREATE TRIGGER guests_moved AFTER UPDATE OF event_id ON guests
                        WHEN OLD.event_id IS NOT NEW.event_id BEGIN
                            UPDATE roster_versions SET version = version + 1, guests = guests - 1
                            WHERE event_id = OLD.event_id;
                            INSERT INTO roster_versions (event_id, version, guests) VALUES (NEW.event_id, 1, 1)
                            ON CONFLICT (event_id) DO UPDATE SET version = version + 1, guests = guests + 1;
                        END;
                        CREATE TRIGGER guests_rekeyed AFTER UPDATE OF keys_digest, id ON guests
                        WHEN OLD.keys_digest IS NOT NEW.keys_digest OR OLD.id IS NOT NEW.id BEGIN
                            UPDATE roster_versions SET version = version + 1 WHERE event_id = NEW.event_id;
                        END;
                        """)
            },
            // Ticket blocks (EF-069): the event's blocks as the roster carries them, and each
            // ticket's block in plain, so the door finds a block's unnamed tickets without
            // unsealing the roster.
            DeviceMigration("ticket blocks") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE ticket_blocks (
                            event_id TEXT NOT NULL, id TEXT NOT NULL, sealed BLOB NOT NULL, PRIMARY KEY (event_id, id));
                        ALTER TABLE guests ADD COLUMN block_id TEXT;
                        CREATE INDEX guests_block ON guests (event_id, block_id) WHERE block_id IS NOT NULL;
                        """)
            },
            rosterPagesMigration,
            // The search index's snapshot in sealed parts of its own table (it was one box in
            // `meta`, of an earlier layout that is built again anyway).
            DeviceMigration("roster index parts") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE roster_index_parts (
                            event_id TEXT NOT NULL, part INTEGER NOT NULL, parts INTEGER NOT NULL,
                            version INTEGER NOT NULL, sealed BLOB NOT NULL, PRIMARY KEY (event_id, part));
                        DELETE FROM meta WHERE key LIKE 'roster_index %';
                        """)
            },
            // Codes and e-mails are looked up in the search index (it follows the roster's
            // changes, a sync's and this device's own), not in two blind indexes: they were
            // 53 MiB of a 1,000,000-guest store, and two HMACs and two random B-tree inserts
            // per guest of every roster page.
            DeviceMigration("lookups from the search index") { db, _ in
                try db.execute(
                    sql: """
                        DROP INDEX IF EXISTS guests_code;
                        DROP INDEX IF EXISTS guests_email;
                        ALTER TABLE guests DROP COLUMN code_index;
                        ALTER TABLE guests DROP COLUMN email_index;
                        """)
            },
            guestsWithoutRowidMigration,
            guestsIdBytesMigration,
            // Guest fields: the event's own fields as the roster carries them (the guests' values
            // are sealed with each guest).
            DeviceMigration("guest fields") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE guest_fields (
                            event_id TEXT NOT NULL, position INTEGER NOT NULL, sealed BLOB NOT NULL,
                            PRIMARY KEY (event_id, position));
                        """)
            },
        ]
    }

    /// How many guests the event's roster holds, from the triggers' count: the screens show it
    /// after every action, and a COUNT over 100,000 guests took 3 ms of each scan and confirm.
    package func guestCount(eventId: EventID) throws -> Int {
        try readStatement { db in
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT guests FROM roster_versions WHERE event_id = ?"),
                arguments: [eventId.data]) ?? 0
        }
    }

    /// The roster's change count for searches (0 before any guest).
    package func rosterVersion(eventId: EventID) throws -> Int {
        try readStatement { db in try Self.rosterVersion(db, eventId) }
    }

    static func rosterVersion(_ db: Database, _ eventId: EventID) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT version FROM roster_versions WHERE event_id = ?"), arguments: [eventId.data]
        )
            ?? 0
    }

    /// Every guest of the event and the roster version they are, read in one transaction and
    /// opened on every core.
    package func guestsForIndex(eventId: EventID) throws -> (version: Int, guests: [LocalGuest]) {
        let (version, parts) = try roster(eventId: eventId) { rows, guest in try rows.map(guest) }
        return (version, parts.flatMap { $0 })
    }

    /// The search index over every guest of the event, and the roster version it is: each
    /// core folds its part of the roster into a segment of records as it opens the guests, so
    /// a large roster's guests are never all in memory beside the index.
    package func rosterIndex(eventId: EventID) throws -> (version: Int, index: RosterIndex) {
        let (version, segments) = try roster(eventId: eventId) { rows, guest in
            var segment = RosterIndexLayout.Segment()
            for row in rows { segment.append(RosterIndex.entry(try guest(row))) }
            return segment
        }
        return (version, RosterIndex(segments: segments))
    }

    private typealias RosterRow = (id: Data, own: Data?, page: Int64?, slot: Int?)

    /// `transform` of parts of the event's guests, read in one transaction and opened on every
    /// core: the pages first, then each row's guest from its page or its own box.
    private func roster<Value: Sendable>(
        eventId: EventID,
        _ transform: @escaping @Sendable (ArraySlice<RosterRow>, (RosterRow) throws -> LocalGuest) throws -> Value
    ) throws -> (version: Int, values: [Value]) {
        let (version, rows, boxes) = try queue.read { db in
            var rows: [RosterRow] = []
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT id, sealed, page, slot FROM guests WHERE event_id = ?", arguments: [eventId.data])
            while let row = try cursor.next() { rows.append((row[0], row[1], row[2], row[3])) }
            return (
                try Self.rosterVersion(db, eventId), rows,
                try Row.fetchAll(
                    db, sql: "SELECT id, sealed FROM roster_pages WHERE event_id = ?", arguments: [eventId.wire]
                ).map { (id: $0[0] as Int64, box: $0[1] as Data) }
            )
        }
        let opened = try ParallelMap.map(boxes) { try openPage(eventId: eventId, page: $0.id, box: $0.box) }
        let pages = Dictionary(zip(boxes.map(\.id), opened)) { first, _ in first }
        let sealer = sealer
        let values = try ParallelMap.chunks(rows, minimumChunk: 2_000) { part in
            try transform(part) { row in
                try Self.guest(
                    id: row.id, own: row.own, page: row.page, slot: row.slot, eventId: eventId, sealer: sealer
                ) { pages[$0] }
            }
        }
        return (version, values)
    }

    /// The guests with these ids (those the store has), in the order asked.
    package func guests(eventId: EventID, ids: [GuestID]) throws -> [LocalGuest] {
        guard !ids.isEmpty else { return [] }
        let found = try readStatement { db in
            var pages: [Int64: RosterPageCoding.Page] = [:]
            var found: [Data: LocalGuest] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.guestColumns) FROM \(Self.guestSource)
                    WHERE g.event_id = ? AND g.id IN (\(databaseQuestionMarks(count: ids.count)))
                    """,
                arguments: StatementArguments([eventId.data] + ids.map(\.data)))
            {
                found[row["id"]] = try openGuest(row: row, eventId: eventId, pages: &pages)
            }
            return found
        }
        return ids.compactMap { found[$0.data] }
    }

    /// The size of a snapshot's sealed parts: the buffer is read a part at a time, so opening it
    /// holds the buffer and one part, not the buffer twice.
    package static var snapshotPartBytes: Int { 1 << 20 }

    /// What a part's box is bound to: its event, the roster version it was built from, its
    /// number and how many parts there are, so a part moved, a part missing or a stale snapshot
    /// does not open.
    private static func snapshotContext(_ eventId: EventID, version: Int, part: Int, parts: Int) -> Data {
        var bytes = Array("outpost roster index v2".utf8)
        ByteLayout.append(eventId.wire, to: &bytes)
        for value in [version, part, parts] { ByteLayout.append(bigEndian: UInt64(value), to: &bytes) }
        return Data(bytes)
    }

    /// The search-index snapshot of the event (``RosterIndex/snapshot()``'s bytes), if it was
    /// built from the roster as it is now; nil when there is none or the roster changed since.
    /// A part that does not open, or a part missing, throws.
    package func rosterIndexSnapshot(eventId: EventID) throws -> [UInt8]? {
        try queue.read { db in
            let version = try Self.rosterVersion(db, eventId)
            let cursor = try Row.fetchCursor(
                db,
                sql: "SELECT part, parts, version, sealed FROM roster_index_parts WHERE event_id = ? ORDER BY part",
                arguments: [eventId.wire])
            var bytes: [UInt8] = []
            var parts = 0
            var read = 0
            while let row = try cursor.next() {
                guard row["version"] as Int == version else { return nil }
                if read == 0 {
                    parts = row["parts"]
                    bytes.reserveCapacity(min(parts, 1 << 12) * Self.snapshotPartBytes)
                }
                guard row["part"] as Int == read, row["parts"] as Int == parts else {
                    throw ByteLayout.Failure.malformed("snapshot part \(read) of \(parts) is missing")
                }
                let box: Data = row["sealed"]
                bytes.append(
                    contentsOf: try sealer.open(
                        box, authenticating: Self.snapshotContext(eventId, version: version, part: read, parts: parts)))
                read += 1
            }
            guard read > 0 else { return nil }
            guard read == parts else { throw ByteLayout.Failure.malformed("snapshot cut short at part \(read)") }
            return bytes
        }
    }

    /// Keeps `bytes` (``RosterIndex/snapshot()``) as the event's snapshot, built from the roster
    /// at `version`, in sealed parts of `partBytes`. Signing out forgets it with the roster.
    package func saveRosterIndexSnapshot(
        eventId: EventID, version: Int, bytes: [UInt8], partBytes: Int = snapshotPartBytes
    ) throws {
        let parts = max(1, (bytes.count + partBytes - 1) / partBytes)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM roster_index_parts WHERE event_id = ?", arguments: [eventId.wire])
            let insert = try db.makeStatement(
                sql: "INSERT INTO roster_index_parts (event_id, part, parts, version, sealed) VALUES (?, ?, ?, ?, ?)")
            // One part sealed at a time: the snapshot is never in memory twice.
            for part in 0..<parts {
                let box = try sealer.seal(
                    Data(bytes[part * partBytes..<min(bytes.count, (part + 1) * partBytes)]),
                    authenticating: Self.snapshotContext(eventId, version: version, part: part, parts: parts))
                try insert.execute(arguments: [eventId.wire, part, parts, version, box])
            }
        }
    }
}
