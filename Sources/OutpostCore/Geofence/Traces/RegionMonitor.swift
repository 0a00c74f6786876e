import Foundation

/// A boundary event as the platform delivers it.
public struct BoundaryEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case enter
        case exit
    }

    public var kind: Kind
    /// When the crossing happened.
    public var occurred: Date
    /// When the app got it (late on iOS by minutes, on Android in Doze by hours; at power-on
    /// when the phone was off).
    public var delivered: Date
    /// The event's own location, when the platform attaches one.
    public var fix: GeoFix?
}

/// The OS region monitor, modelled: a crossing is reported once the positions have stayed on
/// the other side of the boundary for the dwell time (iOS waits about 20 seconds), delivered
/// after the platform's delay; crossings while the phone is off are not delivered, and at
/// power-on the state found is reported when it differs from the last one delivered.
public enum RegionMonitor {
    public static let dwell: TimeInterval = 20

    public static func events(for trace: GeoTrace) -> [BoundaryEvent] {
        let fence = trace.fence
        guard let first = trace.fixes.first else { return [] }
        var reported = fence.center.distance(to: first.point) < fence.radius
        var state = reported
        var candidateSince: Date?
        var events: [BoundaryEvent] = []
        var wasOff = false
        for fix in trace.fixes {
            let off = trace.platform.isOff(at: fix.time)
            let inside = fence.center.distance(to: fix.point) < fence.radius
            if off {
                wasOff = true
                // The physical state moves on; nothing is reported.
                state = inside
                candidateSince = nil
                continue
            }
            if wasOff {
                wasOff = false
                state = inside
                if inside != reported {
                    events.append(event(inside ? .enter : .exit, at: fix.time, delivered: fix.time, fix: fix, trace))
                    reported = inside
                }
                continue
            }
            if inside == state {
                candidateSince = nil
                continue
            }
            let since = candidateSince ?? fix.time
            candidateSince = since
            guard fix.time.timeIntervalSince(since) >= dwell else { continue }
            state = inside
            candidateSince = nil
            let delay = inside ? trace.platform.enterDelay : trace.platform.exitDelay
            let delivered = trace.platform.nextOn(from: fix.time.addingTimeInterval(delay))
            events.append(event(inside ? .enter : .exit, at: fix.time, delivered: delivered, fix: fix, trace))
            reported = inside
        }
        return events.sorted { $0.delivered < $1.delivered }
    }

    private static func event(
        _ kind: BoundaryEvent.Kind, at occurred: Date, delivered: Date, fix: TraceFix, _ trace: GeoTrace
    ) -> BoundaryEvent {
        BoundaryEvent(
            kind: kind, occurred: occurred, delivered: delivered,
            fix: trace.platform.eventsCarryFix ? GeoFix(fix.point, accuracy: fix.accuracy, source: .event) : nil)
    }
}
