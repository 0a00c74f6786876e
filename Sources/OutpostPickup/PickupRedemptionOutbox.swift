import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The pickup station's handings-out: each `PUT` under its id (stored once). The server's answer
/// may flag it (an over-redemption the station could not see); it is kept all the same.
@MainActor
package struct PickupRedemptionOutbox: OutboxEntryHandler {
    package let store: ModuleStore<PickupModule>

    package var kind: OutboxKind { .pickupRedemption }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "pickup", many: "pickups") }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let redemption = try store.redemption(of: row)
        return TransportRequest(
            API.recordPickup.line(eventId, redemption.id), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(redemption))
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        decodes(response, as: StoredPickupRedemption.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now)
        try store.answered(db, try store.redemption(of: row).id)
        return nil
    }
}
