import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// One note as the door sees it: its current revision, on whom, by whom, and how many versions
/// it has now (two when two devices edited it offline: both are shown until one replaces both).
package struct ShownNote: Sendable, Hashable {
    package var head: LocalNote
    package var guestName: String?
    /// Current versions of this note (heads): more than one is a conflict to resolve by writing.
    package var versions: Int
}

/// The Notes tab: the event's notes (handovers and guests' notes), newest first, and the one
/// being written.
package struct NotesScreen: ScreenModel {
    package var notes: [ShownNote]
    package var state: NotesState
    package var timeZone: String?

    package var identifier: String { UIIdentifier.notesScreen }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.notesScreen, "Notes at the door")]
        for note in notes {
            let revision = note.head.revision
            let on = note.guestName.map { "\($0): " } ?? "Handover: "
            let when = TimeFormatting.time(revision.writtenAt, timeZone)
            elements.append(
                UIElement(
                    UIIdentifier.notesEntry, "\(on)\(revision.body) · \(note.head.authorName) \(when)",
                    [
                        "noteId": revision.noteId.wire, "revisionId": revision.id.wire,
                        "guestId": revision.guestId?.wire ?? "", "versions": String(note.versions),
                        "pending": note.head.pending ? "true" : "false", "body": revision.body,
                        "device": revision.deviceId,
                    ]))
            if note.versions > 1 {
                elements.append(
                    UIElement(
                        UIIdentifier.notesConflict,
                        "\(note.versions) versions of this note were written apart: write one that keeps what matters",
                        ["noteId": revision.noteId.wire]))
            }
        }
        if notes.isEmpty { elements.append(UIElement(UIIdentifier.notesEmpty, "No notes yet.")) }
        elements.append(
            UIElement(
                UIIdentifier.notesInput, state.draft,
                [
                    "guestId": state.guestId?.wire ?? "", "editing": state.editing?.wire ?? "",
                    "label": state.editing == nil ? "New note" : "Edit note",
                ]))
        if let error = state.error { elements.append(UIElement(UIIdentifier.notesError, error, ["kind": "error"])) }
        elements.append(UIElement(UIIdentifier.notesSave, "Save note"))
        return elements
    }
}
