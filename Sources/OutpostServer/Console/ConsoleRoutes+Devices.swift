import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The tenant's devices (organizer): each one's latest contact, who was signed in, what it
/// still held, and the name it shows under on the dashboards (`GET /v1/devices`,
/// `PUT /v1/devices/{deviceId}/name`).
extension ConsoleRoutes {
    func registerDevices(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.devices, use: devices)
        group.on(ConsolePages.nameDevice, use: nameDevice)
    }

    @Sendable func devices(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let answer = try await call(API.listDevices.line(), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.events.path())
            }
            let list = try answer.decode(DeviceList.self)
            let now = dependencies.clock.now()
            return try await page(
                "devices", title: "Devices",
                [
                    "devices": list.devices.map { device -> [String: Any] in
                        let minutes = Int(now.timeIntervalSince(device.lastContactAt) / 60)
                        return [
                            "id": device.deviceId, "name": device.name ?? "",
                            "label": DashboardView.deviceLabel(device.deviceId, name: device.name),
                            "user": device.userName, "pending": device.pending,
                            "lastContact": Self.ago(minutes: minutes),
                            "lastContactAt": ISO8601DateFormatter().string(from: device.lastContactAt),
                            "attention": device.pending > 0 && minutes >= 5,
                        ]
                    },
                    "hasDevices": !list.devices.isEmpty, "maxName": DeviceRoutes.maximumNameLength,
                ], session: session, notice: Self.flash(request))
        }
    }

    /// "just now", "12 min ago", "3 h ago", "4 days ago".
    static func ago(minutes: Int) -> String {
        switch minutes {
        case ..<1: "just now"
        case ..<60: "\(minutes) min ago"
        case ..<(48 * 60): "\(minutes / 60) h ago"
        default: "\(minutes / (24 * 60)) days ago"
        }
    }

    @Sendable func nameDevice(_ request: Request, context: AppRequestContext) async throws -> Response {
        let device = try ConsolePages.nameDevice.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let answer = try await call(
                API.nameDevice.line(device), try OutpostJSON.encode(DeviceName(name: form["name"] ?? "")))
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.devices.path()) }
            return .redirect(ConsolePages.devices.path(query: [("done", "device-named")]))
        }
    }
}
