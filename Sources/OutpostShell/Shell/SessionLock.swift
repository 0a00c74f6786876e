import Foundation
import OutpostCore
import OutpostProtocol

/// The lock's settings on this device (sealed, meta key "lock").
package struct LockSettings: Codable, Sendable, Hashable {
    /// Biometric unlock is on: the session's tokens are sealed under a key only the
    /// ``Biometrics`` port releases, and the app is locked on launch and after ``lockAfter``.
    package var biometricUnlock = false
    /// Seconds in the background (or between headless commands) after which the app locks.
    package var lockAfter: TimeInterval = 300
}

/// What the shell knows of the session without unsealing its tokens (sealed under the master
/// key, meta key "session_record"): who is signed in, where, and when the server last accepted
/// the session, for the lock screen and the offline unlock window.
package struct SessionRecord: Codable, Sendable, Hashable {
    package var user: UserInfo
    package var serverURL: String
    package var validatedAt: Date
    package var validatedMonotonic: MonotonicInstant?
    /// How long after the last validation the app may be unlocked without the network (the
    /// tenant's setting, from the server; 72 hours unless it says otherwise).
    package var offlineUnlock: TimeInterval = SessionLock.defaultOfflineUnlock
}

/// The lock's decisions, pure: times in, answers out.
package enum SessionLock {
    package static let defaultOfflineUnlock: TimeInterval = 72 * 3600
    /// A session is validated again (its refresh token rotated) on a sync at most this often.
    package static let validationInterval: TimeInterval = 300

    /// Time since the server last accepted the session: the larger of the wall-clock and the
    /// monotonic measure (same boot), so setting the clock back does not stretch the window.
    package static func sinceValidated(_ record: SessionRecord, now: Date, monotonic: MonotonicInstant) -> TimeInterval
    {
        elapsed(since: record.validatedAt, record.validatedMonotonic, now: now, monotonic: monotonic)
    }

    /// Past the offline window, unlocking needs the server to accept the session first.
    package static func needsNetwork(_ record: SessionRecord, now: Date, monotonic: MonotonicInstant) -> Bool {
        sinceValidated(record, now: now, monotonic: monotonic) > record.offlineUnlock
    }

    /// Whether the app, last in use at `retained`, is still unlocked now.
    package static func staysUnlocked(
        _ retained: RetainedUnlock, lockAfter: TimeInterval, now: Date, monotonic: MonotonicInstant
    ) -> Bool {
        elapsed(since: retained.lastActive, retained.lastActiveMonotonic, now: now, monotonic: monotonic) < lockAfter
    }

    private static func elapsed(
        since wall: Date, _ anchor: MonotonicInstant?, now: Date, monotonic: MonotonicInstant
    ) -> TimeInterval {
        let byWall = now.timeIntervalSince(wall)
        guard let anchor, anchor.boot == monotonic.boot else { return byWall }
        return max(byWall, monotonic.seconds - anchor.seconds)
    }
}
