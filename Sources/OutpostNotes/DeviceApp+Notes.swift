import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The notes module's actions, as the front-ends and tests call them (staff actions).
extension DeviceApp {
    package var notesModule: NotesModule? { module(NotesModule.self) }

    /// Opens the Notes screen, writing on `guestId` (nil: a note on the event, a handover).
    public func openNotes(guestId: GuestID? = nil) {
        performAsStaff { notesModule?.open(guestId: guestId) }
    }

    /// Starts editing a note (its current version as the draft).
    public func editNote(_ noteId: NoteRevisionID) {
        performAsStaff { notesModule?.edit(noteId: noteId) }
    }

    /// The note being written.
    public func typeNote(_ text: String) {
        performAsStaff { notesModule?.type(text) }
    }

    /// Saves the note (locally and queued, one transaction), then replays.
    public func saveNote(replayAfter: Bool = true) async {
        var saved = false
        performAsStaff {
            notesModule?.save()
            saved = refusal == nil
        }
        guard saved, replayAfter else { return }
        await replay(force: false)
        commit()
    }

    public func closeNotes() {
        performAsStaff { notesModule?.close() }
    }

    /// A guest's current notes ("body · author"), as check-in's confirmation card shows them.
    public func doorNotes(guestId: GuestID) -> [String] {
        guard let eventId else { return [] }
        return notesModule?.doorNotes(eventId: eventId, guestId: guestId) ?? []
    }
}
