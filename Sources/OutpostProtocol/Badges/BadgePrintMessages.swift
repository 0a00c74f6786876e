import Foundation
import OutpostCore

/// A badge that came out of a printer, as the device tells the server (its outbox, idempotent
/// by the print's id): `PUT /v1/events/{eventId}/badge-prints/{printId}`. A reprint is counted
/// and audited (who asked, why).
public struct BadgePrintRecord: Codable, Sendable, Hashable {
    public var id: BadgePrintID
    public var guestId: GuestID
    /// A badge for a guest who had one: asked for by staff, never automatic.
    public var reprint: Bool
    /// Why staff reprinted ("lost it", "name misspelt"); nil for a first print.
    public var reason: String?
    public var deviceId: String
    /// The device's clock when the printer finished.
    public var printedAt: Date

    public init(
        id: BadgePrintID, guestId: GuestID, reprint: Bool, reason: String?, deviceId: String, printedAt: Date
    ) {
        self.id = id
        self.guestId = guestId
        self.reprint = reprint
        self.reason = reason
        self.deviceId = deviceId
        self.printedAt = printedAt
    }

    public static let maxReasonLength = 200
}

/// A print as the server keeps it: who printed it and when it arrived.
public struct StoredBadgePrint: Codable, Sendable, Hashable {
    public var record: BadgePrintRecord
    public var byName: String
    public var guestName: String
    public var at: Date

    public init(record: BadgePrintRecord, byName: String, guestName: String, at: Date) {
        self.record = record
        self.byName = byName
        self.guestName = guestName
        self.at = at
    }
}

/// `GET /v1/events/{eventId}/badge-prints`: the event's prints, newest first, and the counts.
public struct BadgePrintList: Codable, Sendable, Hashable {
    public var prints: [StoredBadgePrint]
    public var printed: Int
    public var reprinted: Int

    public init(prints: [StoredBadgePrint], printed: Int, reprinted: Int) {
        self.prints = prints
        self.printed = printed
        self.reprinted = reprinted
    }
}
