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

    /// The first binary form (tag 1) as the code of 2026-11-28 wrote it: every id as its text.
    static func textIdsForm(_ note: LocalNote) -> [UInt8] {
        let revision = note.revision
        var bytes: [UInt8] = [1]
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

    @Test(
        "note-coding-round-trip: binary revisions (ids as their 16 bytes, a note's own id not written twice) read back equal to the last bit of their date; the first binary form with ids as text and JSON ones of earlier versions still read; every truncation, a trailing byte and an unknown flag are refused"
    )
    func roundTrip() throws {
        let decoder = JSONDecoder.outpostDevice
        for note in Self.notes {
            let bytes = NoteCoding.encode(note)
            #expect(bytes.first == NoteCoding.tag)
            #expect(try NoteCoding.decode(Data(bytes), json: decoder) == note)
            let legacy = try JSONEncoder.outpostDevice.encode(note)
            #expect(try NoteCoding.decode(legacy, json: decoder) == note)
            let textIds = Self.textIdsForm(note)
            #expect(try NoteCoding.decode(Data(textIds), json: decoder) == note)
            let saved = (note.revision.noteId == note.revision.id ? 70 : 40) + 20 * note.revision.replaces.count
            #expect(
                bytes.count + saved <= textIds.count, "\(bytes.count) bytes against \(textIds.count) with ids as text")
            var flagged = bytes
            flagged[17] |= 4
            #expect(throws: ByteLayout.Failure.malformed("flags")) {
                try NoteCoding.decode(Data(flagged), json: decoder)
            }
            for length in 1..<bytes.count {
                #expect(throws: (any Error).self, "cut to \(length)") {
                    try NoteCoding.decode(Data(bytes.prefix(length)), json: decoder)
                }
            }
            #expect(throws: ByteLayout.Failure.malformed("trailing bytes")) {
                try NoteCoding.decode(Data(bytes + [0]), json: decoder)
            }
        }
        let sealer = Sealer(masterKey: .init(size: .bits256))
        let box = try sealer.seal(note: Self.notes[0])
        #expect(try sealer.openNote(box) == Self.notes[0])
        #expect(try sealer.openNote(try sealer.seal(json: Self.notes[1])) == Self.notes[1])
        #expect(box.count < (try sealer.seal(json: Self.notes[0])).count, "smaller than its JSON")
    }
}
