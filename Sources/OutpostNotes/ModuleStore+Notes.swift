import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// A revision as the device keeps it: sealed, with who wrote it (the server's name once synced;
/// until then the writer's own).
package struct LocalNote: Codable, Sendable, Hashable {
    package var revision: NoteRevision
    package var authorName: String
    /// True while only this device has it (its outbox entry is not answered yet).
    package var pending: Bool
}

/// The notes module's tables: every revision of the event's notes (sealed at rest: no note text in
/// the store's files) and the feed's cursor.
extension ModuleStore where Owner == NotesModule {
    package static var notesMigrations: [DeviceMigration] {
        [
            DeviceMigration("revisions and cursor") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE note_revisions (
                            id TEXT PRIMARY KEY, event_id TEXT NOT NULL, sealed BLOB NOT NULL);
                        CREATE INDEX note_revisions_event ON note_revisions (event_id);
                        CREATE TABLE notes_cursor (event_id TEXT PRIMARY KEY, cursor TEXT NOT NULL);
                        """)
            },
            // A guest's card and the Notes tab read their own revisions, not every note of the
            // event (an import's notes column makes one note per guest): the guest, the note and
            // whether a door wrote it, beside the sealed revision (ids only, as the roster keeps them).
            DeviceMigration("guest and note index") { db, sealer in
                try db.execute(
                    sql: """
                        ALTER TABLE note_revisions ADD COLUMN guest_id TEXT;
                        ALTER TABLE note_revisions ADD COLUMN note_id TEXT;
                        ALTER TABLE note_revisions ADD COLUMN door INTEGER NOT NULL DEFAULT 1;
                        CREATE INDEX note_revisions_guest ON note_revisions (event_id, guest_id);
                        CREATE INDEX note_revisions_note ON note_revisions (event_id, note_id);
                        """)
                for row in try Row.fetchAll(db, sql: "SELECT id, sealed FROM note_revisions") {
                    let id: String = row["id"]
                    let note = try FrozenNoteIndex(try sealer.open(row["sealed"] as Data), json: sealer.decoder)
                    try db.execute(
                        sql: "UPDATE note_revisions SET guest_id = ?, note_id = ?, door = ? WHERE id = ?",
                        arguments: [
                            note.revision.guestId, note.revision.noteId, note.revision.deviceId != "organizer", id,
                        ])
                }
            },
            // Every read by the event alone is served by the guest or the note index, whose
            // first column is the event: this one was 30 MiB of a 1,000,000-guest store.
            DeviceMigration("no event index") { db, _ in
                try db.execute(sql: "DROP INDEX note_revisions_event")
            },
            keyedByGuestMigration,
            // A note is read through its guest's range of the key (``notes(eventId:guestId:noteId:)``):
            // the note's index served only an edit by the note's id alone.
            DeviceMigration("no note index") { db, _ in
                try db.execute(sql: "DROP INDEX IF EXISTS note_revisions_note")
            },
            // Revisions sealed bound to their row's ids (``NoteCoding``) hold none of them: 42
            // bytes fewer for an organizer's note on a guest. Rows written before keep their form
            // (0) and are read as they were.
            DeviceMigration("revisions bound to their row") { db, _ in
                try db.execute(sql: "ALTER TABLE note_revisions ADD COLUMN bound INTEGER NOT NULL DEFAULT 0")
            },
        ]
    }

    /// The revisions keyed by event, guest and id alone (`WITHOUT ROWID`), every id as its 16
    /// bytes: a revision's four ids as text were 144 bytes of its row, and the key's own index,
    /// the guest's and the note's repeated them (at 100,000 guests with the seeder's 60 % of
    /// organizer's notes: 33 MiB, 575 bytes a revision). A note on the event has an empty guest.
    /// The doors' notes, the Notes tab's list, have a small index of their own instead of a
    /// scan of every revision. (The note's index made here is dropped by the next migration.)
    static var keyedByGuestMigration: DeviceMigration {
        DeviceMigration("revisions keyed by guest, ids as bytes") { db, _ in
            try db.execute(
                sql: """
                    CREATE TABLE note_revisions_keyed (
                        event_id BLOB NOT NULL, guest_id BLOB NOT NULL, id BLOB NOT NULL, note_id BLOB NOT NULL,
                        door INTEGER NOT NULL, sealed BLOB NOT NULL, PRIMARY KEY (event_id, guest_id, id)) WITHOUT ROWID;
                    """)
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO note_revisions_keyed (event_id, guest_id, id, note_id, door, sealed)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            func bytes(_ text: String?) -> Data { text.map(UUID.storedData(wire:)) ?? Data() }
            let rows = try Row.fetchCursor(
                db, sql: "SELECT event_id, guest_id, id, note_id, door, sealed FROM note_revisions")
            while let row = try rows.next() {
                try insert.execute(arguments: [
                    bytes(row["event_id"]), bytes(row["guest_id"]), bytes(row["id"]), bytes(row["note_id"]),
                    row["door"] as Int, row["sealed"] as Data,
                ])
            }
            try db.execute(
                sql: """
                    DROP TABLE note_revisions;
                    ALTER TABLE note_revisions_keyed RENAME TO note_revisions;
                    CREATE INDEX note_revisions_note ON note_revisions (event_id, note_id);
                    CREATE INDEX note_revisions_door ON note_revisions (event_id, note_id) WHERE door = 1;
                    """)
        }
    }

    /// Every revision of the event this device holds.
    package func notes(eventId: EventID) throws -> [LocalNote] {
        try notes("note_revisions WHERE event_id = ?", [eventId.data])
    }

    /// The revisions of the guest's notes (a range of the table's key).
    package func notes(eventId: EventID, guestId: GuestID) throws -> [LocalNote] {
        try notes("note_revisions WHERE event_id = ? AND guest_id = ?", [eventId.data, guestId.data])
    }

    /// The revisions of one note on `guestId` (nil: a note on the event): a range of the
    /// table's key, the note's revisions kept.
    package func notes(eventId: EventID, guestId: GuestID?, noteId: NoteRevisionID) throws -> [LocalNote] {
        try notes(eventId: eventId, guestKey: guestId?.data ?? Data(), noteId: noteId)
    }

    /// The revisions of one note, by its guest as the table keys it (empty: on the event).
    private func notes(eventId: EventID, guestKey: Data, noteId: NoteRevisionID) throws -> [LocalNote] {
        try notes(
            "note_revisions WHERE event_id = ? AND guest_id = ? AND note_id = ?", [eventId.data, guestKey, noteId.data])
    }

    /// The revisions of one note whose guest the caller does not know (an edit by the note's id
    /// alone): its guest is found first by reading the event's rows, without opening them.
    /// The notes have no index by note (at 1,000,000 guests it was 47 MiB, for this read alone).
    package func notes(eventId: EventID, noteId: NoteRevisionID) throws -> [LocalNote] {
        let guest = try readStatement { db in
            try Data.fetchOne(
                db.cachedStatement(
                    sql: "SELECT guest_id FROM note_revisions WHERE event_id = ? AND note_id = ? LIMIT 1"),
                arguments: [eventId.data, noteId.data])
        }
        guard let guest else { return [] }
        return try notes(eventId: eventId, guestKey: guest, noteId: noteId)
    }

    /// The revisions of every note a door wrote or edited (handovers, door notes on guests, an
    /// organizer's note edited at a door); the organizer's untouched notes are on the guests' cards.
    /// The doors' notes from their own small index, then each one's revisions from its guest's
    /// range of the key. The index is named: with no statistics, SQLite preferred the key's range
    /// of the event (every revision of it).
    package func doorNotes(eventId: EventID) throws -> [LocalNote] {
        try notes(
            """
            (SELECT DISTINCT guest_id AS g, note_id AS n FROM note_revisions INDEXED BY note_revisions_door
                WHERE event_id = ?1 AND door = 1) AS d
            JOIN note_revisions r ON r.event_id = ?1 AND r.guest_id = d.g AND r.note_id = d.n
            """,
            [eventId.data])
    }

    /// The sealed revisions `source` (a table, its index and a condition) selects, opened with
    /// their rows' ids.
    private func notes(_ source: String, _ arguments: [Data]) throws -> [LocalNote] {
        try readStatement { db in
            // Cached (a few fixed conditions): a guest's notes are read for every confirmation screen.
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT event_id, guest_id, id, note_id, bound, sealed FROM \(source)"),
                arguments: StatementArguments(arguments))
        }.map { row in
            try sealer.openNote(
                row[5], row: NoteCoding.RowIds(eventId: row[0], guestId: row[1], id: row[2], noteId: row[3]),
                bound: row[4])
        }
    }

    static func keep(_ db: Database, _ note: LocalNote, eventId: EventID, sealer: Sealer) throws {
        let row = NoteCoding.RowIds(eventId: eventId, revision: note.revision)
        try keep(db, note, sealed: try sealer.seal(note: note, row: row), row: row)
    }

    /// Keeps a revision already sealed bound to `row` (a feed page seals its notes on every core
    /// first), in the row it was sealed for: the ids written are the ones it is bound to.
    static func keep(_ db: Database, _ note: LocalNote, sealed: Data, row: NoteCoding.RowIds) throws {
        // Cached: a feed page keeps thousands, and parsing this SQL for each was a fifth of the
        // notes feed in the roster-sync profile.
        try db.cachedStatement(
            sql: """
                INSERT INTO note_revisions (event_id, guest_id, id, note_id, door, bound, sealed)
                VALUES (?, ?, ?, ?, ?, 1, ?)
                ON CONFLICT (event_id, guest_id, id) DO UPDATE SET sealed = excluded.sealed, bound = 1
                """
        ).execute(arguments: [
            row.eventId, row.guestId, row.id, row.noteId, note.revision.deviceId != NoteCoding.organizerDevice, sealed,
        ])
    }

    /// Writes a revision and queues it, in one transaction.
    package func write(_ revision: NoteRevision, eventId: EventID, authorName: String, owner: UserID, now: Date) throws
    {
        try queue.write { db in
            try Self.keep(
                db, LocalNote(revision: revision, authorName: authorName, pending: true), eventId: eventId,
                sealer: sealer)
            _ = try enqueue(
                db, kind: .note, eventId: eventId, idempotencyKey: "note:\(revision.id.wire)", request: revision,
                owner: owner, now: now)
        }
    }

    /// One page of the feed and its cursor, in one transaction (a kill loses at most this page).
    package func apply(_ page: NotePage, eventId: EventID) throws {
        let notes = page.notes.map { LocalNote(revision: $0.revision, authorName: $0.authorName, pending: false) }
        let sealer = sealer
        let sealed = try ParallelMap.map(notes, minimumChunk: 256) { note in
            let row = NoteCoding.RowIds(eventId: eventId, revision: note.revision)
            return (row: row, box: try sealer.seal(note: note, row: row))
        }
        try queue.write { db in
            for (note, page) in zip(notes, sealed) { try Self.keep(db, note, sealed: page.box, row: page.row) }
            try db.execute(
                sql: """
                    INSERT INTO notes_cursor (event_id, cursor) VALUES (?, ?)
                    ON CONFLICT (event_id) DO UPDATE SET cursor = excluded.cursor
                    """,
                arguments: [eventId.wire, page.cursor])
        }
    }

    package func cursor(eventId: EventID) throws -> String? {
        try readStatement { db in
            try String.fetchOne(
                db, sql: "SELECT cursor FROM notes_cursor WHERE event_id = ?", arguments: [eventId.wire])
        }
    }

    package func revision(of row: OutboxRow) throws -> NoteRevision {
        try request(of: row, as: NoteRevision.self)
    }

    /// The server's answer to a revision: stored (the author's name as the server has it), or
    /// refused for good (the revision leaves this device; the refused banner names it).
    package func settle(_ db: Database, _ revision: NoteRevision, eventId: EventID, stored: StoredNote?) throws {
        if let stored {
            try Self.keep(
                db, LocalNote(revision: stored.revision, authorName: stored.authorName, pending: false),
                eventId: eventId, sealer: sealer)
        } else {
            let row = NoteCoding.RowIds(eventId: eventId, revision: revision)
            try db.execute(
                sql: "DELETE FROM note_revisions WHERE event_id = ? AND guest_id = ? AND id = ?",
                arguments: [row.eventId, row.guestId, row.id])
        }
    }
}

extension OutboxKind {
    /// A note's revision: `PUT /v1/events/{id}/notes/{revisionId}`.
    package static let note = OutboxKind(rawValue: "note")
}

/// The fields the index migration reads out of a sealed revision, as they were written (frozen:
/// later revisions of ``LocalNote`` must not change what the migration decodes).
private struct FrozenNoteIndex: Decodable {
    struct Revision: Decodable {
        var noteId: String
        var guestId: String?
        var deviceId: String
    }

    var revision: Revision

    /// The revision's ids from either form it may be sealed in: JSON, or the binary layout of
    /// its first version (tag 1; id, noteId, guestId or empty, the replaced ids, body, deviceId).
    init(_ plaintext: Data, json decoder: JSONDecoder) throws {
        guard plaintext.first == 0x01 else {
            self = try decoder.decode(Self.self, from: plaintext)
            return
        }
        revision = try plaintext.withUnsafeBytes { raw in
            var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self), offset: 1)
            _ = try reader.string()
            let noteId = try reader.string()
            let guestId = try reader.string()
            for _ in 0..<(try reader.integer()) { _ = try reader.string() }
            _ = try reader.string()
            return Revision(noteId: noteId, guestId: guestId.isEmpty ? nil : guestId, deviceId: try reader.string())
        }
    }
}
