import Foundation
import GRDB
import OutpostCore
import OutpostProtocol

/// The outbox entry format of schema v1, kept to read old stores (the v2 migration) and to
/// write the committed v1 fixture. Frozen.
enum LegacyOutboxV1 {
    struct Payload: Codable, Sendable {
        var eventId: String
        var guestId: String
        var deviceId: String
        var scannedAtMillis: Int64
        var method: String
        var ticket: String?
        var note: String?

        /// The v2 form of this entry.
        func migrated() throws -> (eventId: EventID, idempotencyKey: String, request: CheckInRequest) {
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
    static func append(_ payload: Payload, db: Database, sealer: Sealer) throws {
        try db.execute(sql: "INSERT INTO outbox (payload) VALUES (?)", arguments: [try sealer.seal(json: payload)])
    }
}
