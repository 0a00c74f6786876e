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
            }
        ]
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
