import Foundation
import Hummingbird
import OutpostProtocol

/// `GET /v1/events/{eventId}/roster`.
struct RosterRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.roster, use: roster)
    }

    @Sendable func roster(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.roster.parameters(in: context), context, dependencies)
        var cursor = RosterCursor.start
        if let since = request.uri.queryParameters.get("since"), !since.isEmpty {
            guard let parsed = RosterCursor(token: since) else {
                throw APIError.invalidRequest("'since' is not a cursor this server issued.")
            }
            cursor = parsed
        }
        let limit = try HTTPHelpers.limit(request, default: 1000, maximum: 10_000)
        let now = dependencies.clock.now()
        // The event's signing key exists from the first sync on, so devices can verify tickets offline.
        _ = try await dependencies.store.signingKey(eventId: event.id, now: now)
        let page = try await dependencies.store.rosterPage(event: event, after: cursor, limit: limit, now: now)
        // One page, two forms (RosterWire): JSON unless the client asks for the compact one.
        var response =
            switch RosterWire.negotiate(accept: request.headers[.accept]) {
            case .json: try HTTPHelpers.json(page)
            case .protobuf:
                HTTPHelpers.bytes(
                    Array(try page.protobufData()), status: .ok, contentType: RosterWire.protobufMediaType)
            }
        response.headers[.vary] = "Accept"
        return response
    }
}
