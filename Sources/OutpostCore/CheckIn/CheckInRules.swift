import Foundation

/// Whether a guest may be admitted at all.
public enum GuestStatus: String, Sendable, Codable, CaseIterable {
    case confirmed
    case cancelled
    case revoked

    public var isAdmissible: Bool { self == .confirmed }
}

/// How a check-in was captured.
public enum CheckInMethod: String, Sendable, Codable, CaseIterable {
    case qr
    case manual
    case kiosk
    /// Added at the door and checked in in the same step (the Walk-Ins tab).
    case walkIn = "walk_in"
}

/// What the deciding side knows about the guest a scan names.
public struct GuestFacts: Sendable, Hashable {
    public var eventId: UUID
    public var status: GuestStatus
    /// When the guest was first checked in, if ever.
    public var checkedInAt: Date?

    public init(eventId: UUID, status: GuestStatus, checkedInAt: Date?) {
        self.eventId = eventId
        self.status = status
        self.checkedInAt = checkedInAt
    }
}

/// The outcome of a check-in attempt, before anything is written.
public enum CheckInDecision: Sendable, Hashable {
    /// First check-in: write the check-in row.
    case checkIn
    /// Already checked in; information, not an error.
    case alreadyCheckedIn
    /// Already checked in and the caller asked to re-confirm: append, never a second row.
    case reconfirm
    /// Cancelled or revoked.
    case notAdmissible
    /// Unknown guest, or a guest of another event (the caller cannot tell which).
    case notFound
}

/// How a repeated scan of a checked-in guest is recorded.
public enum RepeatKind: String, Sendable, Codable {
    /// Within the dedupe window of the first check-in: two staff racing on one guest.
    case concurrent
    /// Later than the window.
    case `repeat`
}

/// The check-in decision, shared by the server and the device so both refuse the same things.
public enum CheckInRules {
    /// Decides a check-in attempt for `eventId`.
    ///
    /// Order matters: a guest of another event is `notFound` whatever its status (anti-probing);
    /// a cancelled or revoked guest is refused even if it was checked in before.
    public static func decide(guest: GuestFacts?, eventId: UUID, reconfirm: Bool) -> CheckInDecision {
        guard let guest, guest.eventId == eventId else { return .notFound }
        guard guest.status.isAdmissible else { return .notAdmissible }
        if guest.checkedInAt != nil { return reconfirm ? .reconfirm : .alreadyCheckedIn }
        return .checkIn
    }

    /// Classifies a repeated scan against the first check-in's server time.
    public static func repeatKind(firstAt: Date, now: Date, dedupeWindow: TimeInterval) -> RepeatKind {
        now.timeIntervalSince(firstAt) <= dedupeWindow ? .concurrent : .repeat
    }
}
