import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The tenant's devices: `GET /v1/devices` (organizer, support) lists what each said of itself
/// at its last sync; `PUT /v1/devices/{deviceId}/name` (organizer) names one ("Door 2"), and the
/// name shows wherever the console showed its id.
struct DeviceRoutes {
    let dependencies: ServerDependencies

    static let maximumNameLength = 60

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.listDevices, use: list)
        group.on(API.nameDevice, use: name)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .support])
        return try HTTPHelpers.json(
            DeviceList(devices: try await dependencies.store.devices(tenantId: context.caller.tenantId)))
    }

    /// A name for a device that reported to the tenant (another tenant's, or none, is not found).
    @Sendable func name(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let deviceId = try DashboardRoutes.deviceId(try API.nameDevice.parameters(in: context))
        let body = try await HTTPHelpers.decode(DeviceName.self, from: request)
        let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= Self.maximumNameLength else {
            throw APIError.invalidRequest(
                "'name' must be at most \(Self.maximumNameLength) characters.", status: .unprocessableContent)
        }
        let store = dependencies.store
        let tenant = context.caller.tenantId
        guard var device = try await store.devices(tenantId: tenant).first(where: { $0.deviceId == deviceId }) else {
            throw APIError.notFound
        }
        try await store.nameDevice(tenantId: tenant, deviceId: deviceId, name: name, now: dependencies.clock.now())
        device.name = name.isEmpty ? nil : name
        return try HTTPHelpers.json(device)
    }
}
