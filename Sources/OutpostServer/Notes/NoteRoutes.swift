import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Notes at the door (seed 000's Notes tab): `PUT /v1/events/{eventId}/notes/{revisionId}`
/// stores a revision once (sent again, the same answer); `GET /v1/events/{eventId}/notes` is the
/// feed of revisions after a cursor. Whoever may work the event reads and writes its notes.
struct NoteRoutes {
    let dependencies: ServerDependencies

    static let maxPage = 1_000

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.writeNote, use: write)
        group.on(API.listNotes, use: list)
    }

    @Sendable func write(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, revisionId) = try API.writeNote.parameters(in: context)
        let revision = try await HTTPHelpers.decode(NoteRevision.self, from: request)
        guard revision.id == revisionId else {
            throw APIError.invalidRequest(
                "The body's id must be the revision id of the path.", status: .unprocessableContent)
        }
        let body = revision.body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty, revision.body.count <= NoteRevision.maxBodyLength else {
            throw APIError.invalidRequest(
                "A note has 1 to \(NoteRevision.maxBodyLength) characters.", status: .unprocessableContent)
        }
        guard IdempotencyKey.accepts(deviceId: revision.deviceId) else {
            throw APIError.invalidRequest("The deviceId must be ASCII without spaces.", status: .unprocessableContent)
        }
        switch try await dependencies.store.writeNote(
            caller: context.caller, eventId: eventId, revision: revision, now: dependencies.clock.now())
        {
        case .written(let note): return try HTTPHelpers.json(note, status: .created)
        case .replayed(let note): return try HTTPHelpers.json(note, status: .created)
        case .idTaken:
            throw APIError(
                .conflict, .versionConflict, "Another revision already has this id; a new one needs its own.")
        case .invalid(let sentence): throw APIError.invalidRequest(sentence, status: .unprocessableContent)
        case .notFound: throw APIError.notFound
        }
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.listNotes.parameters(in: context), context, dependencies)
        let since = request.uri.queryParameters.get("since") ?? ""
        guard let cursor = since.isEmpty ? 0 : Int64(since), cursor >= 0 else {
            throw APIError.invalidRequest("'since' is the cursor of an earlier page.")
        }
        let limitText = request.uri.queryParameters.get("limit") ?? ""
        guard let limit = limitText.isEmpty ? Self.maxPage : Int(limitText), (1...Self.maxPage).contains(limit) else {
            throw APIError.invalidRequest("'limit' is from 1 to \(Self.maxPage).")
        }
        let (notes, last) = try await dependencies.store.notes(eventId: event.id, after: cursor, limit: limit)
        return try HTTPHelpers.json(NotePage(notes: notes, cursor: String(last), hasMore: notes.count == limit))
    }
}
