import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The check-in module's outbox entries: `POST /v1/events/{id}/checkins` with the entry's fixed
/// Idempotency-Key; the answer updates the guest's local check-in state.
@MainActor
package struct CheckInOutbox: OutboxEntryHandler {
    package let store: ModuleStore<CheckInModule>
    /// The requests decoded to be sent, until their answers are stored (the module's).
    package var decoded = DecodedCheckInRequests()
    /// Called when the server says another device checked the guest in first.
    package let onAlreadyCheckedIn: @MainActor (AlreadyCheckedInInfo) -> Void

    package var kind: OutboxKind { .checkIn }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "check-in", many: "check-ins") }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let request = try decoded.take(row) ?? store.checkInRequest(of: row)
        decoded.keep([row], [request])
        return TransportRequest(
            API.checkIn.line(eventId),
            headers: ["Content-Type": "application/json", "Idempotency-Key": row.idempotencyKey],
            body: try OutpostJSON.encode(request))
    }

    /// Consecutive check-ins of one event: `POST /v1/events/{id}/checkins:batch`.
    package func batchRequest(for rows: [OutboxRow]) throws -> TransportRequest? {
        guard rows.count > 1, let eventId = rows.first?.eventId, rows.allSatisfy({ $0.eventId == eventId }) else {
            return nil
        }
        let entries = try rows.map { try store.checkInRequest(of: $0) }
        decoded.keep(rows, entries)
        return TransportRequest(
            API.checkInBatch.line(eventId), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(CheckInBatchRequest(entries: entries)))
    }

    /// The batch's results, checked against the rows' keys, each as the answer it would have
    /// had alone: its status and its `answer`, byte for byte.
    package func batchAnswers(_ response: TransportResponse, for rows: [OutboxRow]) -> [TransportResponse]? {
        // A batch answer that does not split is no answer: each entry is sent alone again.
        guard response.status == 200, let results = try? CheckInBatchAnswer.split(response.body),
            results.count == rows.count,
            zip(rows, results).allSatisfy({ $0.idempotencyKey == $1.idempotencyKey })
        else { return nil }
        return results.map { TransportResponse(status: $0.status, body: $0.body) }
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        decodes(response, as: CheckInResponse.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        guard let eventId = row.eventId else { throw DeviceStoreError.damaged("the entry's event is not an id") }
        let request = try decoded.take(row) ?? store.checkInRequest(of: row)
        var guest = try store.guest(db, eventId: eventId, id: request.guestId)
        var notice: OutboxNotice?
        if refusal != nil {
            // The local check-in this entry made is undone: the server refused it for good.
            if var local = guest, let checkIn = local.checkIn, checkIn.pending, checkIn.deviceId == request.deviceId {
                local.checkIn = nil
                guest = local
            }
        } else {
            let answer = try OutpostJSON.decode(CheckInResponse.self, from: response.body)
            let record = answer.checkIn
            guest?.checkIn = LocalCheckIn(
                at: record.at, byName: record.byName, deviceId: record.deviceId, pending: false)
            if answer.result == .alreadyCheckedIn, record.deviceId != request.deviceId, let guest {
                let info = AlreadyCheckedInInfo(guestName: guest.name, byName: record.byName, at: record.at)
                notice = { [onAlreadyCheckedIn] in onAlreadyCheckedIn(info) }
            }
        }
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now) {
            // Read above in this transaction: only its check-in changed.
            if let guest { try store.updateCheckIn($0, guest) }
        }
        return notice
    }
}
