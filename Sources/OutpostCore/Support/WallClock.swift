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

/// A clock that moves only when told to; for tests and simulations.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = start }

    public var now: Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }

    public func set(_ date: Date) { lock.withLock { current = date } }

    /// A `WallClock` reading this manual clock.
    public var wallClock: WallClock { WallClock { [self] in self.now } }
}
