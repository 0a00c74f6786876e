import Foundation
import OutpostCore
import OutpostProtocol

/// How writing a revision ended.
enum NoteWrite: Sendable, Equatable {
    case written(StoredNote)
    /// The same revision sent again (its answer was lost): as first stored.
    case replayed(StoredNote)
    /// The revision's id is another revision's.
    case idTaken
    /// The guest is not the event's, a replaced revision is unknown or of another note, or a new
    /// note's id is not its revision's: the sentence says which.
    case invalid(String)
    case notFound
}

/// Notes at the door: append-only revisions, each stored once under the id its device made. An
/// edit names the revisions it replaces; concurrent edits are all kept (each a head of its
/// note), so no device's note is ever dropped. The feed is the event's note counter, bumped in
/// each revision's transaction (its row lock orders the feed by commit).
extension Store {
    static let noteColumns =
        "id, note_id, guest_id, replaces, body, device_id, author_id, author_name, written_at, at, seq"

    static func note(from row: SQLRow) throws -> StoredNote {
        let replaces = try row.text("replaces").split(separator: ",").compactMap {
            NoteRevisionID(wire: String($0))
        }
        return StoredNote(
            revision: NoteRevision(
                id: try row.id("id"), noteId: try row.id("note_id"), guestId: try row.optionalID("guest_id"),
                replaces: replaces, body: try row.text("body"), deviceId: try row.text("device_id"),
                writtenAt: try row.date("written_at")),
            authorId: try row.id("author_id"), authorName: try row.text("author_name"), at: try row.date("at"))
    }

    func writeNote(caller: Caller, eventId: EventID, revision: NoteRevision, now: Date) async throws -> NoteWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            if let existing = try await connection.queryOne(
                "SELECT \(Self.noteColumns), event_id, tenant_id FROM notes WHERE id = ?", [.id(revision.id)])
            {
                let stored = try Self.note(from: existing)
                let event = try existing.id("event_id", as: EventID.self)
                let tenant = try existing.id("tenant_id", as: TenantID.self)
                let same = stored.revision == revision && event == eventId && tenant == caller.tenantId
                return same ? .replayed(stored) : .idTaken
            }
            if let problem = try await Self.noteProblem(connection, eventId: eventId, revision: revision) {
                return .invalid(problem)
            }
            guard
                let seq = try await connection.queryOne(
                    "UPDATE events SET note_seq = note_seq + 1 WHERE id = ? RETURNING note_seq", [.id(eventId)]
                )?.int("note_seq")
            else { return .notFound }
            let author =
                try await connection.queryOne("SELECT name FROM users WHERE id = ?", [.id(caller.userId)])?.text("name")
                ?? ""
            try await Self.insertNotes(
                connection, [revision], caller: caller, eventId: eventId, author: author, at: now, firstSeq: seq)
            return .written(StoredNote(revision: revision, authorId: caller.userId, authorName: author, at: now))
        }
    }

    /// Why a revision cannot be stored, in one sentence (nil: it can).
    private static func noteProblem(
        _ connection: any SQLConnection, eventId: EventID, revision: NoteRevision
    ) async throws -> String? {
        if let guest = revision.guestId,
            try await connection.queryOne(
                "SELECT 1 FROM guests WHERE id = ? AND event_id = ?", [.id(guest), .id(eventId)]) == nil
        {
            return "The guest is not one of this event's."
        }
        guard !revision.replaces.isEmpty else {
            return revision.noteId == revision.id ? nil : "A new note's noteId is its own revision's id."
        }
        for replaced in revision.replaces {
            guard
                let row = try await connection.queryOne(
                    "SELECT note_id, guest_id FROM notes WHERE id = ? AND event_id = ?", [.id(replaced), .id(eventId)])
            else { return "A revision it replaces is not this event's." }
            guard try row.id("note_id", as: NoteRevisionID.self) == revision.noteId,
                try row.optionalID("guest_id", as: GuestID.self) == revision.guestId
            else { return "A revision it replaces belongs to another note." }
        }
        return nil
    }

    /// The event's revisions after `cursor` (its note counter), oldest first.
    func notes(eventId: EventID, after cursor: Int64, limit: Int) async throws -> (notes: [StoredNote], last: Int64) {
        try await database.read { connection in
            let rows = try await connection.query(
                "SELECT \(Self.noteColumns) FROM notes WHERE event_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                [.id(eventId), .int(cursor), .int(Int64(limit))])
            return (try rows.map(Self.note(from:)), try rows.last?.int("seq") ?? cursor)
        }
    }
}

/// The organizer's notes on guests (the roster's `notes`: the CSV import's column, the guest
/// form) as notes at the door: the first text is a note's first revision, a changed text a
/// revision replacing that note's heads, so a door's edit of it is kept beside the new text.
extension Store {
    /// The device id the organizer's revisions carry.
    static let organizerNoteDevice = "organizer"

    /// Writes `notes` (guest and text; empty texts skipped) as the organizer's revisions, in the
    /// caller's transaction: one counter bump and one insert for the lot. For `newGuests` (an
    /// import, the guest form) no earlier note is looked up.
    static func writeOrganizerNotes(
        _ connection: any SQLConnection, eventId: EventID, caller: Caller, notes: [(GuestID, String)],
        newGuests: Bool, now: Date
    ) async throws {
        let notes = notes.filter { !$0.1.isEmpty }
        guard !notes.isEmpty else { return }
        guard
            let last = try await connection.queryOne(
                "UPDATE events SET note_seq = note_seq + ? WHERE id = ? RETURNING note_seq",
                [.int(Int64(notes.count)), .id(eventId)]
            )?.int("note_seq")
        else { return }
        let author =
            try await connection.queryOne("SELECT name FROM users WHERE id = ?", [.id(caller.userId)])?.text("name")
            ?? ""
        var revisions: [NoteRevision] = []
        for (guestId, body) in notes {
            let id = NoteRevisionID.random()
            var noteId = id
            var replaces: [NoteRevisionID] = []
            if !newGuests, let heads = try await organizerNoteHeads(connection, eventId: eventId, guestId: guestId) {
                noteId = heads.noteId
                replaces = heads.heads
            }
            revisions.append(
                NoteRevision(
                    id: id, noteId: noteId, guestId: guestId, replaces: replaces,
                    body: String(body.prefix(NoteRevision.maxBodyLength)), deviceId: organizerNoteDevice,
                    writtenAt: now))
        }
        try await insertNotes(
            connection, revisions, caller: caller, eventId: eventId, author: author, at: now,
            firstSeq: last - Int64(notes.count) + 1)
    }

    /// Stores `revisions` by `caller` (named `author`) in one statement, numbered in the event's
    /// feed from `firstSeq`.
    static func insertNotes(
        _ connection: any SQLConnection, _ revisions: [NoteRevision], caller: Caller, eventId: EventID,
        author: String, at now: Date, firstSeq: Int64
    ) async throws {
        var binds: [SQLValue] = []
        for (offset, revision) in revisions.enumerated() {
            binds += [
                .id(revision.id), .id(caller.tenantId), .id(eventId), .id(revision.noteId),
                revision.guestId.map { .id($0) } ?? .null, .text(revision.replaces.map(\.wire).joined(separator: ",")),
                .text(revision.body), .text(revision.deviceId), .id(caller.userId), .text(author),
                .date(revision.writtenAt), .date(now), .int(firstSeq + Int64(offset)),
            ]
        }
        let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: revisions.count)
        try await connection.execute(
            """
            INSERT INTO notes (id, tenant_id, event_id, note_id, guest_id, replaces, body, device_id, author_id,
                author_name, written_at, at, seq)
            VALUES \(rows.joined(separator: ", "))
            """,
            binds)
    }

    /// The guest's organizer note (its first revision came from the roster) and its current heads;
    /// nil when the guest has none.
    private static func organizerNoteHeads(
        _ connection: any SQLConnection, eventId: EventID, guestId: GuestID
    ) async throws -> (noteId: NoteRevisionID, heads: [NoteRevisionID])? {
        guard
            let first = try await connection.queryOne(
                """
                SELECT note_id FROM notes WHERE event_id = ? AND guest_id = ? AND device_id = ? AND replaces = ''
                ORDER BY seq LIMIT 1
                """,
                [.id(eventId), .id(guestId), .text(organizerNoteDevice)])
        else { return nil }
        let noteId = try first.id("note_id", as: NoteRevisionID.self)
        let revisions = try await connection.query(
            "SELECT \(noteColumns) FROM notes WHERE event_id = ? AND note_id = ?", [.id(eventId), .id(noteId)]
        ).map(note(from:)).map(\.revision)
        return (noteId, NoteHeads.of(revisions).map(\.id))
    }
}
