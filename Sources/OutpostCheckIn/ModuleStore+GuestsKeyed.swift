import Foundation
import GRDB
import OutpostShell

/// The guests' table's key: event and guest id alone, each id in its 16 bytes.
extension ModuleStore where Owner == CheckInModule {
    /// The guests' table keyed by its primary key alone (`WITHOUT ROWID`): a row is found by
    /// event and guest id, never by a row number, so the key's own index (every id a second
    /// time, 94 bytes a guest) went, and a roster page inserts into one B-tree per guest, not two.
    /// The table's indexes and triggers are made again from their own SQL, as they were.
    static var guestsWithoutRowidMigration: DeviceMigration {
        DeviceMigration("guests keyed without row numbers") { db, _ in
            let schema = try guestsSchema(db)
            try db.execute(
                sql: """
                    CREATE TABLE guests_keyed (
                        event_id TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, checked_in_at INTEGER,
                        local_pending INTEGER NOT NULL DEFAULT 0, keys_digest BLOB, block_id TEXT, sealed BLOB,
                        page INTEGER, slot INTEGER, PRIMARY KEY (event_id, id)) WITHOUT ROWID;
                    INSERT INTO guests_keyed (event_id, id, status, checked_in_at, local_pending, keys_digest,
                        block_id, sealed, page, slot)
                        SELECT event_id, id, status, checked_in_at, local_pending, keys_digest, block_id, sealed,
                            page, slot FROM guests;
                    DROP TABLE guests;
                    ALTER TABLE guests_keyed RENAME TO guests;
                    """)
            for sql in schema { try db.execute(sql: sql) }
        }
    }

    /// The guests' event and id, and the roster versions' event, as their 16 bytes
    /// (``OutpostCore/TypedID/data``) instead of 36 characters of text: 40 bytes a guest of
    /// the row, which is the key (`WITHOUT ROWID`). The versions move with their numbers, so a
    /// search index's snapshot built before stays current.
    static var guestsIdBytesMigration: DeviceMigration {
        DeviceMigration("guests keyed by id bytes") { db, _ in
            let schema = try guestsSchema(db)
            try db.execute(
                sql: """
                    CREATE TABLE guests_bytes (
                        event_id BLOB NOT NULL, id BLOB NOT NULL, status TEXT NOT NULL, checked_in_at INTEGER,
                        local_pending INTEGER NOT NULL DEFAULT 0, keys_digest BLOB, block_id TEXT, sealed BLOB,
                        page INTEGER, slot INTEGER, PRIMARY KEY (event_id, id)) WITHOUT ROWID;
                    CREATE TABLE roster_versions_bytes (
                        event_id BLOB PRIMARY KEY, version INTEGER NOT NULL, guests INTEGER NOT NULL);
                    """)
            let guest = try db.makeStatement(
                sql: """
                    INSERT INTO guests_bytes (event_id, id, status, checked_in_at, local_pending, keys_digest,
                        block_id, sealed, page, slot)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT event_id, id, status, checked_in_at, local_pending, keys_digest, block_id, sealed, page,
                        slot FROM guests
                    """)
            while let row = try rows.next() {
                let ids: [DatabaseValue] = [
                    UUID.storedData(wire: row[0]).databaseValue, UUID.storedData(wire: row[1]).databaseValue,
                ]
                try guest.execute(arguments: StatementArguments(ids + (2..<10).map { row[$0] as DatabaseValue }))
            }
            let version = try db.makeStatement(
                sql: "INSERT INTO roster_versions_bytes (event_id, version, guests) VALUES (?, ?, ?)")
            for row in try Row.fetchAll(db, sql: "SELECT event_id, version, guests FROM roster_versions") {
                try version.execute(arguments: [UUID.storedData(wire: row[0]), row[1] as Int, row[2] as Int])
            }
            try db.execute(
                sql: """
                    DROP TABLE guests;
                    ALTER TABLE guests_bytes RENAME TO guests;
                    DROP TABLE roster_versions;
                    ALTER TABLE roster_versions_bytes RENAME TO roster_versions;
                    """)
            for sql in schema { try db.execute(sql: sql) }
        }
    }

    /// The SQL of the guests' indexes and triggers, to make them again on a new table.
    private static func guestsSchema(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT sql FROM sqlite_master
                WHERE tbl_name = 'guests' AND type IN ('index', 'trigger') AND sql IS NOT NULL
                ORDER BY type, name
                """)
    }
}
