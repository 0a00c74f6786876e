import Foundation
import OutpostCore

/// One row of an event's append-only audit log.
public struct AuditEntry: Codable, Sendable, Hashable {
    public var id: String
    public var kind: AuditKind
    /// The event the attempt named; only in the tenant's list of refused attempts
    /// (`GET /v1/audit/refused`), where the entries belong to no event the caller can see.
    public var eventId: EventID?
    public var guestId: GuestID?
    public var deviceId: String?
    public var userId: UserID?
    public var at: Date
    public var clientAt: Date?
    public var method: String?
    /// The guest's and the user's names as they are now (absent in the refused list).
    public var guestName: String?
    public var userName: String?

    public init(
        id: String, kind: AuditKind, guestId: GuestID?, deviceId: String?, userId: UserID?, at: Date, clientAt: Date?,
        method: String?, eventId: EventID? = nil, guestName: String? = nil, userName: String? = nil
    ) {
        self.guestName = guestName
        self.userName = userName
        self.id = id
        self.kind = kind
        self.eventId = eventId
        self.guestId = guestId
        self.deviceId = deviceId
        self.userId = userId
        self.at = at
        self.clientAt = clientAt
        self.method = method
    }
}

/// `GET /v1/events/{eventId}/audit` and `GET /v1/audit/refused`, oldest first.
public struct AuditPage: Codable, Sendable, Hashable {
    public var entries: [AuditEntry]
    public var cursor: String
    public var hasMore: Bool

    public init(entries: [AuditEntry], cursor: String, hasMore: Bool) {
        self.entries = entries
        self.cursor = cursor
        self.hasMore = hasMore
    }
}

/// Check-in counts of one access type.
public struct AccessTypeStats: Codable, Sendable, Hashable {
    public var accessTypeId: AccessTypeID
    public var name: String
    public var guests: Int
    public var checkedIn: Int

    public init(accessTypeId: AccessTypeID, name: String, guests: Int, checkedIn: Int) {
        self.accessTypeId = accessTypeId
        self.name = name
        self.guests = guests
        self.checkedIn = checkedIn
    }
}

/// `GET /v1/events/{eventId}/stats`. Cancelled and revoked guests are not counted in `guests`.
public struct EventStats: Codable, Sendable, Hashable {
    public var guests: Int
    public var checkedIn: Int
    public var byAccessType: [AccessTypeStats]
    public var lastCheckInAt: Date?

    public init(guests: Int, checkedIn: Int, byAccessType: [AccessTypeStats], lastCheckInAt: Date?) {
        self.guests = guests
        self.checkedIn = checkedIn
        self.byAccessType = byAccessType
        self.lastCheckInAt = lastCheckInAt
    }

    private enum CodingKeys: String, CodingKey { case guests, checkedIn, byAccessType, lastCheckInAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(guests, forKey: .guests)
        try container.encode(checkedIn, forKey: .checkedIn)
        try container.encode(byAccessType, forKey: .byAccessType)
        try container.encode(lastCheckInAt, forKey: .lastCheckInAt)
    }
}

/// `outpost admin bootstrap` prints this.
public struct BootstrapResult: Codable, Sendable, Hashable {
    public var tenantId: TenantID
    public var userId: UserID

    public init(tenantId: TenantID, userId: UserID) {
        self.tenantId = tenantId
        self.userId = userId
    }
}
