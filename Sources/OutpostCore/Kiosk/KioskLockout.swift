import Foundation

/// The kiosk exit lockout: three wrong passcodes lock the exit for 60 s, the next three for
/// 300 s, then 600 s for every further three. A right passcode resets it. Pure: the caller
/// persists the value (so a relaunch cannot reset it) and passes the time in.
///
/// Time is the device's monotonic clock, never the wall clock, so setting the clock forward
/// does not end a lockout. The lock is kept as what remains of it at an anchor reading; within
/// one boot it runs down with the monotonic clock; after a reboot (a new boot id, the clock back
/// at zero) it resumes from what remained, so a reboot pauses it and never shortens it.
public struct KioskLockout: Codable, Sendable, Hashable {
    /// Lockout lengths in order; the last repeats.
    public static let schedule: [TimeInterval] = [60, 300, 600]
    public static let attemptsPerRound = 3

    /// Wrong passcodes since the last lockout (or reset).
    public private(set) var failures = 0
    /// How many lockouts have happened since the last reset.
    public private(set) var lockouts = 0
    /// Seconds of lock left at `anchor`.
    public private(set) var lockedFor: TimeInterval = 0
    public private(set) var anchor: MonotonicInstant?

    public init() {}

    /// What an exit attempt led to.
    public enum Outcome: Sendable, Hashable {
        /// The passcode was right: leave kiosk mode.
        case unlocked
        /// Wrong; `remaining` attempts before a lockout.
        case wrong(remaining: Int)
        /// Wrong, and the exit is now locked for `seconds`.
        case lockedOut(seconds: TimeInterval)
        /// Still locked for `seconds`: the passcode was not even checked.
        case stillLocked(seconds: TimeInterval)
    }

    /// Seconds of lockout left at `now` (0 when not locked).
    public func remaining(at now: MonotonicInstant) -> TimeInterval {
        guard lockedFor > 0 else { return 0 }
        guard let anchor, anchor.boot == now.boot else { return lockedFor }
        return max(0, lockedFor - max(0, now.seconds - anchor.seconds))
    }

    /// After a reboot, restarts the count-down from what was left (persist the result).
    public mutating func observe(_ now: MonotonicInstant) {
        guard lockedFor > 0, anchor?.boot != now.boot else { return }
        lockedFor = remaining(at: now)
        anchor = now
    }

    /// Feeds one exit attempt; `passcodeIsRight` is consulted only when not locked.
    public mutating func attempt(at now: MonotonicInstant, passcodeIsRight: () -> Bool) -> Outcome {
        observe(now)
        let left = remaining(at: now)
        if left > 0 { return .stillLocked(seconds: left) }
        if passcodeIsRight() {
            self = KioskLockout()
            return .unlocked
        }
        failures += 1
        guard failures >= Self.attemptsPerRound else { return .wrong(remaining: Self.attemptsPerRound - failures) }
        let seconds = Self.schedule[min(lockouts, Self.schedule.count - 1)]
        lockouts += 1
        failures = 0
        lockedFor = seconds
        anchor = now
        return .lockedOut(seconds: seconds)
    }

    /// The stricter of two copies (the device's saved state and its guard record): the one with
    /// more lockouts, then more failures, then more time left.
    public static func stricter(_ a: KioskLockout, _ b: KioskLockout, at now: MonotonicInstant) -> KioskLockout {
        let key = { (lockout: KioskLockout) in (lockout.lockouts, lockout.failures, lockout.remaining(at: now)) }
        return key(a) >= key(b) ? a : b
    }

    private enum CodingKeys: String, CodingKey {
        case failures, lockouts, lockedFor, anchor
        case lockedUntil  // before the monotonic clock
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        failures = try container.decodeIfPresent(Int.self, forKey: .failures) ?? 0
        lockouts = try container.decodeIfPresent(Int.self, forKey: .lockouts) ?? 0
        lockedFor = try container.decodeIfPresent(TimeInterval.self, forKey: .lockedFor) ?? 0
        anchor = try container.decodeIfPresent(MonotonicInstant.self, forKey: .anchor)
        // A lock saved against the wall clock cannot be trusted to have run down: keep the longest.
        if container.contains(.lockedUntil), try !container.decodeNil(forKey: .lockedUntil), lockedFor == 0 {
            lockedFor = Self.schedule.last ?? 600
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(failures, forKey: .failures)
        try container.encode(lockouts, forKey: .lockouts)
        try container.encode(lockedFor, forKey: .lockedFor)
        try container.encodeIfPresent(anchor, forKey: .anchor)
    }
}
