import Foundation

/// `GET /v1/devices` (organizer, support): the tenant's devices as each last reported after a
/// sync (door devices per event, mentors' and workers' per user), the latest contact first.
public struct DeviceList: Codable, Sendable, Hashable {
    public struct Device: Codable, Sendable, Hashable {
        /// The device's own id.
        public var deviceId: String
        /// The name an organizer gave it ("Door 2"), if any.
        public var name: String?
        /// Who was signed in at its latest report.
        public var userName: String
        public var lastContactAt: Date
        /// Entries it still held at its latest reports (check-ins of every event, or the user's).
        public var pending: Int

        public init(deviceId: String, name: String?, userName: String, lastContactAt: Date, pending: Int) {
            self.deviceId = deviceId
            self.name = name
            self.userName = userName
            self.lastContactAt = lastContactAt
            self.pending = pending
        }
    }

    public var devices: [Device]

    public init(devices: [Device]) { self.devices = devices }
}

/// `PUT /v1/devices/{deviceId}/name` (organizer): the device's name in the console, at most 60
/// characters; an empty one removes it.
public struct DeviceName: Codable, Sendable, Hashable {
    public var name: String

    public init(name: String) { self.name = name }
}
