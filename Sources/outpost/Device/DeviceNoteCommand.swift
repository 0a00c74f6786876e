import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice

/// `outpost device note ...`: seed 000's Notes tab, headless.
struct DeviceNoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Notes at the door: on a guest or on the event (a shift handover); offline too.",
        subcommands: [NoteListCommand.self, NoteAddCommand.self, NoteEditCommand.self]
    )
}

struct NoteListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "The open event's notes, newest first (a note edited apart on two devices shows both versions).")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.openNotes() }
    }
}

struct NoteAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Write a note on a guest, or on the event without --guest.")

    @OptionGroup var device: DeviceOptions
    @Option(help: "The note.") var body: String
    @Option(help: "The guest's id (omit: a note on the event, a handover).") var guest: GuestID?

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.openNotes(guestId: guest)
            app.typeNote(body)
            await app.saveNote()
        }
    }
}

struct NoteEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Write a new version of a note; it replaces every version shown now (the note's history is kept).")

    @OptionGroup var device: DeviceOptions
    @Argument(help: "The note's id (noteId in `note list --json`).") var note: NoteRevisionID
    @Option(help: "The new text.") var body: String

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.openNotes()
            app.editNote(note)
            guard app.refusal == nil else { return }
            app.typeNote(body)
            await app.saveNote()
        }
    }
}
