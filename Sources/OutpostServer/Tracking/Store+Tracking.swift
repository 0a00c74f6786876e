import Foundation
import OutpostCore
import OutpostProtocol

/// How a day submission ended.
enum DaySubmissionOutcome: Sendable, Equatable {
    case stored(DaySubmission)
    /// The same submission sent again (its answer was lost): what was stored.
    case replayed(DaySubmission)
    /// The day was submitted before, by another submission: the one that stands.
    case alreadySubmitted(DaySubmission)
    /// The employer finalised the day's week.
    case weekFinalised(FinalisedWeek)
    /// The caller's account is gone (deleted while an access token still lived).
    case noAccount
}

extension Store {
    static let daySubmissionColumns =
        """
        user_id, on_date, week, submission_id, time_zone, sessions, tracked_minutes, confirmed_at, submitted_at,
        as_tracked_minutes, deleted_sessions
        """

    static func daySubmission(from row: SQLRow) throws -> DaySubmission {
        DaySubmission(
            userId: try row.id("user_id"), date: try row.text("on_date"), week: try row.text("week"),
            submissionId: try row.uuid("submission_id"), timeZone: try row.text("time_zone"),
            sessions: try OutpostJSON.decode([SubmittedSession].self, from: Data(try row.text("sessions").utf8)),
            trackedMinutes: Int(try row.int("tracked_minutes")), confirmedAt: try row.date("confirmed_at"),
            submittedAt: try row.date("submitted_at"),
            asTrackedMinutes: try row.optionalInt("as_tracked_minutes").map(Int.init),
            deletedSessions: try row.optionalText("deleted_sessions").map {
                try OutpostJSON.decode([SubmittedSession].self, from: Data($0.utf8))
            })
    }

    static func finalisedWeek(from row: SQLRow) throws -> FinalisedWeek {
        FinalisedWeek(
            userId: try row.id("user_id"), week: try row.text("week"), finalisedBy: try row.id("finalised_by"),
            finalisedAt: try row.date("finalised_at"))
    }

    /// Stores the caller's submission of `date`, once: the same submission again answers what
    /// was stored; another one for a submitted day, or any for a finalised week, is refused.
    func submitDay(
        _ date: String, _ body: DaySubmissionRequest, caller: Caller, now: Date
    ) async throws
        -> DaySubmissionOutcome
    {
        guard let week = WorkDay.week(of: date) else { throw APIError.invalidRequest("Not a day.") }
        return try await database.transaction { connection in
            guard
                try await connection.queryOne(
                    "SELECT 1 FROM users WHERE id = ? AND removed_at IS NULL", [.id(caller.userId)]) != nil
            else { return .noAccount }
            if let current = try await Self.submittedDay(connection, of: caller.userId, date) {
                return current.submissionId == body.submissionId ? .replayed(current) : .alreadySubmitted(current)
            }
            if let finalised = try await Self.finalisedWeek(connection, of: caller.userId, week) {
                return .weekFinalised(finalised)
            }
            let sessions = String(decoding: try OutpostJSON.encode(body.sessions), as: UTF8.self)
            let deleted = try body.deletedSessions.map { String(decoding: try OutpostJSON.encode($0), as: UTF8.self) }
            let inserted = try await connection.queryOne(
                """
                INSERT INTO day_submissions (user_id, tenant_id, on_date, week, submission_id, time_zone, sessions,
                    tracked_minutes, confirmed_at, submitted_at, as_tracked_minutes, deleted_sessions)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                RETURNING \(Self.daySubmissionColumns)
                """,
                [
                    .id(caller.userId), .id(caller.tenantId), .text(date), .text(week), .uuid(body.submissionId),
                    .text(body.timeZone), .text(sessions), .int(Int64(body.trackedMinutes)), .date(body.confirmedAt),
                    .date(now), body.asTrackedMinutes.map { .int(Int64($0)) } ?? .null, .optionalText(deleted),
                ])
            if let inserted { return .stored(try Self.daySubmission(from: inserted)) }
            // Another instance stored this day between the read and the insert.
            guard let current = try await Self.submittedDay(connection, of: caller.userId, date) else {
                throw APIError.invalidRequest("The day could not be stored; send it again.", status: .conflict)
            }
            return current.submissionId == body.submissionId ? .replayed(current) : .alreadySubmitted(current)
        }
    }

    /// A user's submitted days (oldest first) and finalised weeks, when the caller may see
    /// them: the user themselves, or an organizer of the user's tenant. Nil otherwise.
    func submittedDays(of userId: UserID, caller: Caller) async throws -> DaySubmissionList? {
        try await database.read { connection in
            guard
                let user = try await connection.queryOne(
                    "SELECT tenant_id FROM users WHERE id = ?", [.id(userId)]),
                try user.id("tenant_id", as: TenantID.self) == caller.tenantId,
                userId == caller.userId || caller.role == .organizer
            else { return nil }
            return try await Self.daySubmissionList(connection, of: userId)
        }
    }

    /// A user's submitted days, oldest first, and finalised weeks (the list route and the
    /// data export read them alike).
    static func daySubmissionList(
        _ connection: any SQLConnection, of userId: UserID
    ) async throws
        -> DaySubmissionList
    {
        let days = try await connection.query(
            "SELECT \(daySubmissionColumns) FROM day_submissions WHERE user_id = ? ORDER BY on_date", [.id(userId)]
        ).map(daySubmission)
        let weeks = try await connection.query(
            "SELECT \(finalisedWeekColumns) FROM finalised_weeks WHERE user_id = ? ORDER BY week",
            [.id(userId)]
        ).map(finalisedWeek)
        return DaySubmissionList(days: days, finalisedWeeks: weeks)
    }

    /// An organizer finalises a week of a worker of their tenant (again: the first stands).
    /// Nil when there is no such worker in the caller's tenant.
    func finaliseWeek(_ week: String, of userId: UserID, caller: Caller, now: Date) async throws -> FinalisedWeek? {
        try await database.transaction { connection in
            guard
                let user = try await connection.queryOne(
                    "SELECT tenant_id FROM users WHERE id = ? AND removed_at IS NULL", [.id(userId)]),
                try user.id("tenant_id", as: TenantID.self) == caller.tenantId
            else { return nil }
            try await connection.execute(
                """
                INSERT INTO finalised_weeks (user_id, tenant_id, week, finalised_by, finalised_at)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """, [.id(userId), .id(caller.tenantId), .text(week), .id(caller.userId), .date(now)])
            return try await Self.finalisedWeek(connection, of: userId, week)
        }
    }

    static func submittedDay(
        _ connection: any SQLConnection, of userId: UserID, _ date: String
    ) async throws
        -> DaySubmission?
    {
        try await connection.queryOne(
            "SELECT \(daySubmissionColumns) FROM day_submissions WHERE user_id = ? AND on_date = ?",
            [.id(userId), .text(date)]
        ).map(daySubmission)
    }

    static let finalisedWeekColumns = "user_id, week, finalised_by, finalised_at"

    static func finalisedWeek(
        _ connection: any SQLConnection, of userId: UserID, _ week: String
    ) async throws
        -> FinalisedWeek?
    {
        try await connection.queryOne(
            "SELECT \(finalisedWeekColumns) FROM finalised_weeks WHERE user_id = ? AND week = ?",
            [.id(userId), .text(week)]
        ).map(finalisedWeek)
    }
}
