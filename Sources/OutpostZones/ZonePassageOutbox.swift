import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The zone station's entries: each passage `PUT` under its id (stored once). The server's
/// answer may mark it (a violation the station could not see); it is kept all the same.
@MainActor
package struct ZonePassageOutbox: OutboxEntryHandler {
    package let store: ModuleStore<ZonesModule>

    package var kind: OutboxKind { .zonePassage }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "zone passage", many: "zone passages") }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let passage = try store.passage(of: row)
        return TransportRequest(
            API.recordZonePassage.line(eventId, passage.id), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(passage))
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        decodes(response, as: StoredZonePassage.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now)
        try store.answered(db, try store.passage(of: row).id)
        return nil
    }
}
