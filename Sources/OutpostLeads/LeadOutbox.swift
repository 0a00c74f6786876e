import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The lead station's entries: `PUT /v1/booths/{boothId}/leads/{leadId}` over the version the
/// write was made on. A 409 keeps both sides as a conflict for the exhibitor (the entry leaves
/// the outbox, the conflict is their pending work); any other final refusal stays listed.
@MainActor
package struct LeadOutbox: OutboxEntryHandler {
    package let store: ModuleStore<LeadsModule>

    package var kind: OutboxKind { .lead }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "lead", many: "leads") }

    /// The entries of one lead (captured, then rated offline) are one thing waiting: the lead
    /// named in the key (`lead:<id>:<base version>`).
    package var countsBySubject: Bool { true }

    package func subject(ofKey key: String) -> String? {
        let parts = key.split(separator: ":")
        return parts.count == 3 && parts[0] == "lead" ? String(parts[1]) : nil
    }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        let request = try store.request(of: row)
        return TransportRequest(
            API.writeLead.line(request.boothId, request.leadId), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(request.write))
    }

    package func accepts(_ response: TransportResponse) -> Bool { decodes(response, as: Lead.self) }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        let request = try store.request(of: row)
        // A version_conflict without the server's lead in it cannot be kept as a conflict: the
        // entry is then kept as refused (below), shown, never dropped.
        let conflict =
            refusal == APIErrorCode.versionConflict.rawValue
            ? try? OutpostJSON.decode(LeadConflict.self, from: response.body) : nil
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now) {
            db in
            let local = try store.lead(db, request.leadId)
            if let conflict {
                try store.putConflict(
                    db,
                    LeadConflictRecord(
                        leadId: request.leadId, mine: local?.content ?? request.write.content, theirs: conflict.current),
                    owner: row.owner)
                try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [row.id.rawValue])
                return
            }
            // `accepts` has read the answer as a lead.
            guard refusal == nil, let answer = try? OutpostJSON.decode(Lead.self, from: response.body) else { return }
            var updated = local ?? LocalLead(server: answer)
            updated.version = answer.version
            updated.contact = answer.contact
            updated.capturedBy = answer.capturedBy
            // With later writes still queued the exhibitor's newest content stays on screen.
            if try !store.hasOtherQueuedWrites(db, request.leadId, excluding: row.id) {
                updated.content = answer.content
                updated.expectedVersion = answer.version
            }
            try store.put(db, updated)
        }
        return nil
    }
}
