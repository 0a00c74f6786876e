import Foundation
import OutpostCore
import OutpostShell

/// A work location: a named fence the OS monitors (sealed on the device: where someone works
/// is personal).
public struct WorkLocation: Codable, Sendable, Hashable {
    public var id: LocationID
    public var name: String
    public var fence: Fence

    /// iOS monitors at most 20 regions per app.
    public static let monitoredLimit = 20
    /// The seed's default radius.
    public static let defaultRadius: Double = 100
    public static let radiusRange: ClosedRange<Double> = 50...5_000

    public init(id: LocationID, name: String, fence: Fence) {
        self.id = id
        self.name = name
        self.fence = fence
    }
}

/// A tracked session as the store keeps it. The seed's invariant holds for every row (the
/// store's CHECK constraints refuse anything else): no clock-out ⇔ active or pending exit; a
/// clock-out ⇔ completed.
public struct TrackedSession: Codable, Sendable, Hashable {
    public enum State: String, Codable, Sendable, Hashable {
        case active
        case pendingExit = "pending_exit"
        case completed
    }

    public var id: UUID
    public var location: LocationID
    public var clockIn: Date
    public var clockOut: Date?
    public var state: State
    public var method: TrackingMethod
    public var pendingExitAt: Date?
    public var checkInAccuracy: Double?
    public var exitAccuracy: Double?
    /// Shorter than five minutes: kept, and flagged for the worker to review.
    public var short: Bool
    /// The break the worker gave the session, in minutes.
    public var breakMinutes: Int = 0
    /// The times as tracked, when the worker corrected them (nil: as tracked).
    public var trackedClockIn: Date?
    public var trackedClockOut: Date?

    /// Whether the worker changed its start or end.
    public var corrected: Bool { trackedClockIn != nil }

    public var minutes: Int? { clockOut.map { Int($0.timeIntervalSince(clockIn) / 60) } }

    /// The longest session a worker can enter by hand: 24 hours. Refused rather than flagged:
    /// a longer span is a typing mistake (a wrong day or month) far more often than a real
    /// shift, a flag would still put the hours on the days until someone reads it, and a
    /// forgotten clock-out is mended by correcting that session, not by entering another.
    public static let longestManual: TimeInterval = 24 * 3600
    /// The session as the hours count it (running sessions end `now`).
    public func span(now: Date) -> TrackedSpan {
        TrackedSpan(start: clockIn, end: clockOut ?? now, breakMinutes: breakMinutes, short: short)
    }
}
