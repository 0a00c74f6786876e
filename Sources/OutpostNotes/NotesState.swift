import Foundation
import OutpostCore

/// The notes module's UI state, sealed and kept across launches: whether the Notes screen is
/// open, and the note being written (a relaunch keeps what was typed).
package struct NotesState: Codable, Sendable, Equatable {
    package var open = false
    package var draft = ""
    /// The guest the note is on; nil: on the event (a shift handover).
    package var guestId: GuestID?
    /// The note being edited (its id); nil: a new note.
    package var editing: NoteRevisionID?
    package var error: String?

    package init() {}
}
