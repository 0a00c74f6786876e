import Foundation

/// When to try an outbox entry again: exponential in the number of failed attempts, capped,
/// with "equal jitter" (half fixed, half random) so a fleet of devices coming back online does
/// not retry in lockstep. Pure: the random source is injected.
public struct OutboxBackoff: Sendable {
    public var base: TimeInterval = 1
    public var cap: TimeInterval = 60

    public init(base: TimeInterval = 1, cap: TimeInterval = 60) {
        self.base = base
        self.cap = cap
    }

    /// The delay after `attempts` failures (1 for the first failure).
    public func delay(afterAttempts attempts: Int, random: (ClosedRange<Double>) -> Double) -> TimeInterval {
        let exponent = min(max(attempts - 1, 0), 30)
        let ceiling = min(cap, base * pow(2, Double(exponent)))
        return ceiling / 2 + random(0...1) * ceiling / 2
    }
}
