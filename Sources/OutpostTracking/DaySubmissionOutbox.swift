import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The time-tracking module's outbox entries: a confirmed day, `PUT /v1/tracking/days/{date}`.
/// The server stores a submission once (the same one sent again answers what it stored); a 409
/// says the day was submitted before or its week is finalised. Every final answer is kept on
/// the day (its status and the server's words) and the entry leaves the outbox: the day and its
/// sessions stay on the device whatever the answer.
@MainActor
package struct DaySubmissionOutbox: OutboxEntryHandler {
    package let store: ModuleStore<TrackingModule>
    /// Called with the day and, when refused, the server's words.
    package let onAnswer: @MainActor (_ day: String, _ code: String?, _ refusal: String?) -> Void

    package var kind: OutboxKind { .daySubmission }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "day", many: "days") }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        let request = try store.request(of: row, as: DaySubmissionOutboxRequest.self)
        return TransportRequest(
            API.submitDay.line(request.day), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(request.body))
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        decodes(response, as: DaySubmission.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        let request = try store.request(of: row, as: DaySubmissionOutboxRequest.self)
        guard let owner = row.owner else { throw DeviceStoreError.damaged("a day submission without its owner") }
        // A refusal without the server's error body keeps the refusal's own sentence.
        let message =
            refusal == nil ? nil : (try? OutpostJSON.decode(ErrorBody.self, from: response.body))?.message ?? refusal
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now) {
            db in
            // An accepted answer without its time still locks the day; the time shows as unknown.
            let answer = refusal == nil ? try? OutpostJSON.decode(DaySubmission.self, from: response.body) : nil
            try store.recordDayAnswer(
                db, day: request.day, submissionId: request.body.submissionId, owner: owner,
                submittedAt: answer?.submittedAt, code: refusal, message: message)
            // The day keeps the answer; the entry has nothing left to do.
            try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [row.id.rawValue])
        }
        return { [onAnswer] in onAnswer(request.day, refusal, message) }
    }
}
