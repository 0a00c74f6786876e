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
    ]

    @Test(
        "note-coding-round-trip: binary revisions read back equal to the last bit of their date; JSON ones of earlier versions still read; every truncation and a trailing byte are refused"
    )
    func roundTrip() throws {
        let decoder = JSONDecoder.outpostDevice
        for note in Self.notes {
            let bytes = NoteCoding.encode(note)
            #expect(bytes.first == NoteCoding.tag)
            #expect(try NoteCoding.decode(Data(bytes), json: decoder) == note)
            let legacy = try JSONEncoder.outpostDevice.encode(note)
            #expect(try NoteCoding.decode(legacy, json: decoder) == note)
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
