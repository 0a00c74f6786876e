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

/// Where a guest's ticket mail stands: waiting in the server's mail queue (being tried, or
/// waiting to be tried again after the relay did not take it), taken by the relay, or given up.
public enum TicketMailState: String, Codable, Sendable, Hashable, CaseIterable {
    case queued
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
    /// The relay's or the connection's words when the last try failed.
    public var error: String?
    /// When it was queued, sent or given up.
    public var at: Date
    /// When a queued mail is tried next.
    public var nextAttemptAt: Date?

    public init(
        guestId: GuestID, guestName: String, email: String, state: TicketMailState, attempts: Int, error: String?,
        at: Date, nextAttemptAt: Date? = nil
    ) {
        self.guestId = guestId
        self.guestName = guestName
        self.email = email
        self.state = state
        self.attempts = attempts
        self.error = error
        self.at = at
        self.nextAttemptAt = nextAttemptAt
    }
}

/// What one request queued: counts, and the deliveries (by name). The server's mail queue sends
/// them after the answer; `GET …/ticket-mails` shows how each went.
public struct TicketMailReport: Codable, Sendable, Hashable {
    /// Mails handed to the queue (a resend of a mail still waiting makes it due now instead).
    public var queued: Int
    /// Mails that could not be made at all (an address the mail format cannot carry).
    public var failed: Int
    /// Guests left out: already sent or waiting (without `resend`), or not confirmed.
    public var skipped: Int
    public var deliveries: [TicketMailDelivery]

    public init(queued: Int, failed: Int, skipped: Int, deliveries: [TicketMailDelivery]) {
        self.queued = queued
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
