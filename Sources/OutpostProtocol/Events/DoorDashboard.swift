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

    /// A door in the venue mesh: one that met other doors (its last report names them), or
    /// whose admissions reached the server through other doors (it went dark while offline).
    public struct MeshDoor: Codable, Sendable, Hashable {
        public var deviceId: String
        /// The name an organizer gave the device ("Door 2"), if any.
        public var name: String?
        /// Who signed its entries (its certificate's user).
        public var userName: String
        /// Its admissions in the mesh the server holds, and how many of them other doors handed in.
        public var admitted: Int
        public var throughOthers: Int
        /// The doors it met, and the entries it held, at its last report (nil: it never reported).
        public var peers: [String]
        public var held: Int?
        public var reportedAt: Date?

        public init(
            deviceId: String, name: String? = nil, userName: String, admitted: Int, throughOthers: Int,
            peers: [String], held: Int?, reportedAt: Date?
        ) {
            self.deviceId = deviceId
            self.name = name
            self.userName = userName
            self.admitted = admitted
            self.throughOthers = throughOthers
            self.peers = peers
            self.held = held
            self.reportedAt = reportedAt
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
    /// The doors meshed while the server was out of reach (``MeshDoor``), by device id.
    public var mesh: [MeshDoor]
    public var serverTime: Date

    public init(
        seq: Int, stats: EventStats, perMinute: [Minute], recent: [RecentCheckIn], devices: [Device],
        zones: [ZoneOccupancy] = [], mesh: [MeshDoor] = [], serverTime: Date
    ) {
        self.mesh = mesh
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
