import Foundation

/// `GET /v1/events/{eventId}/dashboard`: the doors on the night. `seq` is the event's change
/// counter (it moves with every check-in and guest change, on any server instance).
public struct DoorDashboard: Codable, Sendable, Hashable {
    public struct Minute: Codable, Sendable, Hashable {
        /// The minute's start.
        public var at: Date
        public var count: Int

        public init(at: Date, count: Int) {
            self.at = at
            self.count = count
        }
    }

    public struct RecentCheckIn: Codable, Sendable, Hashable {
        public var guestName: String
        public var accessType: String
        public var at: Date
        public var byName: String
        public var deviceId: String
        public var method: String
        /// The name an organizer gave the device ("Door 2"), if any.
        public var deviceName: String?

        public init(
            guestName: String, accessType: String, at: Date, byName: String, deviceId: String, method: String,
            deviceName: String? = nil
        ) {
            self.guestName = guestName
            self.accessType = accessType
            self.at = at
            self.byName = byName
            self.deviceId = deviceId
            self.method = method
            self.deviceName = deviceName
        }
    }

    /// What a device said of itself at its last sync.
    public struct Device: Codable, Sendable, Hashable {
        public var deviceId: String
        public var userName: String
        public var lastContactAt: Date
        /// Check-ins it still holds (not yet accepted by the server).
        public var pending: Int
        /// The name an organizer gave the device ("Door 2"), if any.
        public var name: String?

        public init(deviceId: String, userName: String, lastContactAt: Date, pending: Int, name: String? = nil) {
            self.deviceId = deviceId
            self.userName = userName
            self.lastContactAt = lastContactAt
            self.pending = pending
            self.name = name
        }
    }

    public var seq: Int
    public var stats: EventStats
    /// The last 60 minutes, oldest first, a count each (empty minutes included).
    public var perMinute: [Minute]
    /// The last 20 check-ins, newest first.
    public var recent: [RecentCheckIn]
    /// Devices by last contact, newest first.
    public var devices: [Device]
    /// The event's zones with their counts (EFx access control), in the organizer's order.
    public var zones: [ZoneOccupancy]
    public var serverTime: Date

    public init(
        seq: Int, stats: EventStats, perMinute: [Minute], recent: [RecentCheckIn], devices: [Device],
        zones: [ZoneOccupancy] = [], serverTime: Date
    ) {
        self.seq = seq
        self.stats = stats
        self.perMinute = perMinute
        self.recent = recent
        self.devices = devices
        self.zones = zones
        self.serverTime = serverTime
    }
}

/// `PUT /v1/events/{eventId}/devices/{deviceId}`: a device's own report after a sync.
public struct DeviceReport: Codable, Sendable, Hashable {
    /// Check-ins of this event the device still holds.
    public var pending: Int

    public init(pending: Int) { self.pending = pending }
}
