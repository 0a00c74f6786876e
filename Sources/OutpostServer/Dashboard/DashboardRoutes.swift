import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The door dashboard's data: `PUT /v1/events/{eventId}/devices/{deviceId}` (a device's own
/// report after a sync: the check-ins it still holds) and `GET /v1/events/{eventId}/dashboard`
/// (organizer and support).
struct DashboardRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.reportDevice, use: report)
        group.on(API.dashboard, use: dashboard)
    }

    /// Device ids are the devices' own (`DeviceID`'s wire form, or a name such as "kiosk-1"):
    /// printable, at most 100 characters.
    static func deviceId(_ text: String) throws -> String {
        guard (1...100).contains(text.count),
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { throw APIError.invalidRequest("The device id must be 1 to 100 printable ASCII characters.") }
        return text
    }

    /// A device report's count of entries not sent (``DeviceReport``), checked.
    static func pending(_ request: Request) async throws -> Int {
        let body = try await HTTPHelpers.decode(DeviceReport.self, from: request)
        guard (0...10_000_000).contains(body.pending) else {
            throw APIError.invalidRequest("'pending' must be a whole number from 0.", status: .unprocessableContent)
        }
        return body.pending
    }

    @Sendable func report(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, device) = try API.reportDevice.parameters(in: context)
        let event = try await EventRoutes.event(eventId, context, dependencies)
        let deviceId = try Self.deviceId(device)
        let pending = try await Self.pending(request)
        try await dependencies.store.reportDevice(
            eventId: event.id, deviceId: deviceId, userId: context.caller.userId, pending: pending,
            at: dependencies.clock.now())
        return Response(status: .noContent)
    }

    @Sendable func dashboard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.dashboard.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(try await dependencies.store.dashboard(event: event, now: dependencies.clock.now()))
    }
}
