import Foundation

/// Every number and rule of the geofence engine, in one value. Two profiles are named:
/// ``seed`` (seed 003 as written, the default) and ``field`` (what its authors changed after
/// failures in the field).
public struct HysteresisPolicy: Codable, Sendable, Hashable {
    public var name: String
    /// How long an exit waits, pending, before it can be confirmed.
    public var pendingExit: TimeInterval
    /// An exit whose fix is better than this (metres) clocks out at once.
    public var immediateExitAccuracy: Double
    /// Exits with a fix worse than this (metres) are ignored; nil: no absolute gate.
    public var ignoreExitAccuracyAbove: Double?
    /// An exit's accuracy this many times worse than the check-in's is degraded.
    public var degradationFactor: Double
    /// A degraded exit is ignored (seed); otherwise it only blocks the immediate clock-out and
    /// waits pending (field).
    public var degradedExitIsIgnored: Bool
    /// Whether degradation is judged on active-fetch fixes too (field: only on the event's own).
    public var degradationAppliesToActiveFetch: Bool
    /// Events of one location closer together than this are debounced (the second is ignored).
    public var debounce: TimeInterval
    /// A pending exit older than this is confirmed by any tick (timer, foreground, event).
    public var stalePendingExit: TimeInterval
    /// An ENTER without a fix, or with one confidently outside the fence, is ignored.
    public var validatesEnter: Bool
    /// The exit verification checks, after the exit (the last one decides).
    public var verificationChecks: [TimeInterval]
    /// A session shorter than this is kept and flagged for review.
    public var shortSession: TimeInterval

    /// Seed 003 as written: four layers (100 m gate, 3× degradation, 5-min pending, re-entry
    /// cancels), immediate below 50 m, 10 s debounce, stale after 24 h.
    public static let seed = HysteresisPolicy(
        name: "seed", pendingExit: 300, immediateExitAccuracy: 50, ignoreExitAccuracyAbove: 100, degradationFactor: 3,
        degradedExitIsIgnored: true, degradationAppliesToActiveFetch: true, debounce: 10, stalePendingExit: 24 * 3600,
        validatesEnter: false, verificationChecks: [60, 180, 300], shortSession: 300)

    /// The rules after the field failures: no absolute gate, degradation only delays, stale
    /// after 10 minutes ("bias toward logging out"), ENTER validated.
    public static let field = HysteresisPolicy(
        name: "field", pendingExit: 300, immediateExitAccuracy: 50, ignoreExitAccuracyAbove: nil, degradationFactor: 3,
        degradedExitIsIgnored: false, degradationAppliesToActiveFetch: false, debounce: 10, stalePendingExit: 600,
        validatesEnter: true, verificationChecks: [60, 180, 300], shortSession: 300)

    public static let profiles = [seed, field]

    public static func named(_ name: String) -> HysteresisPolicy? { profiles.first { $0.name == name } }
}
