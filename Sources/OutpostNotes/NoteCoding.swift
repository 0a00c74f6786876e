import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The plaintext of a sealed note revision: a compact binary layout, tagged `0x03`, sealed bound
/// to the ids its row keeps (``RowIds``) as AES-GCM's authenticated data, so it holds none of them.
///
/// Revisions were sealed as JSON, which was a fifth of a notes feed's time on the device (the
/// encoder) and 300 bytes a revision at rest. Those start with `{` and are still read, as are the
/// two earlier binary forms, which held their ids inside; every write uses the third.
///
/// Layout: `0x03`; a byte of flags (1: written by the organizer, whose device id is not
/// written); the number of revisions replaced, then each id's 16 bytes; the string body; the
/// string deviceId unless flag 1; `writtenAt` as the bit pattern of its seconds since 2001 (eight
/// bytes, big-endian: the date as it was, to the last bit); the string authorName; a pending byte
/// (0 or 1). The revision's, its note's and its guest's ids are the row's: a row whose ids were
/// changed (a note moved onto another guest's card) does not open.
///
/// The second form (`0x02`) began with the revision's id, a byte of flags (1: the note's id
/// follows, 2: the guest's) and those ids, every one in 16 bytes, and always wrote the device id:
/// 42 bytes more than the third for an organizer's note on a guest. The first (`0x01`) wrote the
/// ids as their 36 characters of text, the note's id too when it was the revision's own.
package enum NoteCoding {
    package static let tag: UInt8 = 0x03
    /// The second binary form: ids as 16 bytes, inside the sealed bytes.
    package static let idsTag: UInt8 = 0x02
    /// The first binary form: the same fields, every id as text.
    package static let textIdsTag: UInt8 = 0x01

    package typealias Failure = ByteLayout.Failure

    /// The ids a revision's row keeps beside its sealed bytes, as the store keeps them: the
    /// event's, the guest's (empty for a note on the event), the revision's and its note's.
    package struct RowIds: Hashable, Sendable {
        package var eventId: Data
        package var guestId: Data
        package var id: Data
        package var noteId: Data

        package init(eventId: Data, guestId: Data, id: Data, noteId: Data) {
            (self.eventId, self.guestId, self.id, self.noteId) = (eventId, guestId, id, noteId)
        }

        package init(eventId: EventID, revision: NoteRevision) {
            self.init(
                eventId: eventId.data, guestId: revision.guestId?.data ?? Data(), id: revision.id.data,
                noteId: revision.noteId.data)
        }

        /// The authenticated data a revision is sealed with: the form's tag, then each id's
        /// length and bytes.
        package var context: Data {
            var bytes: [UInt8] = [NoteCoding.tag]
            for part in [eventId, guestId, id, noteId] {
                ByteLayout.append(UInt(part.count), to: &bytes)
                bytes.append(contentsOf: part)
            }
            return Data(bytes)
        }
    }

    /// The device id of the organizer's revisions (the roster's notes, the server's).
    package static let organizerDevice = "organizer"

    private static let byOrganizer: UInt8 = 1
    private static let hasNoteId: UInt8 = 1
    private static let hasGuestId: UInt8 = 2

    package static func encode(_ note: LocalNote) -> [UInt8] {
        let revision = note.revision
        let organizer = revision.deviceId == organizerDevice
        var bytes: [UInt8] = [tag, organizer ? byOrganizer : 0]
        bytes.reserveCapacity(24 + 16 * revision.replaces.count + revision.body.utf8.count + note.authorName.utf8.count)
        ByteLayout.append(UInt(revision.replaces.count), to: &bytes)
        for replaced in revision.replaces { ByteLayout.append(replaced.uuid, to: &bytes) }
        ByteLayout.append(revision.body, to: &bytes)
        if !organizer { ByteLayout.append(revision.deviceId, to: &bytes) }
        ByteLayout.append(bigEndian: revision.writtenAt.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        ByteLayout.append(note.authorName, to: &bytes)
        bytes.append(note.pending ? 1 : 0)
        return bytes
    }

    /// Reads the third form, with the ids of the row it was sealed bound to.
    package static func decode(_ data: Data, row: RowIds) throws -> LocalNote {
        guard let id = UUID(bytes: row.id).map(NoteRevisionID.init) else { throw Failure.malformed("id") }
        guard let noteId = UUID(bytes: row.noteId).map(NoteRevisionID.init) else { throw Failure.malformed("noteId") }
        var guestId: GuestID?
        if !row.guestId.isEmpty {
            guard let guest = UUID(bytes: row.guestId) else { throw Failure.malformed("guestId") }
            guestId = GuestID(guest)
        }
        return try data.withUnsafeBytes { raw in
            var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self))
            guard try reader.byte() == tag else { throw Failure.malformed("tag") }
            let flags = try reader.byte()
            guard flags & ~byOrganizer == 0 else { throw Failure.malformed("flags") }
            let replaces = try replaced(&reader) { try $0.uuid() }
            let body = try reader.string()
            let deviceId = flags & byOrganizer != 0 ? organizerDevice : try reader.string()
            return try rest(
                &reader, id: id, noteId: noteId, guestId: guestId, replaces: replaces, body: body, deviceId: deviceId)
        }
    }

    /// Reads the forms that hold their ids themselves, written before the third: the second
    /// binary form, the first (ids as text), or the JSON of earlier versions.
    package static func decodeUnbound(_ data: Data, json decoder: JSONDecoder) throws -> LocalNote {
        guard let first = data.first, first == idsTag || first == textIdsTag else {
            return try decoder.decode(LocalNote.self, from: data)
        }
        return try data.withUnsafeBytes { raw in
            var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self), offset: 1)
            let id: NoteRevisionID
            let noteId: NoteRevisionID
            var guestId: GuestID?
            let replaces: [NoteRevisionID]
            if first == idsTag {
                id = NoteRevisionID(try reader.uuid())
                let flags = try reader.byte()
                guard flags & ~(hasNoteId | hasGuestId) == 0 else { throw Failure.malformed("flags") }
                noteId = flags & hasNoteId == 0 ? id : NoteRevisionID(try reader.uuid())
                if flags & hasGuestId != 0 { guestId = GuestID(try reader.uuid()) }
                replaces = try replaced(&reader) { try $0.uuid() }
            } else {
                guard let textId = NoteRevisionID(wire: try reader.string()) else { throw Failure.malformed("id") }
                guard let textNote = NoteRevisionID(wire: try reader.string()) else {
                    throw Failure.malformed("noteId")
                }
                (id, noteId) = (textId, textNote)
                let guestText = try reader.string()
                if !guestText.isEmpty {
                    guard let guest = GuestID(wire: guestText) else { throw Failure.malformed("guestId") }
                    guestId = guest
                }
                replaces = try replaced(&reader) { reader in
                    guard let replaced = UUID(wire: try reader.string()) else { throw Failure.malformed("replaces") }
                    return replaced
                }
            }
            let body = try reader.string()
            let deviceId = try reader.string()
            return try rest(
                &reader, id: id, noteId: noteId, guestId: guestId, replaces: replaces, body: body, deviceId: deviceId)
        }
    }

    /// The replaced revisions' ids: their count, then each id as `read` reads it.
    private static func replaced(
        _ reader: inout ByteLayout.Reader, _ read: (inout ByteLayout.Reader) throws -> UUID
    ) throws -> [NoteRevisionID] {
        let count = try reader.integer()
        guard count <= reader.bytes.count else { throw Failure.malformed("replaces") }
        var replaces: [NoteRevisionID] = []
        replaces.reserveCapacity(count)
        for _ in 0..<count { replaces.append(NoteRevisionID(try read(&reader))) }
        return replaces
    }

    /// The fields every binary form ends with (the date, the author, pending), and the note.
    private static func rest(
        _ reader: inout ByteLayout.Reader, id: NoteRevisionID, noteId: NoteRevisionID, guestId: GuestID?,
        replaces: [NoteRevisionID], body: String, deviceId: String
    ) throws -> LocalNote {
        let writtenAt = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.bigEndian64()))
        let authorName = try reader.string()
        let pending = try reader.byte()
        guard pending <= 1 else { throw Failure.malformed("pending") }
        guard reader.isAtEnd else { throw Failure.malformed("trailing bytes") }
        return LocalNote(
            revision: NoteRevision(
                id: id, noteId: noteId, guestId: guestId, replaces: replaces, body: body, deviceId: deviceId,
                writtenAt: writtenAt),
            authorName: authorName, pending: pending == 1)
    }
}

extension Sealer {
    /// Seals a note revision in its compact binary form (``NoteCoding``), bound to the ids of the
    /// row that keeps it.
    package func seal(note: LocalNote, row: NoteCoding.RowIds) throws -> Data {
        try seal(Data(NoteCoding.encode(note)), authenticating: row.context)
    }

    /// Opens a revision's sealed bytes: bound to its row's ids (`bound`), or (written by earlier
    /// versions) a form that holds them itself.
    package func openNote(_ box: Data, row: NoteCoding.RowIds, bound: Bool) throws -> LocalNote {
        bound
            ? try NoteCoding.decode(try open(box, authenticating: row.context), row: row)
            : try NoteCoding.decodeUnbound(try open(box), json: decoder)
    }
}
