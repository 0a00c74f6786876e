import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The credentials a door holds for one event's mesh: its certificate, the authority's, and the
/// revocations learnt so far (the private key stays in the key store).
package struct MeshCredentialRecord: Codable, Sendable, Hashable {
    package var certificate: Data
    package var authority: Data
    package var notAfter: Date
    package var revocations: [MeshRevocation]
    /// Certificates of peers this door accepted (their entries are checked against them).
    package var peers: [Data] = []
    /// The server's time at the last certificate, and the monotonic clock then: the anchor of
    /// the door's trusted time (nil in a record stored before it).
    package var serverTime: Date?
    package var serverMonotonic: MonotonicInstant?

    /// The server's time and the monotonic clock's reading with it, when both were kept.
    var timeAnchor: (Date, MonotonicInstant)? {
        guard let serverTime, let serverMonotonic else { return nil }
        return (serverTime, serverMonotonic)
    }
}

/// The mesh module's tables: the entries of each event's mesh (this door's and its peers',
/// sealed at rest: names and guest ids) and the door's credentials per event (sealed).
extension ModuleStore where Owner == MeshModule {
    package static var meshMigrations: [DeviceMigration] {
        [
            DeviceMigration("entries and credentials") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE mesh_entries (
                            id BLOB PRIMARY KEY, event_id TEXT NOT NULL, author TEXT NOT NULL, seq INTEGER NOT NULL,
                            sealed BLOB NOT NULL);
                        CREATE INDEX mesh_entries_event ON mesh_entries (event_id, author, seq);
                        CREATE TABLE mesh_credentials (event_id TEXT PRIMARY KEY, sealed BLOB NOT NULL);
                        """)
            },
            // Whether the server has each entry (custody): 0 not known yet, 1 it has it, 2 it
            // refused it (the reason was counted there; the entry is not offered again).
            DeviceMigration("entries the server holds") { db, _ in
                try db.execute(sql: "ALTER TABLE mesh_entries ADD COLUMN at_server INTEGER NOT NULL DEFAULT 0")
            },
        ]
    }

    /// The entries of the event the server is not known to have, in each author's order.
    package func entriesForServer(eventId: EventID) throws -> [MeshEntry] {
        try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT sealed FROM mesh_entries WHERE event_id = ? AND at_server = 0 ORDER BY author, seq",
                arguments: [eventId.wire]
            ).map { row in try MeshEntry(decoding: Array(try sealer.open(row["sealed"] as Data))) }
        }
    }

    /// What the server answered: each author's entries up to its number in `vector` are there,
    /// and each of `answered` is there (true) or refused (false).
    package func markAtServer(
        eventId: EventID, vector: [String: UInt64], answered: [(author: String, seq: UInt64, kept: Bool)]
    ) throws {
        try queue.write { db in
            for (author, seq) in vector {
                try db.execute(
                    sql:
                        "UPDATE mesh_entries SET at_server = 1 WHERE event_id = ? AND author = ? AND seq <= ? AND at_server = 0",
                    arguments: [eventId.wire, author, Int64(seq)])
            }
            for entry in answered {
                try db.execute(
                    sql: "UPDATE mesh_entries SET at_server = ? WHERE event_id = ? AND author = ? AND seq = ?",
                    arguments: [entry.kept ? 1 : 2, eventId.wire, entry.author, Int64(entry.seq)])
            }
        }
    }

    /// Peers' entries (not `device`'s own: its outbox sends those) the server is not known to
    /// have, by event: what this door holds for the server.
    package func heldForServer(except device: String) throws -> [EventID: Int] {
        try queue.read { db in
            var held: [EventID: Int] = [:]
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT event_id, COUNT(*) AS n FROM mesh_entries WHERE at_server = 0 AND author != ? GROUP BY event_id",
                arguments: [device])
            {
                if let event = EventID(wire: row["event_id"]) { held[event] = row["n"] }
            }
            return held
        }
    }

    /// After a sign-out: every entry goes but the peers' ones the server is not known to have
    /// (custody outlives the session that took it; the next sign-in hands them in).
    package func forgetEntries(keepingHeldExcept device: String) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM mesh_entries WHERE at_server != 0 OR author = ?", arguments: [device])
        }
    }

    /// Every entry of the event's mesh this door holds.
    package func entries(eventId: EventID) throws -> [MeshEntry] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT sealed FROM mesh_entries WHERE event_id = ?", arguments: [eventId.wire])
                .map { row in
                    try MeshEntry(decoding: Array(try sealer.open(row["sealed"] as Data)))
                }
        }
    }

    /// Keeps new entries (an entry already held is left as it is).
    package func keep(_ entries: [MeshEntry], eventId: EventID) throws {
        guard !entries.isEmpty else { return }
        try queue.write { db in
            for entry in entries { try keep(db, entry, eventId: eventId) }
        }
    }

    /// Keeps one entry inside the caller's transaction (this door's own, with its check-in).
    package func keep(_ db: Database, _ entry: MeshEntry, eventId: EventID) throws {
        try db.execute(
            sql: """
                INSERT INTO mesh_entries (id, event_id, author, seq, sealed) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """,
            arguments: [
                Data(entry.id), eventId.wire, entry.author, Int64(entry.seq), try sealer.seal(Data(entry.encoded)),
            ])
    }

    package func credentials(eventId: EventID) throws -> MeshCredentialRecord? {
        try queue.read { db in
            try Data.fetchOne(
                db, sql: "SELECT sealed FROM mesh_credentials WHERE event_id = ?", arguments: [eventId.wire])
        }.map { try sealer.open(json: $0, as: MeshCredentialRecord.self) }
    }

    package func setCredentials(_ record: MeshCredentialRecord, eventId: EventID) throws {
        let sealed = try sealer.seal(json: record)
        try queue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO mesh_credentials (event_id, sealed) VALUES (?, ?) ON CONFLICT (event_id) DO UPDATE SET sealed = excluded.sealed",
                arguments: [eventId.wire, sealed])
        }
    }
}
