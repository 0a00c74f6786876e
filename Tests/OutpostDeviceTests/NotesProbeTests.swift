import Foundation
import GRDB
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostShell

/// The Notes tab (seed 000) on real devices against a real server: notes written offline on two
/// devices both survive and both show until one replaces them; a guest's notes are on the
/// confirmation card; nothing of a note is readable in the store's files.
@Suite("Notes probes (seed 000)")
struct NotesProbeTests {
    /// The notes written at the doors (the world's guests also carry the organizer's notes from
    /// the roster, each a note of its own).
    @MainActor
    static func entries(_ app: DeviceApp) -> [UIElement] {
        app.tree().elements(UIIdentifier.notesEntry).filter { $0.attributes["device"] != "organizer" }
    }

    @Test(
        "notes-both-survive-offline: a guest's note edited on two devices offline keeps both versions, shown on both devices in order of writing, until one edit replaces both; the confirmation card shows the note; sealed at rest"
    )
    func bothSurvive() async throws {
        try await DeviceLab.run { lab in
            let guest = lab.world.guests[0]
            let alex = try await lab.readyDevice("alex")
            let bea = try await lab.readyDevice("bea", email: "bea@acme.test")
            #expect(alex.tree().contains(UIIdentifier.tabNotes))
            alex.openNotes(guestId: guest.id)
            alex.typeNote("wheelchair, escort to row 1")
            await alex.saveNote()
            #expect(alex.tree().refusal == nil)
            let noteId = try #require(
                Self.entries(alex).first?.attributes["noteId"].flatMap(NoteRevisionID.init(wire:)))
            await bea.sync()
            // Both doors lose the network and edit the same note.
            for app in [alex, bea] { app.update { $0.online = false } }
            alex.editNote(noteId)
            alex.typeNote("wheelchair, row 1 seat 4")
            await alex.saveNote()
            bea.openNotes()
            bea.editNote(noteId)
            bea.typeNote("wheelchair; her son is with her")
            await bea.saveNote()
            #expect(alex.pendingCount == 1 && bea.pendingCount == 1)
            for app in [alex, bea] { app.update { $0.online = true } }
            await alex.sync()
            await bea.sync()
            await alex.sync()
            for app in [alex, bea] {
                let shown = Self.entries(app).map { $0.attributes["body"] ?? "" }
                #expect(
                    Set(shown) == ["wheelchair, row 1 seat 4", "wheelchair; her son is with her"],
                    "both versions survive: \(shown)")
                #expect(Self.entries(app).allSatisfy { $0.attributes["versions"] == "2" })
                #expect(app.tree().contains(UIIdentifier.notesConflict))
            }
            #expect(
                Self.entries(alex).map { $0.attributes["body"] ?? "" }.first == "wheelchair; her son is with her",
                "newest first")
            // The card at the door shows both.
            alex.closeNotes()
            alex.choose(guestId: guest.id)
            let card = alex.tree().elements(UIIdentifier.doorNote).map(\.text)
            #expect(
                card == [
                    "note for \(guest.name) · Acme Organizer", "wheelchair, row 1 seat 4 · Alex",
                    "wheelchair; her son is with her · Bea",
                ], "the organizer's note from the roster first: \(card)")
            alex.cancel()
            // One edit replaces both; every device sees one version.
            alex.editNote(noteId)
            alex.typeNote("wheelchair, row 1 seat 4; her son is with her")
            await alex.saveNote()
            await bea.sync()
            for app in [alex, bea] {
                #expect(
                    Self.entries(app).map { $0.attributes["body"] ?? "" } == [
                        "wheelchair, row 1 seat 4; her son is with her"
                    ])
                #expect(!app.tree().contains(UIIdentifier.notesConflict))
            }
            let stored = try await lab.api.lab(lab.world.organizer).notes(event: lab.world.event.id)
            #expect(
                stored.filter { $0.revision.deviceId != "organizer" }.count == 4, "every revision kept on the server")
            // Nothing of the notes is readable in either device's files.
            for name in ["alex", "bea"] {
                let files = try DeviceFiles.readAll(lab.home(name))
                #expect(!DeviceFiles.contains(files, "her son is with her"), "\(name)")
                #expect(!DeviceFiles.contains(files, "escort to row 1"), "\(name)")
            }
        }
    }

    @Test(
        "notes-card-read-after-write: the confirmation card reads a guest's notes again only after a note was written or for another guest, and shows a note written since"
    )
    @MainActor
    func cardReadAfterWrite() async throws {
        try await DeviceLab.run { lab in
            let (guest, other) = (lab.world.guests[0], lab.world.guests[1])
            let alex = try await lab.readyDevice("alex")
            alex.update { $0.online = false }
            let statements = ShellModuleTests.traceStatements(alex)
            func notesRead() -> Bool {
                defer { statements.value = [] }
                return statements.value.contains { $0.contains("FROM note_revisions") }
            }
            @MainActor func card() -> [String] { alex.tree().elements(UIIdentifier.doorNote).map(\.text) }
            alex.choose(guestId: guest.id)
            #expect(card() == ["note for \(guest.name) · Acme Organizer"])
            _ = notesRead()
            alex.cancel()
            alex.choose(guestId: guest.id)
            #expect(!notesRead(), "the same guest, nothing written: the notes are not read again")
            #expect(card() == ["note for \(guest.name) · Acme Organizer"])
            alex.cancel()
            alex.choose(guestId: other.id)
            #expect(notesRead(), "another guest")
            alex.cancel()
            alex.choose(guestId: guest.id)
            #expect(notesRead(), "the first guest again after another")
            alex.cancel()
            // The last card read was this guest's: only the write can make it read again.
            alex.openNotes(guestId: guest.id)
            alex.typeNote("escort to row 1")
            await alex.saveNote()
            alex.closeNotes()
            _ = notesRead()
            alex.choose(guestId: guest.id)
            #expect(card() == ["note for \(guest.name) · Acme Organizer", "escort to row 1 · Alex"])
        }
    }

    @Test(
        "notes-handover: a note on the event (a shift handover) syncs to the next shift's device; an empty note is refused"
    )
    func handover() async throws {
        try await DeviceLab.run { lab in
            let alex = try await lab.readyDevice("alex")
            alex.openNotes()
            alex.typeNote("   ")
            await alex.saveNote()
            #expect(alex.tree().refusal == "Type the note first.")
            alex.typeNote("Shift 2: the press packs are under the desk")
            await alex.saveNote()
            let bea = try await lab.readyDevice("bea", email: "bea@acme.test")
            bea.openNotes()
            #expect(
                Self.entries(bea).map(\.text).first?.hasPrefix(
                    "Handover: Shift 2: the press packs are under the desk · Alex")
                    == true, "\(Self.entries(bea).map(\.text))")
        }
    }

    @Test(
        "notes-kiosk-staff-view: an attendee with notes checks in at the kiosk: the attendee screen shows a count for staff, never a name or a note; on exit the staff view lists the guest with the notes (the organizer's from the roster and a door's) until staff clear it; a guest without notes is not listed"
    )
    func kioskStaffView() async throws {
        try await DeviceLab.run { lab in
            let guest = lab.world.guests[0]
            let plain = try await lab.api.lab(lab.world.organizer).createGuest(
                event: lab.world.event.id,
                CreateGuestRequest(name: "Nia Plain", email: "nia@acme.test", accessTypeId: lab.world.accessType.id))
            let door = try await lab.readyDevice("door")
            door.openNotes(guestId: guest.id)
            door.typeNote("wheelchair, escort to row 1")
            await door.saveNote()
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let kiosk = try await KioskProbeTests.kioskDevice(lab, "kiosk", clock: clock)
            await kiosk.kioskCheckIn(email: plain.email)
            #expect(kiosk.tree().screen == UIIdentifier.kioskConfirmation)
            #expect(!kiosk.tree().contains(UIIdentifier.kioskStaffNotesWaiting), "no notes, nothing for staff")
            clock.advance(by: 6)
            await kiosk.kioskCheckIn(email: guest.email)
            let attendee = kiosk.tree()
            #expect(attendee.screen == UIIdentifier.kioskConfirmation)
            let shown = attendee.elements.map { $0.text + " " + $0.attributes.values.joined(separator: " ") }
            #expect(!shown.contains { $0.contains("wheelchair") || $0.contains("note for") }, "\(shown)")
            #expect(attendee.element(UIIdentifier.kioskStaffNotesWaiting)?.attributes["count"] == "1")
            #expect(attendee.element(UIIdentifier.kioskStaffNotesWaiting)?.text.contains(guest.name) == false)
            for _ in 0..<3 { kiosk.tapCorner() }
            kiosk.exitKiosk(passcode: KioskProbeTests.passcode)
            #expect(!kiosk.isKioskActive)
            let listed = kiosk.tree().elements(UIIdentifier.kioskStaffNote)
            #expect(listed.map { $0.attributes["guestId"] } == [guest.id.wire], "only the guest with notes")
            let text = try #require(listed.first?.text)
            #expect(text.hasPrefix("\(guest.name) checked in at the kiosk at "))
            #expect(text.contains("note for \(guest.name) · Acme Organizer"), "\(text)")
            #expect(text.contains("wheelchair, escort to row 1 · Alex"), "\(text)")
            // A relaunch keeps the list (it is the kiosk's sealed state); staff clear it when seen.
            let relaunched = try lab.launch("kiosk", clock: clock.wallClock, monotonic: clock.monotonicClock)
            #expect(relaunched.tree().elements(UIIdentifier.kioskStaffNote).count == 1)
            relaunched.clearKioskStaffNotes()
            #expect(!relaunched.tree().contains(UIIdentifier.kioskStaffNote))
            #expect(!relaunched.tree().contains(UIIdentifier.kioskStaffNotesClear))
        }
    }

    @Test(
        "notes-organizer-on-card-not-tab: the organizer's notes (one per imported guest) are on each guest's card, not in the Notes tab, until a door edits one; opened on a guest, the tab shows that guest's; a store from before the notes' guest index (ids as text) is indexed and keyed again at launch and its cards still show every note"
    )
    func organizerNotesAndIndex() async throws {
        try await DeviceLab.run { lab in
            let guest = lab.world.guests[1]
            let app = try await lab.readyDevice("door")
            app.openNotes()
            #expect(app.tree().elements(UIIdentifier.notesEntry).isEmpty, "no organizer note floods the tab")
            app.closeNotes()
            app.openNotes(guestId: guest.id)
            #expect(
                app.tree().elements(UIIdentifier.notesEntry).map { $0.attributes["body"] } == ["note for \(guest.name)"]
            )
            app.typeNote("wheelchair, escort to row 1")
            await app.saveNote()
            app.closeNotes()
            // A store written before the index: the table as it was (ids as text, no guest, note
            // or door), each revision sealed in the first binary form, and the later migrations'
            // records gone.
            let sealer = try #require(app.notesModule?.store.sealer)
            let revisions = try #require(try app.notesModule?.store.notes(eventId: lab.world.event.id))
            let queue = try DatabaseQueue(path: lab.home("door").appendingPathComponent("device.sqlite").path)
            try await queue.write { db in
                try db.execute(
                    sql: """
                        DROP TABLE note_revisions;
                        CREATE TABLE note_revisions (id TEXT PRIMARY KEY, event_id TEXT NOT NULL, sealed BLOB NOT NULL);
                        DELETE FROM grdb_migrations WHERE identifier IN (
                            'notes: guest and note index', 'notes: revisions keyed by guest, ids as bytes',
                            'notes: no note index', 'notes: revisions bound to their row');
                        """)
                for note in revisions {
                    try db.execute(
                        sql: "INSERT INTO note_revisions (id, event_id, sealed) VALUES (?, ?, ?)",
                        arguments: [
                            note.revision.id.wire, lab.world.event.id.wire,
                            try sealer.seal(Data(NoteCodingTests.textIdsForm(note))),
                        ])
                }
            }
            try await queue.close()
            let relaunched = try lab.launch("door")
            relaunched.choose(guestId: guest.id)
            #expect(
                relaunched.tree().elements(UIIdentifier.doorNote).map(\.text) == [
                    "note for \(guest.name) · Acme Organizer", "wheelchair, escort to row 1 · Alex",
                ])
            relaunched.cancel()
            relaunched.openNotes()
            #expect(
                Self.entries(relaunched).map { $0.attributes["body"] } == ["wheelchair, escort to row 1"],
                "the door's note in the tab, the organizer's untouched ones not")
            // Keyed by event, guest and id, each id in its 16 bytes; no index of the key beside it.
            let (ids, indexes, table) = try await relaunched.store.queue.read { db in
                (
                    try Row.fetchAll(
                        db, sql: "SELECT DISTINCT typeof(id), length(id), length(event_id) FROM note_revisions"
                    ).map { "\($0[0] as String) \($0[1] as Int) \($0[2] as Int)" },
                    try String.fetchAll(
                        db,
                        sql:
                            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'note_revisions' ORDER BY name"
                    ),
                    try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'note_revisions'")
                )
            }
            #expect(ids == ["blob 16 16"])
            #expect(indexes == ["note_revisions_door"], "no index by note: a note is read through its guest")
            #expect(table?.hasSuffix("WITHOUT ROWID") == true)
        }
    }

    @Test(
        "note-bound-to-row: an organizer's note moved in the store's file onto another guest's card (its row's guest id changed) is not shown there: the card's read is refused and named, and the row moved back shows the note again, nothing lost"
    )
    func boundToRow() async throws {
        try await DeviceLab.run { lab in
            let (ada, bo) = (lab.world.guests[0], lab.world.guests[1])
            let app = try await lab.readyDevice("door")
            @MainActor func card(_ guest: GuestID) -> [String] {
                app.choose(guestId: guest)
                defer { app.cancel() }
                return app.tree().elements(UIIdentifier.doorNote).map(\.text)
            }
            #expect(card(ada.id) == ["note for \(ada.name) · Acme Organizer"])
            let queue = try DatabaseQueue(path: lab.home("door").appendingPathComponent("device.sqlite").path)
            let moved = try await queue.read { db in
                try Data.fetchAll(
                    db, sql: "SELECT id FROM note_revisions WHERE guest_id = ? AND door = 0", arguments: [ada.id.data])
            }
            #expect(!moved.isEmpty)
            @Sendable func move(from: GuestID, to: GuestID) throws {
                try queue.write { db in
                    for id in moved {
                        try db.execute(
                            sql: "UPDATE note_revisions SET guest_id = ? WHERE guest_id = ? AND id = ?",
                            arguments: [to.data, from.data, id])
                        #expect(db.changesCount == 1)
                    }
                }
            }
            try move(from: ada.id, to: bo.id)
            #expect(card(bo.id).isEmpty, "neither note on Bo's card: the moved row does not open")
            #expect(app.faults.all.map(\.what).contains("read the notes"), "the refused read is named")
            #expect(throws: (any Error).self) {
                try app.notesModule?.store.notes(eventId: lab.world.event.id, guestId: bo.id)
            }
            try move(from: bo.id, to: ada.id)
            #expect(
                try app.notesModule?.store.notes(eventId: lab.world.event.id, guestId: ada.id).map(\.revision.body)
                    == ["note for \(ada.name)"], "moved back, it reads again")
            #expect(card(bo.id) == ["note for \(bo.name) · Acme Organizer"])
            try queue.close()
        }
    }
}
