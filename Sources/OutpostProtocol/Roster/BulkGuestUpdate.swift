import Foundation
import OutpostCore

/// `POST /v1/events/{eventId}/guests:bulk`: one change (a status, an access type, or both) to
/// many guests of the event at once.
public struct BulkGuestUpdate: Codable, Sendable, Hashable {
    /// At most ``maxGuests``; a guest named twice counts once.
    public var guestIds: [GuestID]
    public var status: GuestStatus?
    public var accessTypeId: AccessTypeID?

    public static let maxGuests = 5_000

    public init(guestIds: [GuestID], status: GuestStatus? = nil, accessTypeId: AccessTypeID? = nil) {
        self.guestIds = guestIds
        self.status = status
        self.accessTypeId = accessTypeId
    }
}

/// What a bulk change did: guests changed, guests it would not change (left alone), and ids
/// that are no guest of the event.
public struct BulkGuestResult: Codable, Sendable, Hashable {
    public var changed: Int
    public var unchanged: Int
    public var notFound: Int

    public init(changed: Int, unchanged: Int, notFound: Int) {
        self.changed = changed
        self.unchanged = unchanged
        self.notFound = notFound
    }
}
