import Foundation
import OutpostCore
import OutpostProtocol

/// An activity as this device keeps it (sealed): what the mentor wrote last, the version the
/// server last confirmed, and the version the queued writes will have made once they land.
struct LocalActivity: Codable, Sendable, Hashable {
    var id: ActivityID
    var content: ActivityContent
    /// The version the server last confirmed (0: the server has not seen it yet).
    var version: Int
    /// The version after every queued write lands: the base of the next write. Each accepted
    /// write makes exactly one version, and the outbox sends a user's writes in order.
    var expectedVersion: Int
    /// Deleted here (its delete may still be queued).
    var deleted: Bool
    var updatedAt: Date
    /// The contact's name when the mentor last wrote it (shown if the contact leaves the list).
    var contactName: String?

    init(server activity: Activity) {
        id = activity.id
        content = activity.content
        version = activity.version
        expectedVersion = activity.version
        deleted = activity.deleted
        updatedAt = activity.updatedAt
    }

    /// A new activity, its create queued: the server will make it version 1.
    init(id: ActivityID, content: ActivityContent, contactName: String?, now: Date) {
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
struct ActivityConflictRecord: Codable, Sendable, Hashable {
    var activityId: ActivityID
    /// The mentor's latest version (nil when the mentor deleted it).
    var mine: ActivityContent?
    /// The server's current version.
    var theirs: Activity
}

/// The request an activity's outbox entry carries, sealed exactly as it will be sent.
struct ActivityOutboxRequest: Codable, Sendable, Hashable {
    var activityId: ActivityID
    /// A create or replace (`PUT`), or…
    var write: ActivityWrite?
    /// …a delete of this version (`DELETE ?baseVersion=`).
    var deleteBaseVersion: Int?

    /// The entry's Idempotency-Key column: unique per write, and findable by activity.
    func idempotencyKey(now: Date) -> String {
        let operation = write.map { "put:v\($0.baseVersion)" } ?? "delete:v\(deleteBaseVersion ?? 0)"
        return "\(ActivityOutboxRequest.keyPrefix(activityId))\(operation):\(now.millisecondsSince1970)"
    }

    static func keyPrefix(_ id: ActivityID) -> String { "activity:\(id.wire):" }
}

extension OutboxKind {
    /// A peer mentor's activity written or deleted: `PUT`/`DELETE /v1/activities/{id}`.
    static let activity = OutboxKind(rawValue: "activity")
}
