import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Time tracking (seed 003) on the server: a worker submits the days they confirmed
/// (`PUT /v1/tracking/days/{date}`) and reads them back (`GET /v1/tracking/days`); an organizer
/// reads a worker's days (`GET /v1/tracking/users/{userId}/days`) and finalises a week
/// (`POST /v1/tracking/users/{userId}/weeks/{week}/finalise`). A worker sees only their own.
struct TrackingRoutes {
    let dependencies: ServerDependencies

    /// A session carries at most this many corrections.
    static let correctionLimit = 100
    /// A day holds at most this many sessions (the seed's app makes a handful).
    static let sessionLimit = 200

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.myDays, use: ownDays)
        group.on(API.submitDay, use: submit)
        group.on(API.workerDays, use: userDays)
        group.on(API.finaliseWeek, use: finalise)
    }

    @Sendable func submit(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.worker])
        let date = try Self.day(try API.submitDay.parameters(in: context))
        let body = try await HTTPHelpers.decode(DaySubmissionRequest.self, from: request)
        try Self.validate(body, date: date, now: dependencies.clock.now())
        switch try await dependencies.store.submitDay(date, body, caller: context.caller, now: dependencies.clock.now())
        {
        case .stored(let day): return try HTTPHelpers.json(day, status: .created)
        case .replayed(let day): return try HTTPHelpers.json(day)
        case .alreadySubmitted(let current):
            return try HTTPHelpers.json(
                DaySubmissionConflict(
                    code: .dayAlreadySubmitted,
                    message:
                        "\(date) was already submitted at \(OutpostJSON.format(current.submittedAt)); a submitted day cannot change.",
                    current: current, finalisedWeek: nil),
                status: .conflict)
        case .weekFinalised(let week):
            return try HTTPHelpers.json(
                DaySubmissionConflict(
                    code: .weekFinalised,
                    message:
                        "Your employer finalised the week \(week.week), so \(date) cannot be submitted any more; tell them its hours (they stay on your phone and in your data export).",
                    current: nil, finalisedWeek: week),
                status: .conflict)
        case .noAccount: throw APIError.unauthorized
        }
    }

    @Sendable func ownDays(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.worker])
        guard let list = try await dependencies.store.submittedDays(of: context.caller.userId, caller: context.caller)
        else { throw APIError.unauthorized }
        return try HTTPHelpers.json(list)
    }

    @Sendable func userDays(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let userId = try API.workerDays.parameters(in: context)
        guard let list = try await dependencies.store.submittedDays(of: userId, caller: context.caller) else {
            throw APIError.notFound
        }
        return try HTTPHelpers.json(list)
    }

    @Sendable func finalise(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let (user, week) = try API.finaliseWeek.parameters(in: context)
        let userId = user
        guard WorkDay.isWeek(week) else {
            throw APIError.invalidRequest("The week must be an ISO week such as 2026-W48.")
        }
        guard
            let finalised = try await dependencies.store.finaliseWeek(
                week, of: userId, caller: context.caller, now: dependencies.clock.now())
        else { throw APIError.notFound }
        return try HTTPHelpers.json(finalised)
    }

    static func day(_ date: String) throws -> String {
        guard ActivityDate.isValid(date) else {
            throw APIError.invalidRequest("The day must be written YYYY-MM-DD.")
        }
        return date
    }

    /// A submission must describe a day that is over in its own time zone, with finished
    /// sessions that touch that day, and no more minutes than the day has.
    static func validate(_ body: DaySubmissionRequest, date: String, now: Date) throws {
        guard let zone = TimeZone(identifier: body.timeZone), let day = WorkDay.interval(of: date, in: zone) else {
            throw APIError.invalidRequest(
                "'timeZone' must be a time zone name such as Europe/Berlin.", status: .unprocessableContent)
        }
        guard day.upperBound <= now.addingTimeInterval(5 * 60) else {
            throw APIError.invalidRequest("\(date) is not over yet.", status: .unprocessableContent)
        }
        guard body.sessions.count <= sessionLimit else {
            throw APIError.invalidRequest(
                "A day holds at most \(sessionLimit) sessions.", status: .unprocessableContent)
        }
        guard (body.deletedSessions?.count ?? 0) <= sessionLimit else {
            throw APIError.invalidRequest(
                "A day holds at most \(sessionLimit) deleted sessions.", status: .unprocessableContent)
        }
        for session in body.sessions + (body.deletedSessions ?? []) {
            guard (session.corrections?.count ?? 0) <= correctionLimit,
                session.corrections?.allSatisfy({ $0.at <= now.addingTimeInterval(5 * 60) }) ?? true
            else {
                throw APIError.invalidRequest(
                    "A session holds at most \(correctionLimit) corrections, none made in the future.",
                    status: .unprocessableContent)
            }
        }
        // A deleted session is known by its times as tracked, and must have been deleted.
        for session in body.deletedSessions ?? [] {
            guard let last = session.corrections?.last, last.after == nil else {
                throw APIError.invalidRequest(
                    "A deleted session's last correction is its deletion (no times after it).",
                    status: .unprocessableContent)
            }
        }
        for session in body.sessions {
            guard session.clockIn < day.upperBound,
                session.clockOut > day.lowerBound || session.clockIn == session.clockOut,
                session.clockOut >= session.clockIn, session.clockOut <= now,
                session.location.count <= 200, ["geofence_auto", "manual"].contains(session.method)
            else {
                throw APIError.invalidRequest(
                    "Each session must touch \(date), end after it begins and not in the future.",
                    status: .unprocessableContent)
            }
        }
        let length = Int(day.upperBound.timeIntervalSince(day.lowerBound)) / 60
        guard (0...length).contains(body.trackedMinutes) else {
            throw APIError.invalidRequest(
                "'trackedMinutes' must be between 0 and the day's \(length) minutes.", status: .unprocessableContent)
        }
        if let asTracked = body.asTrackedMinutes, !(0...length).contains(asTracked) {
            throw APIError.invalidRequest(
                "'asTrackedMinutes' must be between 0 and the day's \(length) minutes.", status: .unprocessableContent)
        }
    }
}
