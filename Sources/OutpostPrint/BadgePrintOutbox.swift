import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The print module's entries: each printed badge `PUT` under its print id (stored once).
@MainActor
package struct BadgePrintOutbox: OutboxEntryHandler {
    package let store: ModuleStore<PrintModule>

    package var kind: OutboxKind { .badgePrint }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "badge print", many: "badge prints") }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let record = try store.printRecord(of: row)
        return TransportRequest(
            API.recordBadgePrint.line(eventId, record.id), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(record))
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        decodes(response, as: StoredBadgePrint.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now)
        return nil
    }
}
