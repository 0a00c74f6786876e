import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// EFx station assignments: `GET /v1/events/{eventId}/stations` (the organizer's choices),
/// `PUT` and `DELETE …/stations/{userId}` (a user's station: a zone station at a zone and a
/// direction, or a pickup station), and `GET …/my-station` (the signed-in user's, which their
/// device's EFx tab opens).
struct StationRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.stations, use: list)
        group.on(API.setStation, use: set)
        group.on(API.clearStation, use: clear)
        group.on(API.myStation, use: mine)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.stations.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(try await dependencies.store.stations(eventId: event.id))
    }

    @Sendable func set(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, userId) = try API.setStation.parameters(in: context)
        _ = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        let body = try await HTTPHelpers.decode(StationAssignment.self, from: request)
        switch try await dependencies.store.setStation(
            caller: context.caller, eventId: eventId, userId: userId, station: body)
        {
        case .saved(let saved): return try HTTPHelpers.json(saved)
        case .notStaff:
            throw APIError.invalidRequest(
                "Only someone who works this event's doors (its staff, support, an organizer) gets a station.",
                status: .unprocessableContent)
        case .invalid(let sentence): throw APIError.invalidRequest(sentence, status: .unprocessableContent)
        case .notFound: throw APIError.notFound
        }
    }

    @Sendable func clear(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, userId) = try API.clearStation.parameters(in: context)
        let event = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        guard try await dependencies.store.clearStation(eventId: event.id, userId: userId) else {
            throw APIError.notFound
        }
        return Response(status: .noContent)
    }

    /// Whoever works the event reads their own station (null when none was chosen).
    @Sendable func mine(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.myStation.parameters(in: context), context, dependencies)
        return try HTTPHelpers.json(
            MyStation(station: try await dependencies.store.station(eventId: event.id, userId: context.caller.userId)))
    }
}
