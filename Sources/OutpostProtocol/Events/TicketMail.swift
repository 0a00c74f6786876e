import Foundation
import OutpostCore

/// `POST /v1/events/{eventId}/ticket-mails`: e-mail guests their tickets. Without `guestIds`,
/// every confirmed guest who has not been sent one (with `resend`, every confirmed guest).
public struct TicketMailRequest: Codable, Sendable, Hashable {
    public var guestIds: [GuestID]?
    public var resend: Bool?

    public init(guestIds: [GuestID]? = nil, resend: Bool? = nil) {
        self.guestIds = guestIds
        self.resend = resend
    }
}

/// Where a guest's ticket mail stands: the relay took it, or it did not (and why).
public enum TicketMailState: String, Codable, Sendable, Hashable, CaseIterable {
    case sent
    case failed
}

public struct TicketMailDelivery: Codable, Sendable, Hashable {
    public var guestId: GuestID
    public var guestName: String
    public var email: String
    public var state: TicketMailState
    /// How many times it was tried, resends included.
    public var attempts: Int
    /// The relay's or the connection's words when it failed.
    public var error: String?
    public var at: Date

    public init(
        guestId: GuestID, guestName: String, email: String, state: TicketMailState, attempts: Int, error: String?,
        at: Date
    ) {
        self.guestId = guestId
        self.guestName = guestName
        self.email = email
        self.state = state
        self.attempts = attempts
        self.error = error
        self.at = at
    }
}

/// What one request sent: counts, and the deliveries it made (by name).
public struct TicketMailReport: Codable, Sendable, Hashable {
    public var sent: Int
    public var failed: Int
    /// Guests left out: already sent (without `resend`), or not confirmed.
    public var skipped: Int
    public var deliveries: [TicketMailDelivery]

    public init(sent: Int, failed: Int, skipped: Int, deliveries: [TicketMailDelivery]) {
        self.sent = sent
        self.failed = failed
        self.skipped = skipped
        self.deliveries = deliveries
    }
}

/// `GET /v1/events/{eventId}/ticket-mails`: every guest's last ticket mail, by name.
public struct TicketMailList: Codable, Sendable, Hashable {
    public var deliveries: [TicketMailDelivery]

    public init(deliveries: [TicketMailDelivery]) { self.deliveries = deliveries }
}
