import Hummingbird
import OutpostCore
import OutpostProtocol

/// `GET /v1/audit/refused`: check-in attempts by the caller's tenant's users on events they
/// could not see. They belong to no event's log (an event of another tenant must not learn of
/// them, and a nonexistent one has no log), so they are listed per tenant here, and each is
/// also logged for the server's operator when it happens.
struct AuditRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.refusedAttempts, use: refused)
    }

    @Sendable func refused(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .support])
        var after: Int64 = 0
        if let since = request.uri.queryParameters.get("since") {
            guard since.hasPrefix("R"), let id = Int64(since.dropFirst()), id >= 0 else {
                throw APIError.invalidRequest("'since' is not a cursor this server issued.")
            }
            after = id
        }
        let limit = try HTTPHelpers.limit(request, default: 1000, maximum: 10_000)
        return try HTTPHelpers.json(
            try await dependencies.store.refusedAttempts(tenantId: context.caller.tenantId, after: after, limit: limit))
    }
}
