import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The plaintext of a sealed note revision: a compact binary layout, tagged `0x01`.
///
/// Revisions were sealed as JSON, which was a fifth of a notes feed's time on the device (the
/// encoder) and 300 bytes a revision at rest. Those start with `{` and are still read; every
/// write uses this form.
///
/// Layout: `0x01`; the strings id, noteId, guestId (empty for a note on the event); the number
/// of revisions replaced, then each id; the strings body and deviceId; `writtenAt` as the bit
/// pattern of its seconds since 2001 (eight bytes, big-endian: the date as it was, to the last
/// bit); the string authorName; a pending byte (0 or 1).
package enum NoteCoding {
    package static let tag: UInt8 = 0x01

    package typealias Failure = ByteLayout.Failure

    package static func encode(_ note: LocalNote) -> [UInt8] {
        let revision = note.revision
        var bytes: [UInt8] = [tag]
        bytes.reserveCapacity(160 + revision.body.utf8.count)
        for text in [revision.id.wire, revision.noteId.wire, revision.guestId?.wire ?? ""] {
            ByteLayout.append(text, to: &bytes)
        }
        ByteLayout.append(UInt(revision.replaces.count), to: &bytes)
        for replaced in revision.replaces { ByteLayout.append(replaced.wire, to: &bytes) }
        ByteLayout.append(revision.body, to: &bytes)
        ByteLayout.append(revision.deviceId, to: &bytes)
        ByteLayout.append(bigEndian: revision.writtenAt.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        ByteLayout.append(note.authorName, to: &bytes)
        bytes.append(note.pending ? 1 : 0)
        return bytes
    }

    /// Reads either form: the binary layout, or the JSON of earlier versions.
    package static func decode(_ data: Data, json decoder: JSONDecoder) throws -> LocalNote {
        guard data.first == tag else { return try decoder.decode(LocalNote.self, from: data) }
        return try data.withUnsafeBytes { raw in
            var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self), offset: 1)
            guard let id = NoteRevisionID(wire: try reader.string()) else { throw Failure.malformed("id") }
            guard let noteId = NoteRevisionID(wire: try reader.string()) else { throw Failure.malformed("noteId") }
            let guestText = try reader.string()
            var guestId: GuestID?
            if !guestText.isEmpty {
                guard let guest = GuestID(wire: guestText) else { throw Failure.malformed("guestId") }
                guestId = guest
            }
            let count = try reader.integer()
            guard count <= raw.count else { throw Failure.malformed("replaces") }
            var replaces: [NoteRevisionID] = []
            for _ in 0..<count {
                guard let replaced = NoteRevisionID(wire: try reader.string()) else {
                    throw Failure.malformed("replaces")
                }
                replaces.append(replaced)
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
