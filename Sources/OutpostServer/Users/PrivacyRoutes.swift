import Foundation
import Hummingbird
import OutpostProtocol

/// The data rights of a signed-in user (GDPR, seed 003 "Data Privacy"): `GET /v1/me/export`
/// answers everything the server holds about them (Art. 20); `DELETE /v1/me` deletes a worker's
/// account and data (Art. 17). Staff accounts belong to their organization: their organizer
/// removes them (`DELETE /v1/users/{id}`).
struct PrivacyRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.exportMyData, use: export)
        group.on(API.deleteMe, use: delete)
    }

    @Sendable func export(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard
            let export = try await dependencies.store.accountExport(
                of: context.caller, now: dependencies.clock.now())
        else { throw APIError.unauthorized }
        var response = try HTTPHelpers.json(export)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard context.caller.role == .worker else {
            throw APIError(
                .forbidden, .forbidden,
                "This account belongs to your organization; ask your organizer to remove it.")
        }
        guard try await dependencies.store.deleteWorkerAccount(context.caller) else { throw APIError.unauthorized }
        return Response(status: .noContent)
    }
}
