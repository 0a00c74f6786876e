import Foundation

/// `GET /v1/events/{eventId}/guests`: one page of the guest list by name (then id), filtered;
/// `next` continues after its last guest (null on the last page), `total` counts every guest
/// the filter matches.
public struct GuestPage: Codable, Sendable, Hashable {
    public var guests: [GuestInfo]
    public var next: String?
    public var total: Int
    /// How many guests the filter matches before this page's first (0 on the first page): the
    /// page shows guests `offset + 1` to `offset + guests.count` of `total`.
    public var offset: Int?

    public init(guests: [GuestInfo], next: String?, total: Int, offset: Int? = nil) {
        self.guests = guests
        self.next = next
        self.total = total
        self.offset = offset
    }
}
