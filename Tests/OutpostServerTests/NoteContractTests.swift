import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Notes at the door on the server: append-only revisions stored once under their own ids; two
/// devices' offline edits of one note are both kept; the feed pages in the order they were
/// stored; whoever may work the event reads and writes them, nobody else.
@Suite("Notes at the door")
struct NoteContractTests {
    static func note(
        guest: GuestID? = nil, body: String, replaces: [NoteRevision] = [], device: String = "door-1",
        at millis: Int64 = 1_795_000_000_000
    ) -> NoteRevision {
        let id = NoteRevisionID.random()
        return NoteRevision(
            id: id, noteId: replaces.first?.noteId ?? id, guestId: guest, replaces: replaces.map(\.id), body: body,
            deviceId: device, writtenAt: Date(millisecondsSince1970: millis))
    }

    @Test(
        "notes-both-survive: two devices edit one note offline; both revisions are kept (two heads), a third replaces both; sent again, a revision is stored once; the feed is in the order stored, page by page",
        arguments: StoreKind.allCases)
    func bothSurvive(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let alex = api.lab(world.staff1)
            let bea = api.lab(world.staff2)
            let first = Self.note(guest: world.guests[0].id, body: "wheelchair, escort to row 1")
            let stored = try await alex.writeNote(event: event, first)
            #expect(stored.status == 201, "\(String(decoding: stored.body, as: UTF8.self))")
            // Offline on two doors, both edit the first revision.
            let mine = Self.note(body: "wheelchair; escort to row 1, seat 4", replaces: [first], at: 1_795_000_060_000)
            var theirs = Self.note(body: "wheelchair; her son is with her", replaces: [first], device: "door-2")
            theirs.guestId = world.guests[0].id
            var mineOnGuest = mine
            mineOnGuest.guestId = world.guests[0].id
            #expect(try await bea.writeNote(event: event, theirs).status == 201)
            #expect(try await alex.writeNote(event: event, mineOnGuest).status == 201)
            // Sent again (the answer was lost): the same, stored once.
            let again = try await alex.writeNote(event: event, mineOnGuest)
            #expect(again.status == 201)
            // Another revision under a taken id is refused.
            var forged = theirs
            forged.body = "something else"
            #expect(try await alex.writeNote(event: event, forged).status == 409)
            // A handover on the event, and a merge of the two heads.
            let handover = Self.note(body: "Shift 2: the press packs are under the desk")
            #expect(try await bea.writeNote(event: event, handover).status == 201)
            var merged = Self.note(body: "wheelchair, row 1 seat 4; her son is with her", replaces: [mine, theirs])
            merged.guestId = world.guests[0].id
            merged.noteId = first.id
            #expect(try await alex.writeNote(event: event, merged).status == 201)
            let all = try await alex.notes(event: event, limit: 2)
            // The world's guests came with the organizer's notes (the roster's): each is a note.
            let organizers = all.prefix { $0.revision.deviceId == Store.organizerNoteDevice }
            #expect(organizers.count == world.guests.count)
            let notes = Array(all.dropFirst(organizers.count))
            #expect(notes.map(\.revision.id) == [first.id, theirs.id, mine.id, handover.id, merged.id])
            #expect(notes.map(\.authorName) == ["Alex", "Bea", "Alex", "Bea", "Alex"])
            #expect(notes.filter { $0.revision.noteId == first.id }.count == 4, "no revision dropped")
            let heads = NoteHeads.of(notes.map(\.revision))
            #expect(heads.map(\.id).sorted() == [handover.id, merged.id].sorted())
            let withoutMerge = NoteHeads.of(notes.map(\.revision).filter { $0.id != merged.id })
            #expect(Set(withoutMerge.map(\.id)) == [mine.id, theirs.id, handover.id], "two heads before the merge")
        }
    }

    @Test(
        "notes-refusals-and-roles: an empty or too long note, a guest of another event, a replaced revision of another note, a new note whose noteId is not its own are refused; unassigned staff and another tenant get 404",
        arguments: StoreKind.allCases)
    func refusals(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let alex = api.lab(world.staff1)
            #expect(try await alex.writeNote(event: event, Self.note(body: "  ")).status == 422)
            let long = String(repeating: "x", count: NoteRevision.maxBodyLength + 1)
            #expect(try await alex.writeNote(event: event, Self.note(body: long)).status == 422)
            #expect(
                try await alex.writeNote(event: event, Self.note(guest: world.otherGuest.id, body: "x")).status == 422)
            let one = Self.note(body: "one")
            let two = Self.note(body: "two")
            #expect(try await alex.writeNote(event: event, one).status == 201)
            #expect(try await alex.writeNote(event: event, two).status == 201)
            var crossed = Self.note(body: "crossed", replaces: [one])
            crossed.noteId = two.id
            #expect(try await alex.writeNote(event: event, crossed).status == 422)
            var orphan = Self.note(body: "orphan")
            orphan.noteId = one.id
            #expect(try await alex.writeNote(event: event, orphan).status == 422)
            let mismatched = try await alex.request(
                API.writeNote.line(event, NoteRevisionID.random()), json: Self.note(body: "path"))
            #expect(mismatched.status == 422)
            let loner = try await api.createUser(
                world.organizer, email: "loner@acme.test", role: .checkinStaff, name: "Loner")
            #expect(try await api.lab(loner).writeNote(event: event, Self.note(body: "x")).status == 404)
            #expect(try await api.lab(loner).request(API.listNotes.line(event)).status == 404)
            #expect(try await api.lab(world.otherOrganizer).request(API.listNotes.line(event)).status == 404)
            #expect(
                try await api.lab(world.organizer).notes(event: event).filter {
                    $0.revision.deviceId != Store.organizerNoteDevice
                }.map(\.revision.body) == ["one", "two"])
            #expect(try await alex.request(API.listNotes.line(event, query: [("since", "x")])).status == 400)
        }
    }

    @Test(
        "notes-import-first-version: the CSV import's notes column is each guest's first note revision (by the organizer, an empty cell none); a changed note on the guest is a revision replacing that note's heads, a door's edit of it included; the same text again adds none",
        arguments: StoreKind.allCases)
    func importFirstVersion(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 0)
            let event = world.event.id
            let organizer = api.lab(world.organizer)
            let alex = api.lab(world.staff1)
            let type = world.accessType.name
            let result = try await organizer.importGuests(
                event: event,
                csv: """
                    name,email,access_type,notes
                    Dana Press,dana@press.test,\(type),"press: give the media pack"
                    Eli Quiet,eli@quiet.test,\(type),
                    """)
            #expect(result.imported == 2)
            var notes = try await alex.notes(event: event)
            #expect(notes.map(\.revision.body) == ["press: give the media pack"], "an empty cell is no note")
            let first = try #require(notes.first)
            let danaId = try #require(first.revision.guestId)
            let dana = try OutpostJSON.decode(
                GuestInfo.self, from: try await organizer.request(API.showGuest.line(event, danaId)).body)
            #expect(dana.name == "Dana Press" && first.revision.replaces.isEmpty)
            #expect(first.revision.noteId == first.revision.id && first.revision.deviceId == Store.organizerNoteDevice)
            #expect(first.authorName == "Acme Organizer")
            // A door edits the organizer's note; then the organizer changes it on the guest.
            let door = Self.note(
                guest: dana.id, body: "press: media pack given at door 2", replaces: [first.revision])
            #expect(try await alex.writeNote(event: event, door).status == 201)
            _ = try await organizer.updateGuest(
                event, dana.id, UpdateGuestRequest(notes: "press: media pack and lanyard"))
            _ = try await organizer.updateGuest(
                event, dana.id, UpdateGuestRequest(notes: "press: media pack and lanyard"))
            notes = try await alex.notes(event: event)
            #expect(notes.count == 3, "the same text again is no new revision")
            let latest = try #require(notes.last)
            #expect(latest.revision.noteId == first.revision.id)
            #expect(latest.revision.replaces == [door.id], "the organizer's change replaces the door's edit, its head")
            #expect(NoteHeads.of(notes.map(\.revision)).map(\.body) == ["press: media pack and lanyard"])
            // A guest added on the form with notes has one too; the form without notes none.
            _ = try await organizer.createGuest(
                event: event,
                CreateGuestRequest(name: "Fay", email: "fay@acme.test", accessTypeId: world.accessType.id, notes: "VIP")
            )
            #expect(try await alex.notes(event: event).last?.revision.body == "VIP")
        }
    }
}
