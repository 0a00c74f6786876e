import Foundation
import GRDB
import OutpostCore
import OutpostProtocol

/// The outbox entry format of schema v1, kept to read old stores (the v2 migration) and to
/// write the committed v1 fixture. Frozen.
package enum LegacyOutboxV1 {
    package struct Payload: Codable, Sendable {
        package var eventId: String
        package var guestId: String
        package var deviceId: String
        package var scannedAtMillis: Int64
        package var method: String
        package var ticket: String?
        package var note: String?

        /// The v2 form of this entry.
        package func migrated() throws -> (eventId: EventID, idempotencyKey: String, request: CheckInRequest) {
            guard let event = EventID(wire: eventId), let guest = GuestID(wire: guestId) else {
                throw DeviceStoreError.damaged("a v1 outbox entry names an event or guest that is not an id")
            }
            let request = CheckInRequest(
                guestId: guest, deviceId: deviceId, scannedAt: Date(millisecondsSince1970: scannedAtMillis),
                method: CheckInMethod(rawValue: method) ?? .qr, ticket: ticket, note: note)
            let key = IdempotencyKey(deviceId: deviceId, guestId: guest.uuid, scannedAtMillis: scannedAtMillis)
            return (event, key.description, request)
        }
    }

    /// Appends an entry the way v1 code did.
    package static func append(_ payload: Payload, db: Database, sealer: Sealer) throws {
        try db.execute(sql: "INSERT INTO outbox (payload) VALUES (?)", arguments: [try sealer.seal(json: payload)])
    }
}
