import GRDB
import OutpostShell

extension ModuleStore where Owner == CheckInModule {
    /// The guests' table keyed by its primary key alone (`WITHOUT ROWID`): a row is found by
    /// event and guest id, never by a row number, so the key's own index (every id a second
    /// time, 94 bytes a guest) went, and a roster page inserts into one B-tree per guest, not two.
    /// The table's indexes and triggers are made again from their own SQL, as they were.
    static var guestsWithoutRowidMigration: DeviceMigration {
        DeviceMigration("guests keyed without row numbers") { db, _ in
            let schema = try String.fetchAll(
                db,
                sql: """
                    SELECT sql FROM sqlite_master
                    WHERE tbl_name = 'guests' AND type IN ('index', 'trigger') AND sql IS NOT NULL
                    ORDER BY type, name
                    """)
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
}
