import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The notes module's entries: each revision `PUT` under its own id (the server stores it once).
@MainActor
package struct NoteOutbox: OutboxEntryHandler {
    package let store: ModuleStore<NotesModule>

    package var kind: OutboxKind { .note }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "note", many: "notes") }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let revision = try store.revision(of: row)
        return TransportRequest(
            API.writeNote.line(eventId, revision.id), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(revision))
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        decodes(response, as: StoredNote.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let revision = try store.revision(of: row)
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now) {
            db in
            let stored = refusal == nil ? try OutpostJSON.decode(StoredNote.self, from: response.body) : nil
            try store.settle(db, revision, eventId: eventId, stored: stored)
        }
        return nil
    }
}
