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
            try await connection.execute(
                """
                INSERT INTO notes (id, tenant_id, event_id, note_id, guest_id, replaces, body, device_id, author_id,
                    author_name, written_at, at, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(revision.id), .id(caller.tenantId), .id(eventId), .id(revision.noteId),
                    revision.guestId.map { .id($0) } ?? .null,
                    .text(revision.replaces.map(\.wire).joined(separator: ",")),
                    .text(revision.body), .text(revision.deviceId), .id(caller.userId), .text(author),
                    .date(revision.writtenAt), .date(now), .int(seq),
                ])
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
