import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// A day the worker confirmed ("Submit", seed 003): locked on the device, its submission queued
/// in the outbox, then answered by the server.
public struct ConfirmedDay: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable, Hashable {
        /// Waiting in the outbox.
        case queued
        /// The server stored it.
        case submitted
        /// The server refused it; ``message`` says why.
        case refused
    }

    public var day: String
    public var timeZone: String
    public var submissionId: UUID
    public var confirmedAt: Date
    public var status: Status
    public var code: String?
    public var message: String?
    public var submittedAt: Date?

    /// Refusals that submitting again cannot change: the day stands as the server has it.
    package static let settledCodes: Set<String> = [
        APIErrorCode.dayAlreadySubmitted.rawValue, APIErrorCode.weekFinalised.rawValue,
    ]

    /// True while the day is locked: confirmed, and not refused for a reason a new submission
    /// could mend (a clock that was wrong, say).
    public var locked: Bool { status != .refused || code.map(Self.settledCodes.contains) ?? false }

    /// Where the day stands, the one answer every view gives (a day another
    /// phone had submitted read "not submitted" in the history and "confirmed ✓" in the week).
    public enum Standing: String, Sendable, Hashable {
        /// Confirmed here, waiting in the outbox.
        case waiting = "queued"
        /// The server stored this phone's submission.
        case submitted
        /// The server already had the day from another of the worker's phones: it stands there.
        case submittedElsewhere = "submitted_elsewhere"
        /// The employer finalised the week before the day arrived: it is not at the employer.
        case weekClosed = "week_closed"
        /// Refused for a reason a new submission can mend.
        case retry
    }

    public var standing: Standing {
        switch (status, code) {
        case (.queued, _): .waiting
        case (.submitted, _): .submitted
        case (.refused, APIErrorCode.dayAlreadySubmitted.rawValue?): .submittedElsewhere
        case (.refused, APIErrorCode.weekFinalised.rawValue?): .weekClosed
        case (.refused, _): .retry
        }
    }

    /// Whether the week, the month, the dashboard and the history show the day with ✓: its hours
    /// are at the employer, or on their way there.
    public var countsAsConfirmed: Bool { [.waiting, .submitted, .submittedElsewhere].contains(standing) }
}

/// A day submission as the outbox keeps it: the day and the body sent for it.
package struct DaySubmissionOutboxRequest: Codable, Sendable, Hashable {
    package var day: String
    package var body: DaySubmissionRequest
}

extension OutboxKind {
    /// A confirmed day: `PUT /v1/tracking/days/{date}`.
    package static let daySubmission = OutboxKind(rawValue: "day_submission")
}

extension ModuleStore where Owner == TrackingModule {
    package static var dayColumns: String {
        "day, time_zone, submission_id, confirmed_at, status, code, message, submitted_at"
    }

    package static func confirmedDay(_ row: Row) throws -> ConfirmedDay {
        guard let id = UUID(uuidString: row["submission_id"]),
            let status = ConfirmedDay.Status(rawValue: row["status"])
        else { throw DeviceStoreError.damaged("a confirmed day cannot be read") }
        return ConfirmedDay(
            day: row["day"], timeZone: row["time_zone"], submissionId: id,
            confirmedAt: Date(millisecondsSince1970: row["confirmed_at"]), status: status, code: row["code"],
            message: row["message"],
            submittedAt: (row["submitted_at"] as Int64?).map(Date.init(millisecondsSince1970:)))
    }

    /// The owner's confirmed days, by day.
    package func confirmedDays(owner: UserID) throws -> [String: ConfirmedDay] {
        try readStatement { db in
            let days = try Row.fetchAll(
                db, sql: "SELECT \(Self.dayColumns) FROM track_days WHERE owner = ?", arguments: [owner.wire]
            ).map(Self.confirmedDay)
            return Dictionary(days.map { ($0.day, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    package func isConfirmed(_ db: Database, day: String, owner: UserID) throws -> Bool {
        try Row.fetchOne(
            db, sql: "SELECT \(Self.dayColumns) FROM track_days WHERE owner = ? AND day = ?",
            arguments: [owner.wire, day]
        ).map(Self.confirmedDay)?.locked ?? false
    }

    /// Confirms `day` (over in `timeZone`, no session of it still open): locks it and queues its
    /// submission, with every session that touches the day and the day's minutes from
    /// ``WorkHours``, in one transaction.
    @discardableResult
    package func confirmDay(
        _ day: String, timeZone: TimeZone, names: [LocationID: String], owner: UserID, now: Date
    ) throws -> ConfirmedDay {
        guard let interval = WorkDay.interval(of: day, in: timeZone) else {
            throw TrackingError.badDay
        }
        guard interval.upperBound <= now else {
            throw TrackingError.dayNotOver(day)
        }
        return try queue.write { db in
            if try isConfirmed(db, day: day, owner: owner) { throw TrackingError.dayConfirmed(day) }
            // Every session that touches the day (a night shift belongs to both its days); the
            // day's minutes are its part of them, from the one place hours are computed.
            let sessions = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.sessionColumns) FROM track_sessions
                    WHERE owner = ? AND clock_in < ? AND (clock_out IS NULL OR clock_out > ?)
                    ORDER BY clock_in
                    """,
                arguments: [
                    owner.wire, interval.upperBound.millisecondsSince1970, interval.lowerBound.millisecondsSince1970,
                ]
            ).map(Self.session)
            // The worker's corrections: each session's own, and the sessions deleted that
            // touched the day (as tracked, or when deleted).
            let history = Dictionary(grouping: try Self.sessionCorrections(db, owner: owner), by: \.sessionId)
            let submitted = try sessions.map { session -> SubmittedSession in
                guard let clockOut = session.clockOut else {
                    throw TrackingError.daySessionOpen(day)
                }
                return SubmittedSession(
                    id: session.id, location: names[session.location] ?? "a removed location",
                    clockIn: session.clockIn, clockOut: clockOut, method: session.method.rawValue, short: session.short,
                    breakMinutes: session.breakMinutes,
                    asTracked: session.trackedClockIn.map {
                        SessionTimes(clockIn: $0, clockOut: session.trackedClockOut ?? clockOut)
                    }, corrections: history[session.id]?.map(\.correction))
            }
            let deleted = history.values.compactMap { records -> [SessionCorrectionRecord]? in
                guard let first = records.first, let last = records.last, last.correction.after == nil else {
                    return nil
                }
                let touches = [first.correction.before, last.correction.before].contains {
                    $0.clockIn < interval.upperBound && $0.clockOut > interval.lowerBound
                }
                return touches ? records : nil
            }.sorted { $0[0].correction.before.clockIn < $1[0].correction.before.clockIn }
            let deletedSessions = deleted.map { records in
                let (first, last) = (records[0], records[records.count - 1])
                return SubmittedSession(
                    id: last.sessionId, location: names[last.location] ?? "a removed location",
                    clockIn: last.correction.before.clockIn, clockOut: last.correction.before.clockOut,
                    method: last.method.rawValue, short: last.short, breakMinutes: last.breakMinutes,
                    asTracked: records.count > 1 ? first.correction.before : nil,
                    corrections: records.map(\.correction))
            }
            let hours = WorkHours.days(
                from: day, to: day,
                sessions: sessions.map { $0.span(now: now) },
                in: timeZone)
            // The day as tracked, before the worker's corrections: each session at its tracked
            // times, the deleted ones too.
            let corrected = submitted.contains { $0.corrections != nil } || !deletedSessions.isEmpty
            let asTracked =
                corrected
                ? WorkHours.days(
                    from: day, to: day,
                    sessions: sessions.map {
                        TrackedSpan(
                            start: $0.trackedClockIn ?? $0.clockIn, end: $0.trackedClockOut ?? $0.clockOut ?? now,
                            breakMinutes: $0.breakMinutes, short: $0.short)
                    }
                        + deleted.map {
                            TrackedSpan(
                                start: $0[0].correction.before.clockIn, end: $0[0].correction.before.clockOut,
                                breakMinutes: $0[0].breakMinutes, short: $0[0].short)
                        },
                    in: timeZone
                ).first?.trackedMinutes ?? 0 : nil
            // A sandbox's day (the demo month) is confirmed where it is, as if sent: nothing of
            // it is ever queued.
            let sandbox = SandboxOwner.contains(owner)
            let confirmed = ConfirmedDay(
                day: day, timeZone: timeZone.identifier, submissionId: UUID(), confirmedAt: now,
                status: sandbox ? .submitted : .queued, submittedAt: sandbox ? now : nil)
            let body = DaySubmissionRequest(
                submissionId: confirmed.submissionId, timeZone: timeZone.identifier, sessions: submitted,
                trackedMinutes: hours.first?.trackedMinutes ?? 0, confirmedAt: now, asTrackedMinutes: asTracked,
                deletedSessions: deletedSessions.isEmpty ? nil : deletedSessions)
            try db.execute(
                sql: """
                    INSERT INTO track_days (owner, day, time_zone, submission_id, confirmed_at, status, submitted_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (owner, day) DO UPDATE SET time_zone = excluded.time_zone,
                        submission_id = excluded.submission_id, confirmed_at = excluded.confirmed_at,
                        status = excluded.status, code = NULL, message = NULL, submitted_at = excluded.submitted_at
                    """,
                arguments: [
                    owner.wire, day, timeZone.identifier, confirmed.submissionId.uuidString, now.millisecondsSince1970,
                    confirmed.status.rawValue, confirmed.submittedAt?.millisecondsSince1970,
                ])
            if sandbox { return confirmed }
            _ = try enqueue(
                db, kind: .daySubmission, eventId: nil,
                idempotencyKey: "day-\(day)-\(confirmed.submissionId.uuidString.lowercased())",
                request: DaySubmissionOutboxRequest(day: day, body: body), owner: owner, now: now)
            return confirmed
        }
    }

    /// The server's answer to a day's submission: submitted, or refused with its words.
    package func recordDayAnswer(
        _ db: Database, day: String, submissionId: UUID, owner: UserID, submittedAt: Date?, code: String?,
        message: String?
    ) throws {
        try db.execute(
            sql: """
                UPDATE track_days SET status = ?, code = ?, message = ?, submitted_at = ?
                WHERE owner = ? AND day = ? AND submission_id = ?
                """,
            arguments: [
                submittedAt == nil ? "refused" : "submitted", code, message, submittedAt?.millisecondsSince1970,
                owner.wire, day, submissionId.uuidString,
            ])
    }
}
