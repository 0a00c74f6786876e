import Foundation
import GRDB

/// The device store's migrations. Frozen once released: a change is a new migration, and a
/// store written by the old code is kept as a test fixture (`Tests/OutpostDeviceTests/Fixtures`).
///
/// v1–v8 are the shell's foundation: the shell's tables (meta, events, outbox, answers). Every
/// other table is a module's own (``DeviceModule/migrations``), registered after these as
/// "<module>: <identifier>". Before modules were targets of their own, v1 and v3 also made and
/// changed check-in's roster tables; those parts are check-in's migrations now, which adopt
/// v1 and v3 on the stores where they ran.
package enum DeviceSchema {
    package static let v1 = "v1"
    package static let v2 = "v2 outbox columns and stored answers"
    package static let v3 = "v3 plaintext local-pending flag on guests"
    package static let v4 = "v4 outbox entries have an owner and a kind"
    package static let v5 = "v5 outbox entries without an event"
    package static let v6 = "v6 outbox state index"
    package static let v7 = "v7 stored answers have a kind"
    package static let v8 = "v8 outbox counts kept by triggers"

    /// A migration that always fails, registered only when a test or `sim migration-failure on`
    /// asks for it, to prove a failed migration leaves the old data intact.
    package static let simulatedFailure = "v3 simulated failure"

    package static func migrator(
        sealer: Sealer, modules: [DeviceMigration] = [], simulateFailure: Bool
    ) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(v1) { db in
            // On stores written before modules had targets of their own, v1 also made check-in's
            // roster tables; check-in's "roster tables" migration makes them now, and is
            // recorded as done wherever v1 ran (``DeviceMigration/adopting``).
            try db.execute(
                sql: """
                    CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
                    CREATE TABLE events (id TEXT PRIMARY KEY, position INTEGER NOT NULL, sealed BLOB NOT NULL);
                    CREATE TABLE outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, payload BLOB NOT NULL);
                    """)
        }
        migrator.registerMigration(v2) { db in
            // v1 kept each pending check-in as one sealed JSON payload; v2 gives the outbox
            // columns (event, fixed Idempotency-Key, attempts, next attempt, state) and seals
            // the request exactly as it will be sent. Pending entries are carried forward in order.
            try db.execute(
                sql: """
                    CREATE TABLE outbox_v2 (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        event_id TEXT NOT NULL,
                        idempotency_key TEXT NOT NULL UNIQUE,
                        request BLOB NOT NULL,
                        created_at INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt_at INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL DEFAULT 'pending',
                        last_error TEXT);
                    CREATE TABLE answers (
                        idempotency_key TEXT PRIMARY KEY, status INTEGER NOT NULL, body BLOB NOT NULL,
                        received_at INTEGER NOT NULL);
                    """)
            let rows = try Row.fetchAll(db, sql: "SELECT id, payload FROM outbox ORDER BY id")
            for row in rows {
                let legacy = try sealer.open(json: row["payload"] as Data, as: LegacyOutboxV1.Payload.self)
                let entry = try legacy.migrated()
                try db.execute(
                    sql: """
                        INSERT INTO outbox_v2 (id, event_id, idempotency_key, request, created_at)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        row["id"] as Int64, entry.eventId.wire, entry.idempotencyKey,
                        try sealer.seal(json: entry.request),
                        legacy.scannedAtMillis,
                    ])
            }
            try db.execute(sql: "DROP TABLE outbox; ALTER TABLE outbox_v2 RENAME TO outbox")
        }
        migrator.registerMigration(v3) { _ in
            // Was check-in's local-pending flag on guests; check-in's own migration does it now
            // (adopting this one on stores where it ran). Kept so the identifiers stay in order.
        }
        migrator.registerMigration(v4) { db in
            // Each entry belongs to the user who made it and is sent only under their token; the
            // kind names the module's handler. Existing entries belong to whoever the store says
            // made them: the user who kept them at sign-out, else the signed-in user; with
            // neither, the owner stays unknown and the next sign-in adopts them (what v3 did).
            try db.execute(
                sql: """
                    ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'checkin';
                    ALTER TABLE outbox ADD COLUMN owner TEXT;
                    CREATE INDEX outbox_owner_state ON outbox (owner, state);
                    """)
            var owner = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'kept_outbox_owner'")
                .map { String(decoding: $0, as: UTF8.self) }
            if owner?.isEmpty ?? true,
                let box = try Data.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'session'"),
                // An unreadable session names no owner: the entries stay everyone's, as before.
                let json = try? JSONSerialization.jsonObject(with: try sealer.open(box)) as? [String: Any],
                let user = json["user"] as? [String: Any], let id = user["id"] as? String
            {
                owner = id
            }
            if let owner, !owner.isEmpty {
                try db.execute(sql: "UPDATE outbox SET owner = ?", arguments: [owner])
            }
            try db.execute(sql: "DELETE FROM meta WHERE key = 'kept_outbox_owner'")
        }
        migrator.registerMigration(v5) { db in
            // Modules whose work belongs to the user, not to an event (a peer mentor's
            // activities), queue entries without one: event_id becomes nullable. SQLite cannot
            // drop a NOT NULL, so the table is rebuilt with every row, id and index kept.
            try db.execute(
                sql: """
                    CREATE TABLE outbox_v5 (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        event_id TEXT,
                        idempotency_key TEXT NOT NULL UNIQUE,
                        request BLOB NOT NULL,
                        created_at INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt_at INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL DEFAULT 'pending',
                        last_error TEXT,
                        kind TEXT NOT NULL DEFAULT 'checkin',
                        owner TEXT);
                    INSERT INTO outbox_v5 (id, event_id, idempotency_key, request, created_at, attempts, next_attempt_at,
                        state, last_error, kind, owner)
                    SELECT id, event_id, idempotency_key, request, created_at, attempts, next_attempt_at, state,
                        last_error, kind, owner FROM outbox ORDER BY id;
                    DROP TABLE outbox;
                    ALTER TABLE outbox_v5 RENAME TO outbox;
                    CREATE INDEX outbox_owner_state ON outbox (owner, state);
                    """)
        }
        migrator.registerMigration(v6) { db in
            // Every screen reload counts the pending, refused and quarantined entries; without
            // an index on the state each count read the whole queue (a confirm with 1,000
            // entries queued offline took 2 ms instead of 0.9).
            try db.execute(sql: "CREATE INDEX outbox_state ON outbox (state, owner, kind)")
        }
        migrator.registerMigration(v7) { db in
            // Every module's answers share the table; a module's ledger reads its own kind (check-in's
            // listed a walk-in's and a lease seal's answers as check-ins). Rows stored before
            // have no kind.
            try db.execute(sql: "ALTER TABLE answers ADD COLUMN kind TEXT")
        }
        migrator.registerMigration(v8) { db in
            // The status line counts the queue after every action that wrote a record. A COUNT
            // over the state index grew with the queue (a door offline all evening paid more per
            // confirm the longer it was offline); these counts, kept by triggers in the same
            // transaction as every change to the outbox, are one read of a few rows. Owners
            // are '' for entries written before entries had one (a key cannot hold NULL). A
            // count that reaches 0 goes, so no user's id stays here once their entries have
            // gone (a deleted worker's data leaves nothing on the phone).
            try db.execute(
                sql: """
                    CREATE TABLE outbox_counts (
                        state TEXT NOT NULL, owner TEXT NOT NULL, kind TEXT NOT NULL, entries INTEGER NOT NULL,
                        PRIMARY KEY (state, owner, kind)) WITHOUT ROWID;
                    INSERT INTO outbox_counts (state, owner, kind, entries)
                    SELECT state, coalesce(owner, ''), kind, COUNT(*) FROM outbox
                    GROUP BY state, coalesce(owner, ''), kind;
                    CREATE TRIGGER outbox_counted_insert AFTER INSERT ON outbox BEGIN
                        INSERT INTO outbox_counts (state, owner, kind, entries)
                        VALUES (NEW.state, coalesce(NEW.owner, ''), NEW.kind, 1)
                        ON CONFLICT (state, owner, kind) DO UPDATE SET entries = entries + 1;
                    END;
                    CREATE TRIGGER outbox_counted_delete AFTER DELETE ON outbox BEGIN
                        UPDATE outbox_counts SET entries = entries - 1
                        WHERE state = OLD.state AND owner = coalesce(OLD.owner, '') AND kind = OLD.kind;
                        DELETE FROM outbox_counts
                        WHERE state = OLD.state AND owner = coalesce(OLD.owner, '') AND kind = OLD.kind AND entries <= 0;
                    END;
                    CREATE TRIGGER outbox_counted_update AFTER UPDATE OF state, owner, kind ON outbox BEGIN
                        UPDATE outbox_counts SET entries = entries - 1
                        WHERE state = OLD.state AND owner = coalesce(OLD.owner, '') AND kind = OLD.kind;
                        DELETE FROM outbox_counts
                        WHERE state = OLD.state AND owner = coalesce(OLD.owner, '') AND kind = OLD.kind AND entries <= 0;
                        INSERT INTO outbox_counts (state, owner, kind, entries)
                        VALUES (NEW.state, coalesce(NEW.owner, ''), NEW.kind, 1)
                        ON CONFLICT (state, owner, kind) DO UPDATE SET entries = entries + 1;
                    END;
                    """)
        }
        for migration in modules {
            migrator.registerMigration(migration.identifier) { db in try migration.apply(db, sealer) }
        }
        if simulateFailure {
            migrator.registerMigration(simulatedFailure) { db in
                try db.execute(sql: "DELETE FROM outbox")  // would lose data, were it committed
                throw DeviceStoreError.simulatedMigrationFailure
            }
        }
        return migrator
    }
}
