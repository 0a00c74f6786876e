import Foundation
import Hummingbird
import OutpostProtocol

/// `GET` and `PUT /v1/tenant/settings` (organizer): the tenant's offline unlock window and the
/// time zone its new events start in.
struct TenantSettingsRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.tenantSettings, use: show)
        group.on(API.setTenantSettings, use: update)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        return try HTTPHelpers.json(try await dependencies.store.tenantSettings(context.caller.tenantId))
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let body = try await HTTPHelpers.decode(TenantSettings.self, from: request)
        guard TenantSettings.offlineUnlockRange.contains(body.offlineUnlockHours) else {
            throw APIError.invalidRequest(
                "'offlineUnlockHours' must be between \(TenantSettings.offlineUnlockRange.lowerBound) and "
                    + "\(TenantSettings.offlineUnlockRange.upperBound).", status: .unprocessableContent)
        }
        if let zone = body.timeZone, TimeZone(identifier: zone) == nil {
            throw APIError.invalidRequest(
                "'timeZone' must be an IANA time zone such as Europe/Oslo.", status: .unprocessableContent)
        }
        try await dependencies.store.setTenantSettings(context.caller.tenantId, body)
        return try HTTPHelpers.json(body)
    }
}
