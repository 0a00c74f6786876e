import Foundation
import OutpostCore

/// One version of a note at the door: on a guest ("wheelchair, escort to row 1") or on the event
/// (a shift handover). Notes are append-only: an edit is a new revision that names the one it
/// replaces; two devices' offline revisions are both kept (two heads, both shown until someone
/// writes one that replaces both). The device makes the revision's id: it is the dedupe key.
public struct NoteRevision: Codable, Sendable, Hashable {
    public var id: NoteRevisionID
    /// The note this revision belongs to: the id of its first revision.
    public var noteId: NoteRevisionID
    /// Nil: a note on the event (a shift handover).
    public var guestId: GuestID?
    /// The revisions this one replaces (empty for a new note; two when it merges two heads).
    public var replaces: [NoteRevisionID]
    public var body: String
    public var deviceId: String
    /// The device's clock when it was written.
    public var writtenAt: Date

    public init(
        id: NoteRevisionID, noteId: NoteRevisionID, guestId: GuestID?, replaces: [NoteRevisionID], body: String,
        deviceId: String, writtenAt: Date
    ) {
        self.id = id
        self.noteId = noteId
        self.guestId = guestId
        self.replaces = replaces
        self.body = body
        self.deviceId = deviceId
        self.writtenAt = writtenAt
    }

    /// The longest body a note may have.
    public static let maxBodyLength = 2_000
}

/// A revision as the server keeps it: who wrote it and when it arrived, with its place in the
/// event's feed.
public struct StoredNote: Codable, Sendable, Hashable {
    public var revision: NoteRevision
    public var authorId: UserID
    public var authorName: String
    /// Server time of arrival.
    public var at: Date

    public init(revision: NoteRevision, authorId: UserID, authorName: String, at: Date) {
        self.revision = revision
        self.authorId = authorId
        self.authorName = authorName
        self.at = at
    }
}

/// `GET /v1/events/{eventId}/notes?since=CURSOR`: revisions after a cursor, oldest first.
public struct NotePage: Codable, Sendable, Hashable {
    public var notes: [StoredNote]
    public var cursor: String
    public var hasMore: Bool

    public init(notes: [StoredNote], cursor: String, hasMore: Bool) {
        self.notes = notes
        self.cursor = cursor
        self.hasMore = hasMore
    }
}
