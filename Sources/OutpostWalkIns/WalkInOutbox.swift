import Foundation
import GRDB
import OutpostCheckIn
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The walk-in module's entries: `POST /v1/events/{id}/walkins` with the entry's fixed
/// Idempotency-Key. The answer brings the server's code and check-in to the guest's roster row; a
/// final refusal takes the guest off this device's roster (the server has no such guest) and is
/// listed on the refused banner.
@MainActor
package struct WalkInOutbox: OutboxEntryHandler {
    package let store: ModuleStore<WalkInModule>
    /// Check-in's roster rows, written in the replayer's transaction.
    package let desk: (any CheckInDesk)?

    package var kind: OutboxKind { .walkIn }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "walk-in", many: "walk-ins") }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        return TransportRequest(
            API.addWalkIn.line(eventId),
            headers: ["Content-Type": "application/json", "Idempotency-Key": row.idempotencyKey],
            body: try OutpostJSON.encode(try store.walkInRequest(of: row)))
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        decodes(response, as: WalkInResponse.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let request = try store.walkInRequest(of: row)
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now) {
            db in
            guard let desk else { return }
            if refusal != nil {
                try desk.removeGuest(db, eventId: eventId, id: request.guestId)
                try store.forgetWalkIn(db, guestId: request.guestId)
                return
            }
            let answer = try OutpostJSON.decode(WalkInResponse.self, from: response.body)
            guard var guest = try desk.guest(db, eventId: eventId, id: request.guestId) else { return }
            guest.code = answer.walkIn.code
            guest.checkIn = LocalCheckIn(
                at: answer.checkIn.at, byName: answer.checkIn.byName, deviceId: answer.checkIn.deviceId,
                pending: false)
            try desk.write(db, guest: guest)
        }
        return nil
    }
}

/// A lease's seal: `POST /v1/events/{id}/walkin-leases/{leaseId}/seal` (idempotent on the
/// server: the same count answers the same lease).
@MainActor
package struct WalkInSealOutbox: OutboxEntryHandler {
    package let store: ModuleStore<WalkInModule>

    package var kind: OutboxKind { .walkInSeal }
    package var noun: ShellStatus.Noun {
        ShellStatus.Noun(one: "return of walk-in places", many: "returns of walk-in places")
    }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let entry = try store.sealEntry(of: row)
        return TransportRequest(
            API.sealWalkInLease.line(eventId, entry.leaseId), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(WalkInSealRequest(used: entry.used)))
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        // A seal's answer is the sealed lease.
        decodes(response, as: WalkInLease.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now)
        return nil
    }
}
