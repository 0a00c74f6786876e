import Foundation
import OutpostCore

/// One tracked session as a day submission carries it.
public struct SubmittedSession: Codable, Sendable, Hashable {
    public var id: UUID
    /// The work location's name when the day was submitted (the locations stay on the device).
    public var location: String
    public var clockIn: Date
    public var clockOut: Date
    /// `geofence_auto` or `manual`.
    public var method: String
    /// Shorter than five minutes (kept, flagged).
    public var short: Bool
    /// The break the worker gave the session (absent: none).
    public var breakMinutes: Int?
    /// The times as tracked (by the geofence or as first entered), when the worker corrected
    /// them; absent when they are as tracked.
    public var asTracked: SessionTimes?
    /// Each correction of the session, oldest first (absent: none).
    public var corrections: [SessionCorrection]?

    public init(
        id: UUID, location: String, clockIn: Date, clockOut: Date, method: String, short: Bool,
        breakMinutes: Int? = nil, asTracked: SessionTimes? = nil, corrections: [SessionCorrection]? = nil
    ) {
        self.id = id
        self.location = location
        self.clockIn = clockIn
        self.clockOut = clockOut
        self.method = method
        self.short = short
        self.breakMinutes = breakMinutes
        self.asTracked = asTracked
        self.corrections = corrections
    }
}

/// A session's start and end.
public struct SessionTimes: Codable, Sendable, Hashable {
    public var clockIn: Date
    public var clockOut: Date

    public init(clockIn: Date, clockOut: Date) {
        self.clockIn = clockIn
        self.clockOut = clockOut
    }
}

/// One correction of a session (seed 003's `UPDATE_TRACKING_START`/`END`, and deleting it):
/// who changed it, when, and its times before and after (no times after: deleted).
public struct SessionCorrection: Codable, Sendable, Hashable {
    public var by: UserID
    public var at: Date
    public var before: SessionTimes
    public var after: SessionTimes?

    public init(by: UserID, at: Date, before: SessionTimes, after: SessionTimes?) {
        self.by = by
        self.at = at
        self.before = before
        self.after = after
    }
}

/// `PUT /v1/tracking/days/{date}`: a worker confirms a day (seed 003, "Submit"). The device
/// makes ``submissionId`` when the worker confirms; the same submission sent again (its answer
/// was lost) answers what it stored; another submission of a day already submitted, or of a
/// day in a week the employer finalised, is refused with 409.
public struct DaySubmissionRequest: Codable, Sendable, Hashable {
    public var submissionId: UUID
    /// The worker's time zone (an IANA name): the day's bounds.
    public var timeZone: String
    public var sessions: [SubmittedSession]
    /// The day's minutes as the worker confirms them (after their corrections).
    public var trackedMinutes: Int
    public var confirmedAt: Date
    /// The day's minutes as tracked, before the worker's corrections; absent when nothing of
    /// the day was corrected.
    public var asTrackedMinutes: Int?
    /// Sessions of the day the worker deleted, with their times as tracked and the deletion.
    public var deletedSessions: [SubmittedSession]?

    public init(
        submissionId: UUID, timeZone: String, sessions: [SubmittedSession], trackedMinutes: Int, confirmedAt: Date,
        asTrackedMinutes: Int? = nil, deletedSessions: [SubmittedSession]? = nil
    ) {
        self.submissionId = submissionId
        self.timeZone = timeZone
        self.sessions = sessions
        self.trackedMinutes = trackedMinutes
        self.confirmedAt = confirmedAt
        self.asTrackedMinutes = asTrackedMinutes
        self.deletedSessions = deletedSessions
    }
}

/// A submitted day as the server keeps it.
public struct DaySubmission: Codable, Sendable, Hashable {
    public var userId: UserID
    public var date: String
    /// The ISO week (`2026-W48`) the day falls in.
    public var week: String
    public var submissionId: UUID
    public var timeZone: String
    public var sessions: [SubmittedSession]
    /// The day's minutes as the worker confirmed them (after their corrections).
    public var trackedMinutes: Int
    public var confirmedAt: Date
    public var submittedAt: Date
    /// The day's minutes as tracked, before the worker's corrections (absent: none).
    public var asTrackedMinutes: Int?
    /// Sessions of the day the worker deleted before submitting it.
    public var deletedSessions: [SubmittedSession]?

    public init(
        userId: UserID, date: String, week: String, submissionId: UUID, timeZone: String,
        sessions: [SubmittedSession], trackedMinutes: Int, confirmedAt: Date, submittedAt: Date,
        asTrackedMinutes: Int? = nil, deletedSessions: [SubmittedSession]? = nil
    ) {
        self.asTrackedMinutes = asTrackedMinutes
        self.deletedSessions = deletedSessions
        self.userId = userId
        self.date = date
        self.week = week
        self.submissionId = submissionId
        self.timeZone = timeZone
        self.sessions = sessions
        self.trackedMinutes = trackedMinutes
        self.confirmedAt = confirmedAt
        self.submittedAt = submittedAt
    }
}

/// `GET /v1/tracking/days` (the caller's own) and `GET /v1/tracking/users/{userId}/days` (an
/// organizer's view of a worker): submitted days, oldest first, and the finalised weeks.
public struct DaySubmissionList: Codable, Sendable, Hashable {
    public var days: [DaySubmission]
    public var finalisedWeeks: [FinalisedWeek]

    public init(days: [DaySubmission], finalisedWeeks: [FinalisedWeek]) {
        self.days = days
        self.finalisedWeeks = finalisedWeeks
    }
}

/// `POST /v1/tracking/users/{userId}/weeks/{week}/finalise`: the employer closes a worker's
/// week; no day of it can be submitted after that.
public struct FinalisedWeek: Codable, Sendable, Hashable {
    public var userId: UserID
    public var week: String
    public var finalisedBy: UserID
    public var finalisedAt: Date

    public init(userId: UserID, week: String, finalisedBy: UserID, finalisedAt: Date) {
        self.userId = userId
        self.week = week
        self.finalisedBy = finalisedBy
        self.finalisedAt = finalisedAt
    }
}

/// The 409 of a day submission: `day_already_submitted` (with the submission that stands) or
/// `week_finalised` (with the week).
public struct DaySubmissionConflict: Codable, Sendable, Hashable {
    public var error: String
    public var message: String
    public var current: DaySubmission?
    public var finalisedWeek: FinalisedWeek?

    public init(code: APIErrorCode, message: String, current: DaySubmission?, finalisedWeek: FinalisedWeek?) {
        error = code.rawValue
        self.message = message
        self.current = current
        self.finalisedWeek = finalisedWeek
    }
}
