import Foundation

/// What a ticket says: which key signed it, and for whom.
public struct TicketPayload: Hashable, Sendable {
    public var keyID: TicketKeyID
    public var tenantId: UUID
    public var eventId: UUID
    public var guestId: UUID
    /// Whole seconds since 1970 (the ticket stores no finer precision).
    public var issuedAt: Date

    public init(keyID: TicketKeyID, tenantId: UUID, eventId: UUID, guestId: UUID, issuedAt: Date) {
        self.keyID = keyID
        self.tenantId = tenantId
        self.eventId = eventId
        self.guestId = guestId
        self.issuedAt = Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down))
    }
}
