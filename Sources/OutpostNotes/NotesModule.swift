import Foundation
import OutpostCheckIn
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The notes module (seed 000's Notes tab): staff write notes on a guest or on the event (a shift
/// handover). Append-only: an edit is a new revision that names the ones it replaces, written
/// locally with its outbox entry in one transaction and synced by the event's notes feed; two
/// devices' offline edits are both kept and both shown until someone writes one replacing both.
/// A guest's notes show on check-in's confirmation card (``GuestNotesSource``). Sealed at rest.
/// Declares check-in (the guests' names).
@MainActor
package final class NotesModule: DeviceModule, GuestNotesSource {
    package static let name = "notes"
    package static let migrations = ModuleStore<NotesModule>.notesMigrations
    /// The event's notes and their cursor go at sign-out, with the roster (unsent revisions are
    /// in the outbox, which sign-out keeps or sends as it does every entry).
    package static let sessionTables = ["note_revisions", "notes_cursor"]

    package let context: ModuleContext
    package let store: ModuleStore<NotesModule>
    package var state = NotesState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<NotesState>()
    private var desk: (any CheckInDesk)? { context.service((any CheckInDesk).self) }
    private var shown: [ShownNote] = []
    private var doorNotesRead = StoreRead<[String]>()

    package init(context: ModuleContext, store: ModuleStore<NotesModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] { [NoteOutbox(store: store)] }

    package func pull(event: EventInfo) async throws {
        while true {
            let line = API.listNotes.line(event.id, query: [("since", try store.cursor(eventId: event.id))])
            let response = try await context.authorized(TransportRequest(line))
            // A page that is not the feed's (a portal's) fails the pull; the cursor stays.
            guard response.status == 200, let page = try? OutpostJSON.decode(NotePage.self, from: response.body) else {
                throw APIClientError.http(status: response.status, code: nil)
            }
            try store.apply(page, eventId: event.id)
            if !page.hasMore { break }
        }
    }

    /// The heads of `all` (revisions of whole notes, ``NoteHeads``), newest first, with how many
    /// versions each note has now.
    static func heads(_ all: [LocalNote]) -> [(head: LocalNote, versions: Int)] {
        let byId = Dictionary(all.map { ($0.revision.id, $0) }) { first, _ in first }
        let heads = NoteHeads.of(all.map(\.revision)).compactMap { byId[$0.id] }
        let versions = Dictionary(grouping: heads, by: \.revision.noteId).mapValues(\.count)
        return heads.reversed().map { ($0, versions[$0.revision.noteId] ?? 1) }
    }

    package func reload() {
        guard state.open, let eventId = context.eventId else {
            shown = []
            return
        }
        // The tab lists the doors' notes, and a guest's own (the organizer's too) when opened on one.
        let revisions = context.surfacing("read the notes") {
            var notes = try store.doorNotes(eventId: eventId)
            if let guest = state.guestId {
                let known = Set(notes.map(\.revision.id))
                notes += try store.notes(eventId: eventId, guestId: guest).filter { !known.contains($0.revision.id) }
            }
            return notes
        }
        shown = Self.heads(revisions ?? []).map { head, versions in
            ShownNote(
                head: head,
                guestName: head.revision.guestId.map { desk?.guest(eventId: eventId, id: $0)?.name ?? "A guest" },
                versions: versions)
        }
    }

    package var tabs: [UIElement] { [UIElement(UIIdentifier.tabNotes, "Notes")] }
    package func takeover(now: Date) -> (any ScreenModel)? { nil }
    package var frontScreen: (any ScreenModel)? {
        state.open ? NotesScreen(notes: shown, state: state, timeZone: context.currentEvent?.timeZone) : nil
    }
    package var eventShellParts: [any ScreenPart] { [] }
    package var statusElements: [UIElement] { [] }
    package func eventChanged() { state = NotesState() }
    package func clearTransient() { state.error = nil }
    package func sessionEnded() { state = NotesState() }
    package func saveState() throws -> Data { try encodedState.data(for: state) }
    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(NotesState.self, from: data)
    }

    /// A guest's current notes for check-in's confirmation card: "body · author", oldest first.
    /// Read again only after a write to the notes' table or for another guest: the card is
    /// rebuilt after every action, and unsealing the guest's notes each time was a third of the
    /// check-in screen's reload.
    package func doorNotes(eventId: EventID, guestId: GuestID) -> [String] {
        context.read(&doorNotesRead, tables: ["note_revisions"], scope: [eventId.wire, guestId.wire]) {
            let current =
                context.surfacing("read the notes") { Self.heads(try store.notes(eventId: eventId, guestId: guestId)) }
                ?? []
            return current.reversed().map {
                "\($0.head.revision.body) · \($0.head.authorName)"
            }
        }
    }

    // MARK: - Actions

    package func open(guestId: GuestID?) {
        state.open = true
        state.guestId = guestId
        state.editing = nil
        state.error = nil
    }

    package func close() { state = NotesState() }

    package func edit(noteId: NoteRevisionID) {
        guard let eventId = context.eventId else { return context.refuse("There is no such note at this event.") }
        // A note on the screen names its guest; one that is not is found by its id.
        let onScreen = shown.first { $0.head.revision.noteId == noteId }
        guard
            let head =
                (context.surfacing("read the notes") {
                    Self.heads(
                        try onScreen.map {
                            try store.notes(eventId: eventId, guestId: $0.head.revision.guestId, noteId: noteId)
                        } ?? store.notes(eventId: eventId, noteId: noteId))
                } ?? []).first
        else { return context.refuse("There is no such note at this event.") }
        state.open = true
        state.editing = noteId
        state.guestId = head.head.revision.guestId
        state.draft = head.head.revision.body
    }

    package func type(_ text: String) {
        state.draft = text
        state.error = nil
    }

    /// Saves the draft: a new note, or a revision replacing every current version of the note
    /// being edited (which also resolves two devices' versions into one).
    package func save() {
        guard let eventId = context.eventId, let session = context.session, let owner = context.userId else { return }
        let body = state.draft.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty, body.count <= NoteRevision.maxBodyLength else {
            state.error =
                body.isEmpty ? "Type the note first." : "A note is at most \(NoteRevision.maxBodyLength) characters."
            return context.refuse(state.error!)
        }
        let id = NoteRevisionID.random()
        var replaces: [NoteRevisionID] = []
        if let noteId = state.editing {
            guard
                let heads = context.surfacing(
                    "read the notes",
                    { Self.heads(try store.notes(eventId: eventId, guestId: state.guestId, noteId: noteId)) })
            else {
                state.error = "The notes could not be read; nothing was saved."
                return context.refuse(state.error!)
            }
            replaces = heads.filter { $0.head.revision.noteId == noteId }.map(\.head.revision.id)
        }
        let now = context.ports.clock.now()
        let revision = NoteRevision(
            id: id, noteId: state.editing ?? id, guestId: state.guestId, replaces: replaces, body: body,
            deviceId: context.deviceId, writtenAt: Date(millisecondsSince1970: now.millisecondsSince1970))
        guard
            context.surfacing(
                "save the note",
                {
                    try store.write(revision, eventId: eventId, authorName: session.user.name, owner: owner, now: now)
                }) != nil
        else {
            state.error = "Could not save the note. Nothing was queued; try again."
            return context.refuse(state.error!)
        }
        state.draft = ""
        state.editing = nil
    }
}
