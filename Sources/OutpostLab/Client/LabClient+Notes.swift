import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// The notes calls (seed 000's Notes tab) the lab and the tests make.
extension LabClient {
    /// `PUT …/notes/{revisionId}`; the raw answer.
    package func writeNote(event: EventID, _ revision: NoteRevision) async throws -> TransportResponse {
        try await request(API.writeNote.line(event, revision.id), json: revision)
    }

    /// Every revision of the event, page by page from the start.
    package func notes(event: EventID, limit: Int = 1_000) async throws -> [StoredNote] {
        var all: [StoredNote] = []
        var since: String?
        while true {
            let page = try await call(
                API.listNotes, event, query: [("since", since), ("limit", String(limit))], what: "the notes")
            all += page.notes
            guard page.hasMore else { return all }
            since = page.cursor
        }
    }
}
