import Foundation
import OutpostCore

/// An event as the event picker lists it.
public struct EventInfo: Codable, Sendable, Hashable {
    public var id: EventID
    public var name: String
    public var startsAt: Date
    public var endsAt: Date
    public var timeZone: String
    public var modules: [String]
    /// Its guests and how many are checked in: in the list when asked (`counts=true`) by an
    /// organizer or support.
    public var counts: EventCounts?

    public init(
        id: EventID, name: String, startsAt: Date, endsAt: Date, timeZone: String, modules: [String],
        counts: EventCounts? = nil
    ) {
        self.id = id
        self.name = name
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.modules = modules
        self.counts = counts
    }
}

/// An event's guests (every status) and how many of them are checked in.
public struct EventCounts: Codable, Sendable, Hashable {
    public var guests: Int
    public var checkedIn: Int

    public init(guests: Int, checkedIn: Int) {
        self.guests = guests
        self.checkedIn = checkedIn
    }
}

/// `POST /v1/events/{eventId}/clone`: the new event's name and times; it takes the original's
/// modules, access types, staff and badge layout, and no guests.
public struct CloneEventRequest: Codable, Sendable, Hashable {
    public var name: String
    public var startsAt: Date
    public var endsAt: Date
    /// The original's when absent.
    public var timeZone: String?

    public init(name: String, startsAt: Date, endsAt: Date, timeZone: String? = nil) {
        self.name = name
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
    }
}

/// `GET /v1/events`, ordered by `startsAt`, then name.
public struct EventList: Codable, Sendable, Hashable {
    public var events: [EventInfo]
    public init(events: [EventInfo]) { self.events = events }
}

/// `POST /v1/events`.
public struct CreateEventRequest: Codable, Sendable, Hashable {
    public var name: String
    public var startsAt: Date
    public var endsAt: Date
    public var timeZone: String
    /// Modules the event enables; `["checkin"]` when absent.
    public var modules: [String]?

    public init(name: String, startsAt: Date, endsAt: Date, timeZone: String, modules: [String]? = nil) {
        self.name = name
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.modules = modules
    }
}

/// `POST /v1/events/{eventId}/access-types`.
public struct CreateAccessTypeRequest: Codable, Sendable, Hashable {
    public var name: String
    public var walkInAllowed: Bool?
    /// How many walk-ins the type admits in all (only with `walkInAllowed`); nil: no limit.
    public var walkInCapacity: Int?

    public init(name: String, walkInAllowed: Bool? = nil, walkInCapacity: Int? = nil) {
        self.name = name
        self.walkInAllowed = walkInAllowed
        self.walkInCapacity = walkInCapacity
    }
}

/// `PUT /v1/events/{eventId}/staff/{userId}` has no body; `POST /v1/users` takes this.
public struct CreateUserRequest: Codable, Sendable, Hashable {
    public var email: String
    public var name: String
    public var role: UserRole
    public var password: String

    public init(email: String, name: String, role: UserRole, password: String) {
        self.email = email
        self.name = name
        self.role = role
        self.password = password
    }
}

/// `PATCH /v1/events/{eventId}`: the fields to change (absent: unchanged).
public struct UpdateEventRequest: Codable, Sendable, Hashable {
    public var name: String?
    public var startsAt: Date?
    public var endsAt: Date?
    public var timeZone: String?
    /// The modules the event enables (`efx` turns on the EFx tab and its stations); nil keeps them.
    public var modules: [String]?

    public init(
        name: String? = nil, startsAt: Date? = nil, endsAt: Date? = nil, timeZone: String? = nil,
        modules: [String]? = nil
    ) {
        self.name = name
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.modules = modules
    }
}

/// `GET /v1/events/{eventId}`: the event, its access types (by name) and whether the kiosk is
/// set up (its passcode never leaves the server here).
public struct EventDetail: Codable, Sendable, Hashable {
    public var event: EventInfo
    public var accessTypes: [AccessTypeInfo]
    /// `portrait` or `landscape` once a kiosk passcode is set, else null.
    public var kioskOrientation: String?
    /// The caller's role on this event: their own, or `organizer` where its staff makes them its
    /// organizer (what the console offers them follows it).
    public var role: UserRole?

    public init(event: EventInfo, accessTypes: [AccessTypeInfo], kioskOrientation: String?, role: UserRole? = nil) {
        self.event = event
        self.accessTypes = accessTypes
        self.kioskOrientation = kioskOrientation
        self.role = role
    }
}

/// The modules an event can enable (``EventInfo/modules``), by the names the API uses.
public enum EventModule {
    public static let checkIn = "checkin"
    /// The EFx stations (seed 000's EFx tab): zone access control.
    public static let efx = "efx"
}
