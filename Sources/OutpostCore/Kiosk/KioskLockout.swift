import Foundation

/// The kiosk exit lockout: three wrong passcodes lock the exit for 60 s, the next three for
/// 300 s, then 600 s for every further three. A right passcode resets it. Pure: the caller
/// persists the value (so a relaunch cannot reset it) and passes the time in.
public struct KioskLockout: Codable, Sendable, Hashable {
    /// Lockout lengths in order; the last repeats.
    public static let schedule: [TimeInterval] = [60, 300, 600]
    public static let attemptsPerRound = 3

    /// Wrong passcodes since the last lockout (or reset).
    public private(set) var failures = 0
    /// How many lockouts have happened since the last reset.
    public private(set) var lockouts = 0
    /// While set and in the future, exit attempts are refused without checking the passcode.
    public private(set) var lockedUntil: Date?

    public init() {}

    /// What an exit attempt led to.
    public enum Outcome: Sendable, Hashable {
        /// The passcode was right: leave kiosk mode.
        case unlocked
        /// Wrong; `remaining` attempts before a lockout.
        case wrong(remaining: Int)
        /// Wrong, and the exit is now locked for `seconds`.
        case lockedOut(seconds: TimeInterval)
        /// Still locked: the passcode was not even checked.
        case stillLocked(until: Date)
    }

    /// Seconds of lockout left at `now` (0 when not locked).
    public func remaining(at now: Date) -> TimeInterval {
        guard let lockedUntil, lockedUntil > now else { return 0 }
        return lockedUntil.timeIntervalSince(now)
    }

    /// Feeds one exit attempt; `passcodeIsRight` is consulted only when not locked.
    public mutating func attempt(at now: Date, passcodeIsRight: () -> Bool) -> Outcome {
        if let lockedUntil, lockedUntil > now { return .stillLocked(until: lockedUntil) }
        if passcodeIsRight() {
            self = KioskLockout()
            return .unlocked
        }
        failures += 1
        guard failures >= Self.attemptsPerRound else { return .wrong(remaining: Self.attemptsPerRound - failures) }
        let seconds = Self.schedule[min(lockouts, Self.schedule.count - 1)]
        lockouts += 1
        failures = 0
        lockedUntil = now + seconds
        return .lockedOut(seconds: seconds)
    }
}
