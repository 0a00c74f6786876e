import Foundation
import OutpostCore
import OutpostProtocol
import Testing

@testable import OutpostNotes
@testable import OutpostShell

/// A note revision sealed in its binary form reads back exactly; one sealed as JSON by earlier
/// versions still reads; damaged bytes are an error.
@Suite("Note coding")
struct NoteCodingTests {
    static let notes: [LocalNote] = [
        LocalNote(
            revision: NoteRevision(
                id: NoteRevisionID(UUID()), noteId: NoteRevisionID(UUID()), guestId: GuestID(UUID()), replaces: [],
                body: "Wheelchair, escort to row 1 — Åse", deviceId: "door-1",
                writtenAt: Date(timeIntervalSince1970: 1_790_000_000.123_456_7)),
            authorName: "Alex", pending: true),
        LocalNote(
            revision: NoteRevision(
                id: NoteRevisionID(UUID()), noteId: NoteRevisionID(UUID()), guestId: nil,
                replaces: [NoteRevisionID(UUID()), NoteRevisionID(UUID())], body: "", deviceId: "organizer",
                writtenAt: Date(timeIntervalSince1970: 1_790_000_001)),
            authorName: "", pending: false),
        // A note's first revision (the organizer's from the roster): its note's id is its own.
        {
            let id = NoteRevisionID(UUID())
            return LocalNote(
                revision: NoteRevision(
                    id: id, noteId: id, guestId: GuestID(UUID()), replaces: [NoteRevisionID(UUID())],
                    body: "note for Ada", deviceId: "organizer", writtenAt: Date(timeIntervalSince1970: 1_790_000_002)),
                authorName: "Acme Organizer", pending: false)
        }(),
    ]

    /// What the first two binary forms end with, alike: body, device, date, author, pending.
    static func earlierFormsEnd(_ note: LocalNote) -> [UInt8] {
        var bytes: [UInt8] = []
        ByteLayout.append(note.revision.body, to: &bytes)
        ByteLayout.append(note.revision.deviceId, to: &bytes)
        ByteLayout.append(bigEndian: note.revision.writtenAt.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        ByteLayout.append(note.authorName, to: &bytes)
        bytes.append(note.pending ? 1 : 0)
        return bytes
    }

    /// The first binary form (tag 1) as the code of 2026-11-28 wrote it: every id as its text.
    static func textIdsForm(_ note: LocalNote) -> [UInt8] {
        let revision = note.revision
        var bytes: [UInt8] = [1]
        for text in [revision.id.wire, revision.noteId.wire, revision.guestId?.wire ?? ""] {
            ByteLayout.append(text, to: &bytes)
        }
        ByteLayout.append(UInt(revision.replaces.count), to: &bytes)
        for replaced in revision.replaces { ByteLayout.append(replaced.wire, to: &bytes) }
        return bytes + earlierFormsEnd(note)
    }

    /// The second binary form (tag 2) as the code of 2026-11-28 wrote it: every id as its 16
    /// bytes inside the sealed bytes, the note's own id and a note on the event's guest left out.
    static func idsForm(_ note: LocalNote) -> [UInt8] {
        let revision = note.revision
        var bytes: [UInt8] = [2]
        ByteLayout.append(revision.id.uuid, to: &bytes)
        let ownNote = revision.noteId == revision.id
        bytes.append((ownNote ? 0 : 1) | (revision.guestId == nil ? 0 : 2))
        if !ownNote { ByteLayout.append(revision.noteId.uuid, to: &bytes) }
        if let guest = revision.guestId { ByteLayout.append(guest.uuid, to: &bytes) }
        ByteLayout.append(UInt(revision.replaces.count), to: &bytes)
        for replaced in revision.replaces { ByteLayout.append(replaced.uuid, to: &bytes) }
        return bytes + earlierFormsEnd(note)
    }

    static let eventId = EventID(UUID())

    @Test(
        "note-coding-round-trip: binary revisions (no id inside: each is its row's; an organizer's without its device) read back with their row's ids equal to the last bit of their date; the earlier binary forms (ids as 16 bytes, ids as text) and JSON ones still read; every truncation, a trailing byte, an unknown flag and a row id that is no id are refused"
    )
    func roundTrip() throws {
        let decoder = JSONDecoder.outpostDevice
        for note in Self.notes {
            let row = NoteCoding.RowIds(eventId: Self.eventId, revision: note.revision)
            let bytes = NoteCoding.encode(note)
            #expect(bytes.first == NoteCoding.tag)
            #expect(try NoteCoding.decode(Data(bytes), row: row) == note)
            let legacy = try JSONEncoder.outpostDevice.encode(note)
            #expect(try NoteCoding.decodeUnbound(legacy, json: decoder) == note)
            let textIds = Self.textIdsForm(note)
            #expect(try NoteCoding.decodeUnbound(Data(textIds), json: decoder) == note)
            let ids = Self.idsForm(note)
            #expect(try NoteCoding.decodeUnbound(Data(ids), json: decoder) == note)
            // The row's ids are not repeated: the revision's 16 bytes, the guest's and, written
            // by the organizer, its device's 10.
            let saved =
                16 + (note.revision.noteId == note.revision.id ? 0 : 16) + (note.revision.guestId == nil ? 0 : 16)
                + (note.revision.deviceId == "organizer" ? 10 : 0)
            #expect(bytes.count + saved == ids.count, "\(bytes.count) bytes against \(ids.count) with its ids inside")
            var flagged = bytes
            flagged[1] |= 2
            #expect(throws: ByteLayout.Failure.malformed("flags")) { try NoteCoding.decode(Data(flagged), row: row) }
            for length in 0..<bytes.count {
                #expect(throws: (any Error).self, "cut to \(length)") {
                    try NoteCoding.decode(Data(bytes.prefix(length)), row: row)
                }
            }
            #expect(throws: ByteLayout.Failure.malformed("trailing bytes")) {
                try NoteCoding.decode(Data(bytes + [0]), row: row)
            }
            var shortId = row
            shortId.id = row.id.prefix(15)
            #expect(throws: ByteLayout.Failure.malformed("id")) { try NoteCoding.decode(Data(bytes), row: shortId) }
            var textGuest = row
            textGuest.guestId = Data("guest-0".utf8)
            #expect(throws: ByteLayout.Failure.malformed("guestId")) {
                try NoteCoding.decode(Data(bytes), row: textGuest)
            }
        }
    }

    @Test(
        "note-bound-to-row: a sealed revision opens only with the ids of the row it was written to: another event's, guest's, revision's or note's id, no guest, or read as an earlier form, and it does not open; earlier forms open unbound"
    )
    func boundToRow() throws {
        let sealer = Sealer(masterKey: .init(size: .bits256))
        for note in Self.notes {
            let row = NoteCoding.RowIds(eventId: Self.eventId, revision: note.revision)
            let box = try sealer.seal(note: note, row: row)
            #expect(try sealer.openNote(box, row: row, bound: true) == note)
            var moved: [NoteCoding.RowIds] = []
            for keyPath in [\NoteCoding.RowIds.eventId, \.guestId, \.id, \.noteId] {
                var other = row
                other[keyPath: keyPath] = Data(UUID().bytes)
                moved.append(other)
            }
            var onEvent = row
            onEvent.guestId = note.revision.guestId == nil ? Data(UUID().bytes) : Data()
            moved.append(onEvent)
            for other in moved {
                #expect(throws: (any Error).self, "opened with \(other)") {
                    try sealer.openNote(box, row: other, bound: true)
                }
            }
            #expect(throws: (any Error).self) { try sealer.openNote(box, row: row, bound: false) }
            let unbound = try sealer.seal(Data(Self.idsForm(note)))
            #expect(try sealer.openNote(unbound, row: row, bound: false) == note)
            #expect(throws: (any Error).self) { try sealer.openNote(unbound, row: row, bound: true) }
            #expect(try sealer.openNote(try sealer.seal(json: note), row: row, bound: false) == note)
            #expect(box.count < (try sealer.seal(json: note)).count, "smaller than its JSON")
        }
    }
}
