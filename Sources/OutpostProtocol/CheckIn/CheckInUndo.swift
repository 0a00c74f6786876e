import Foundation
import OutpostCore

/// `POST /v1/events/{eventId}/checkins/{checkInId}/undo`: why the check-in is taken back.
public struct UndoCheckInRequest: Codable, Sendable, Hashable {
    /// Said in words ("scanned the wrong guest"); kept with the check-in and in the audit log.
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    /// The longest reason kept.
    public static let maxReason = 500
}

/// A check-in taken back: the check-in as it was, kept whole, and who took it back, when and why.
/// The guest is not checked in from then on; the doors learn it at their next roster sync.
public struct UndoneCheckIn: Codable, Sendable, Hashable {
    public var checkIn: CheckInRecord
    public var undoneAt: Date
    public var undoneByName: String
    public var reason: String

    public init(checkIn: CheckInRecord, undoneAt: Date, undoneByName: String, reason: String) {
        self.checkIn = checkIn
        self.undoneAt = undoneAt
        self.undoneByName = undoneByName
        self.reason = reason
    }
}
