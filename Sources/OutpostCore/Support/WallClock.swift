import Foundation

/// The time source every decision in Outpost reads, injected so tests never sleep.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) { self.read = read }

    /// The current instant.
    public func now() -> Date { read() }

    /// The system clock.
    public static let system = WallClock { Date() }
}

extension Date {
    /// Milliseconds since 1970, the storage and wire precision of every Outpost timestamp.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    public init(millisecondsSince1970 millis: Int64) {
        self.init(timeIntervalSince1970: Double(millis) / 1000)
    }
}

/// A clock that moves only when told to; for tests and simulations. It keeps a monotonic
/// reading beside the wall time: ``advance(by:)`` moves both (time passes), ``set(_:)`` moves
/// only the wall time (someone changed the clock), ``reboot()`` starts a new boot.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var elapsed: TimeInterval = 0
    private var boot = 1

    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = start }

    public var now: Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) {
        lock.withLock {
            current += seconds
            elapsed += seconds
        }
    }

    public func set(_ date: Date) { lock.withLock { current = date } }

    /// The device restarts: the monotonic clock begins again at zero under a new boot.
    public func reboot() {
        lock.withLock {
            boot += 1
            elapsed = 0
        }
    }

    /// A `WallClock` reading this manual clock.
    public var wallClock: WallClock { WallClock { [self] in self.now } }

    /// A `MonotonicClock` reading this manual clock.
    public var monotonicClock: MonotonicClock {
        MonotonicClock { [self] in lock.withLock { MonotonicInstant(boot: "manual-\(boot)", seconds: elapsed) } }
    }
}
