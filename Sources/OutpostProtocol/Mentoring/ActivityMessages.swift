import Foundation
import OutpostCore

/// What kind of activity a mentor registers.
public enum ActivityType: String, Codable, Sendable, CaseIterable {
    case visit
    case call
    case outing
    case other
}

/// A peer mentor's activity. Its id is made by the device that registers it, so a registration
/// made offline has its id before the server ever hears of it. ``version`` counts the writes the
/// server accepted; every edit and delete names the version it was made on.
public struct Activity: Codable, Sendable, Hashable {
    public var id: ActivityID
    public var contactId: ContactID
    public var mentorId: UserID
    public var type: ActivityType
    /// The day of the activity, `YYYY-MM-DD`.
    public var date: String
    public var durationMinutes: Int
    public var notes: String
    public var version: Int
    public var deleted: Bool
    public var updatedAt: Date

    public init(
        id: ActivityID, contactId: ContactID, mentorId: UserID, type: ActivityType, date: String,
        durationMinutes: Int, notes: String, version: Int, deleted: Bool, updatedAt: Date
    ) {
        self.id = id
        self.contactId = contactId
        self.mentorId = mentorId
        self.type = type
        self.date = date
        self.durationMinutes = durationMinutes
        self.notes = notes
        self.version = version
        self.deleted = deleted
        self.updatedAt = updatedAt
    }

    /// The fields a mentor writes, for comparing two versions.
    public var content: ActivityContent {
        ActivityContent(contactId: contactId, type: type, date: date, durationMinutes: durationMinutes, notes: notes)
    }
}

/// The fields of an activity its author writes.
public struct ActivityContent: Codable, Sendable, Hashable {
    public var contactId: ContactID
    public var type: ActivityType
    public var date: String
    public var durationMinutes: Int
    public var notes: String

    public init(contactId: ContactID, type: ActivityType, date: String, durationMinutes: Int, notes: String) {
        self.contactId = contactId
        self.type = type
        self.date = date
        self.durationMinutes = durationMinutes
        self.notes = notes
    }
}

/// `PUT /v1/activities/{activityId}`: creates the activity (`baseVersion` 0) or replaces the
/// version named. A write on another version is 409 `version_conflict` with the server's
/// current version (``ActivityConflict``); sending the same write again after a lost answer
/// answers the version it made.
public struct ActivityWrite: Codable, Sendable, Hashable {
    public var contactId: ContactID
    public var type: ActivityType
    public var date: String
    public var durationMinutes: Int
    public var notes: String
    public var baseVersion: Int

    public init(content: ActivityContent, baseVersion: Int) {
        contactId = content.contactId
        type = content.type
        date = content.date
        durationMinutes = content.durationMinutes
        notes = content.notes
        self.baseVersion = baseVersion
    }

    public var content: ActivityContent {
        ActivityContent(contactId: contactId, type: type, date: date, durationMinutes: durationMinutes, notes: notes)
    }
}

/// `GET /v1/activities`: a mentor's own activities (an organizer's: the tenant's), newest day
/// first, deleted ones included (so a device learns of deletions); filtered and paged when
/// asked (`mentor`, `contact`, `from`, `to`, `limit`, `after`).
public struct ActivityList: Codable, Sendable, Hashable {
    public var activities: [Activity]
    public var serverTime: Date
    /// With `limit`: the `after` of the next page, absent on the last.
    public var next: String?

    public init(activities: [Activity], serverTime: Date, next: String? = nil) {
        self.activities = activities
        self.serverTime = serverTime
        self.next = next
    }
}

/// The 409 `version_conflict` body: the error plus the server's current version, so the device
/// can show both versions side by side.
public struct ActivityConflict: Codable, Sendable, Hashable {
    public var error: String
    public var message: String
    public var current: Activity

    public init(message: String, current: Activity) {
        error = APIErrorCode.versionConflict.rawValue
        self.message = message
        self.current = current
    }
}
