import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The plaintext of a sealed note revision: a compact binary layout, tagged `0x02` (`0x01`
/// before its ids were bytes).
///
/// Revisions were sealed as JSON, which was a fifth of a notes feed's time on the device (the
/// encoder) and 300 bytes a revision at rest. Those start with `{` and are still read, as is
/// the first binary form; every write uses the second.
///
/// Layout: `0x02`; the id's 16 bytes; a byte of flags (1: the note's id follows, when it is not
/// the revision's own, as in a note's first revision; 2: the guest's id follows, absent for a
/// note on the event), then those ids' 16 bytes; the number of revisions replaced, then each
/// id's 16 bytes; the strings body and deviceId; `writtenAt` as the bit pattern of its seconds
/// since 2001 (eight bytes, big-endian: the date as it was, to the last bit); the string
/// authorName; a pending byte (0 or 1).
///
/// The first binary form (`0x01`) wrote the ids as their 36 characters of text, each one of
/// them, the note's id too when it was the revision's own: 77 bytes more a revision.
package enum NoteCoding {
    package static let tag: UInt8 = 0x02
    /// The first binary form: the same fields, every id as text.
    package static let textIdsTag: UInt8 = 0x01

    package typealias Failure = ByteLayout.Failure

    private static let hasNoteId: UInt8 = 1
    private static let hasGuestId: UInt8 = 2

    package static func encode(_ note: LocalNote) -> [UInt8] {
        let revision = note.revision
        var bytes: [UInt8] = [tag]
        bytes.reserveCapacity(80 + revision.body.utf8.count)
        ByteLayout.append(revision.id.uuid, to: &bytes)
        let ownNote = revision.noteId == revision.id
        bytes.append((ownNote ? 0 : hasNoteId) | (revision.guestId == nil ? 0 : hasGuestId))
        if !ownNote { ByteLayout.append(revision.noteId.uuid, to: &bytes) }
        if let guest = revision.guestId { ByteLayout.append(guest.uuid, to: &bytes) }
        ByteLayout.append(UInt(revision.replaces.count), to: &bytes)
        for replaced in revision.replaces { ByteLayout.append(replaced.uuid, to: &bytes) }
        ByteLayout.append(revision.body, to: &bytes)
        ByteLayout.append(revision.deviceId, to: &bytes)
        ByteLayout.append(bigEndian: revision.writtenAt.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        ByteLayout.append(note.authorName, to: &bytes)
        bytes.append(note.pending ? 1 : 0)
        return bytes
    }

    /// Reads every form: the binary layout, its first version with ids as text, or the JSON of
    /// earlier versions.
    package static func decode(_ data: Data, json decoder: JSONDecoder) throws -> LocalNote {
        guard let first = data.first, first == tag || first == textIdsTag else {
            return try decoder.decode(LocalNote.self, from: data)
        }
        return try data.withUnsafeBytes { raw in
            var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self), offset: 1)
            let id: NoteRevisionID
            let noteId: NoteRevisionID
            var guestId: GuestID?
            let count: Int
            var replaces: [NoteRevisionID] = []
            if first == tag {
                id = NoteRevisionID(try reader.uuid())
                let flags = try reader.byte()
                guard flags & ~(hasNoteId | hasGuestId) == 0 else { throw Failure.malformed("flags") }
                noteId = flags & hasNoteId == 0 ? id : NoteRevisionID(try reader.uuid())
                if flags & hasGuestId != 0 { guestId = GuestID(try reader.uuid()) }
                count = try reader.integer()
                guard count <= raw.count else { throw Failure.malformed("replaces") }
                for _ in 0..<count { replaces.append(NoteRevisionID(try reader.uuid())) }
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
                count = try reader.integer()
                guard count <= raw.count else { throw Failure.malformed("replaces") }
                for _ in 0..<count {
                    guard let replaced = NoteRevisionID(wire: try reader.string()) else {
                        throw Failure.malformed("replaces")
                    }
                    replaces.append(replaced)
                }
            }
            let body = try reader.string()
            let deviceId = try reader.string()
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
}

extension Sealer {
    /// Seals a note revision in its compact binary form (``NoteCoding``).
    package func seal(note: LocalNote) throws -> Data { try seal(Data(NoteCoding.encode(note))) }

    /// Opens a sealed note revision, binary or (written by earlier versions) JSON.
    package func openNote(_ box: Data) throws -> LocalNote { try NoteCoding.decode(try open(box), json: decoder) }
}
