import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// An activity as this device keeps it (sealed): what the mentor wrote last, the version the
/// server last confirmed, and the version the queued writes will have made once they land.
package struct LocalActivity: Codable, Sendable, Hashable {
    package var id: ActivityID
    package var content: ActivityContent
    /// The version the server last confirmed (0: the server has not seen it yet).
    package var version: Int
    /// The version after every queued write lands: the base of the next write. Each accepted
    /// write makes exactly one version, and the outbox sends a user's writes in order.
    package var expectedVersion: Int
    /// Deleted here (its delete may still be queued).
    package var deleted: Bool
    package var updatedAt: Date
    /// The contact's name when the mentor last wrote it (shown if the contact leaves the list).
    package var contactName: String?

    package init(server activity: Activity) {
        id = activity.id
        content = activity.content
        version = activity.version
        expectedVersion = activity.version
        deleted = activity.deleted
        updatedAt = activity.updatedAt
    }

    /// A new activity, its create queued: the server will make it version 1.
    package init(id: ActivityID, content: ActivityContent, contactName: String?, now: Date) {
        self.id = id
        self.content = content
        self.contactName = contactName
        version = 0
        expectedVersion = 1
        deleted = false
        updatedAt = now
    }
}

/// An edit or delete the server refused because its version moved on: both versions, kept
/// until the mentor chooses (sealed). Never dropped silently.
package struct ActivityConflictRecord: Codable, Sendable, Hashable {
    package var activityId: ActivityID
    /// The mentor's latest version (nil when the mentor deleted it).
    package var mine: ActivityContent?
    /// The server's current version.
    package var theirs: Activity
}

/// The request an activity's outbox entry carries, sealed exactly as it will be sent.
package struct ActivityOutboxRequest: Codable, Sendable, Hashable {
    package var activityId: ActivityID
    /// A create or replace (`PUT`), or…
    package var write: ActivityWrite?
    /// …a delete of this version (`DELETE ?baseVersion=`).
    package var deleteBaseVersion: Int?

    /// The entry's Idempotency-Key column: unique per write, and findable by activity.
    package func idempotencyKey(now: Date) -> String {
        let operation = write.map { "put:v\($0.baseVersion)" } ?? "delete:v\(deleteBaseVersion ?? 0)"
        return "\(ActivityOutboxRequest.keyPrefix(activityId))\(operation):\(now.millisecondsSince1970)"
    }

    package static func keyPrefix(_ id: ActivityID) -> String { "activity:\(id.wire):" }
}

extension OutboxKind {
    /// A peer mentor's activity written or deleted: `PUT`/`DELETE /v1/activities/{id}`.
    package static let activity = OutboxKind(rawValue: "activity")
}
