import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The activities module's outbox entries: `PUT /v1/activities/{id}` (create or replace the
/// version it names) and `DELETE /v1/activities/{id}?baseVersion=N`.
///
/// The conflict rule: every write names the version it was made on; the server applies it only
/// on that version. A 409 `version_conflict` (someone changed or deleted the activity
/// meanwhile) keeps both versions as a conflict for the mentor to resolve, and the entry leaves
/// the outbox; nothing is dropped silently. Any other final refusal stays listed as failed while
/// the other entries sync on.
@MainActor
package struct ActivityOutbox: OutboxEntryHandler {
    package let store: ModuleStore<ActivitiesModule>
    /// Called with the activity of each entry the server accepted (the "N activities synced"
    /// notice counts activities, not writes).
    package let onSynced: @MainActor @Sendable (ActivityID) -> Void

    package var kind: OutboxKind { .activity }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "activity", many: "activities") }

    /// The entries of one activity (a visit registered, then corrected offline) are one thing
    /// waiting: the activity named in the key (``ActivityOutboxRequest/keyPrefix(_:)``).
    package var countsBySubject: Bool { true }

    package func subject(ofKey key: String) -> String? {
        let parts = key.split(separator: ":")
        return parts.count > 1 && parts[0] == "activity" ? String(parts[1]) : nil
    }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        let request = try store.request(of: row, as: ActivityOutboxRequest.self)
        if let write = request.write {
            return TransportRequest(
                API.writeActivity.line(request.activityId),
                headers: ["Content-Type": "application/json"], body: try OutpostJSON.encode(write))
        }
        guard let base = request.deleteBaseVersion else {
            throw DeviceStoreError.damaged("an activity entry with no write")
        }
        return TransportRequest(API.deleteActivity.line(request.activityId, query: [("baseVersion", String(base))]))
    }

    package func accepts(_ response: TransportResponse) -> Bool {
        // A deletion answers 204 without a body; anything else is the activity.
        response.status == 204 || decodes(response, as: Activity.self)
    }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        let request = try store.request(of: row, as: ActivityOutboxRequest.self)
        let id = request.activityId
        // A version_conflict without the server's version in it cannot be kept as a conflict: the
        // entry is then kept as refused (below), shown to the mentor, never dropped.
        let conflict =
            refusal == APIErrorCode.versionConflict.rawValue
            ? try? OutpostJSON.decode(ActivityConflict.self, from: response.body) : nil
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now) {
            db in
            let local = try store.activity(db, id)
            if let conflict {
                // Both versions are kept; this entry leaves the outbox (the conflict replaces it).
                try store.putConflict(
                    db,
                    ActivityConflictRecord(
                        activityId: id, mine: local.flatMap { $0.deleted ? nil : $0.content }, theirs: conflict.current),
                    owner: row.owner)
                try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [row.id.rawValue])
                return
            }
            guard refusal == nil else { return }
            // `accepts` has read the answer as an activity; a delete's 204 has none.
            if request.write != nil, let answer = try? OutpostJSON.decode(Activity.self, from: response.body) {
                var updated = local ?? LocalActivity(server: answer)
                updated.version = answer.version
                updated.expectedVersion = max(updated.expectedVersion, answer.version)
                // With later writes still queued the mentor's newest content stays on screen.
                if try !store.hasOtherQueuedWrites(db, id, excluding: row.id) {
                    updated.content = answer.content
                    updated.expectedVersion = answer.version
                }
                updated.updatedAt = answer.updatedAt
                try store.putActivity(db, updated)
            } else if request.deleteBaseVersion != nil {
                try store.removeActivity(db, id)
            }
        }
        guard refusal == nil else { return nil }
        let onSynced = onSynced
        return { @MainActor in onSynced(id) }
    }
}
