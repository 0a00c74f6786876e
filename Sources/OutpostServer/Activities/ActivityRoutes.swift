import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// `PUT /v1/activities/{activityId}`, `DELETE /v1/activities/{activityId}?baseVersion=N`,
/// `GET /v1/activities`: a peer mentor's activities (seed 004), written with optimistic
/// version checks so an edit made offline never silently overwrites one made meanwhile.
struct ActivityRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.listActivities, use: list)
        group.on(API.writeActivity, use: write)
        group.on(API.deleteActivity, use: delete)
    }

    /// Filters (`mentor`, `contact`, `from`, `to`), cursor pages (`limit`, `after`: the answer's
    /// `next`), and `format=csv` for a funder's report (live activities only, no notes, no
    /// contact names: day, activity, minutes, mentor, contact id, area).
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .mentor])
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            guard parameters[String(name)] == nil else {
                throw APIError.invalidRequest("The query parameter '\(name)' is given twice.")
            }
            parameters[String(name)] = String(value)
        }
        let query: ActivityQuery
        switch ActivityQuery.parse(parameters) {
        case .success(let parsed): query = parsed
        case .failure(let error): throw APIError.invalidRequest(error.sentence)
        }
        let store = dependencies.store
        let page = try await store.activities(visibleTo: context.caller, query: query, live: query.csv)
        guard query.csv else {
            return try HTTPHelpers.json(
                ActivityList(activities: page.activities, serverTime: dependencies.clock.now(), next: page.next?.token))
        }
        let names = try await store.userNames(tenantId: context.caller.tenantId)
        let areas = try await store.contactAreas(tenantId: context.caller.tenantId)
        let csv = CSVWriter.document(
            header: ["Date", "Activity", "Minutes", "Mentor", "Contact", "Area"],
            rows: page.activities.map {
                [
                    $0.date, $0.type.rawValue, String($0.durationMinutes), names[$0.mentorId] ?? "",
                    $0.contactId.wire, areas[$0.contactId] ?? "",
                ]
            })
        var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: csv)))
        response.headers[.contentType] = "text/csv; charset=utf-8"
        response.headers[.contentDisposition] = "attachment; filename=\"activities.csv\""
        if let next = page.next { response.headers[HTTPField.Name("Link")!] = "<?after=\(next.token)>; rel=\"next\"" }
        return response
    }

    @Sendable func write(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .mentor])
        let id = try API.writeActivity.parameters(in: context)
        let body = try await HTTPHelpers.decode(ActivityWrite.self, from: request)
        try Self.validate(body, now: dependencies.clock.now())
        switch try await dependencies.store.writeActivity(
            id, body, caller: context.caller, now: dependencies.clock.now())
        {
        case .created(let activity): return try HTTPHelpers.json(activity, status: .created)
        case .updated(let activity), .replayed(let activity): return try HTTPHelpers.json(activity)
        case .conflict(let current): return try Self.conflict(current)
        case .notFound: throw APIError.notFound
        }
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .mentor])
        let id = try API.deleteActivity.parameters(in: context)
        guard let text = request.uri.queryParameters.get("baseVersion"), let base = Int(text), base >= 1 else {
            throw APIError.invalidRequest(
                "The query parameter 'baseVersion' (the version deleted, 1 or more) is required.")
        }
        switch try await dependencies.store.deleteActivity(
            id, baseVersion: base, caller: context.caller, now: dependencies.clock.now())
        {
        case .deleted: return Response(status: .noContent)
        case .conflict(let current): return try Self.conflict(current)
        case .notFound: throw APIError.notFound
        }
    }

    static func conflict(_ current: Activity) throws -> Response {
        try HTTPHelpers.json(
            ActivityConflict(
                message: current.deleted
                    ? "This activity was deleted on the server after your copy was made."
                    : "This activity was changed on the server after your copy was made (now version \(current.version)).",
                current: current),
            status: .conflict)
    }

    static func validate(_ body: ActivityWrite, now: Date) throws {
        guard body.baseVersion >= 0 else {
            throw APIError.invalidRequest(
                "'baseVersion' must be 0 (a new activity) or more.", status: .unprocessableContent)
        }
        guard ActivityDate.isValid(body.date) else {
            throw APIError.invalidRequest("'date' must be a day as YYYY-MM-DD.", status: .unprocessableContent)
        }
        guard !ActivityDate.isAfterTomorrow(body.date, now: now, in: .gmt) else {
            throw APIError.invalidRequest(
                "'date' is in the future; an activity is recorded once it happened.", status: .unprocessableContent)
        }
        guard (1...1440).contains(body.durationMinutes) else {
            throw APIError.invalidRequest(
                "'durationMinutes' must be between 1 and 1440.", status: .unprocessableContent)
        }
        guard body.notes.count <= 4000 else {
            throw APIError.invalidRequest("'notes' must be at most 4000 characters.", status: .unprocessableContent)
        }
    }
}
