import Foundation

/// A session a replay produced.
public struct ReplayedSession: Codable, Sendable, Hashable {
    public var clockIn: Date
    /// Nil when the session was still open at the end of the trace.
    public var clockOut: Date?
    public var reason: ClockOutReason?

    public init(clockIn: Date, clockOut: Date?, reason: ClockOutReason?) {
        self.clockIn = clockIn
        self.clockOut = clockOut
        self.reason = reason
    }
}

/// What a replay of a trace under one policy gave.
public struct TraceReplayResult: Sendable, Hashable {
    public var policy: String
    public var sessions: [ReplayedSession]
    /// Every engine record, ignored ones with their reason.
    public var records: [GeofenceRecord]
    /// Minutes the sessions differ from the truth (counted both ways: time tracked while
    /// outside, and time inside not tracked), open sessions counted to the trace's end; nil
    /// without a truth.
    public var minutesOff: Int?
    public var trackedMinutes: Int
}

/// Replays a trace through the engine on simulated time: the region monitor's boundary events
/// (each with an active GPS fetch, as the app makes one), the verification checks the engine
/// schedules (each with a fetch; lost while the phone is off), and the worker's foregrounds.
public enum TraceReplay {
    public static func run(
        _ trace: GeoTrace, policy: HysteresisPolicy, location: LocationID = LocationID.random()
    )
        -> TraceReplayResult
    {
        enum Step {
            case boundary(BoundaryEvent)
            case check
            case foreground
        }
        var steps: [(time: Date, order: Int, step: Step)] = []
        var order = 0
        func push(_ time: Date, _ step: Step) {
            steps.append((time, order, step))
            order += 1
        }
        for event in RegionMonitor.events(for: trace) { push(event.delivered, .boundary(event)) }
        for foreground in trace.platform.foregrounds where !trace.platform.isOff(at: foreground) {
            push(foreground, .foreground)
        }
        var engine = GeofenceEngine(policy: policy)
        var sessions: [ReplayedSession] = []
        var records: [GeofenceRecord] = []
        var checks: Set<Date> = []
        while let next = steps.indices.min(by: { (steps[$0].time, steps[$0].order) < (steps[$1].time, steps[$1].order) }
        ) {
            let (time, _, step) = steps.remove(at: next)
            let event: GeofenceEvent
            switch step {
            case .boundary(let boundary):
                let fix = boundary.fix ?? trace.activeFetch(at: time)
                event =
                    boundary.kind == .enter
                    ? .enter(location, trace.fence, fix: fix) : .exit(location, trace.fence, fix: fix)
            case .check:
                guard checks.remove(time) != nil else { continue }
                event = .verification(location, trace.fence, fix: trace.activeFetch(at: time))
            case .foreground:
                event = .foreground
            }
            let outcome = engine.handle(event, at: time)
            if let record = outcome.record { records.append(record) }
            for decision in outcome.decisions {
                switch decision {
                case .clockIn(_, let at, _, _):
                    sessions.append(ReplayedSession(clockIn: at, clockOut: nil, reason: nil))
                case .clockOut(_, _, let at, _, let reason, _):
                    if let index = sessions.lastIndex(where: { $0.clockOut == nil }) {
                        sessions[index].clockOut = at
                        sessions[index].reason = reason
                    }
                case .scheduleVerification(_, let dates):
                    // A check falls due only while the phone is on.
                    for date in dates where !trace.platform.isOff(at: date) {
                        checks.insert(date)
                        push(date, .check)
                    }
                case .cancelVerification:
                    checks.removeAll()
                case .pendingExit, .exitCancelled:
                    break
                }
            }
        }
        let end = max(trace.end, sessions.compactMap(\.clockOut).max() ?? trace.end)
        let tracked = sessions.map { TraceInterval($0.clockIn, $0.clockOut ?? end) }
        return TraceReplayResult(
            policy: policy.name, sessions: sessions, records: records,
            minutesOff: trace.truth.map { Int((TraceScore.difference(tracked, $0) / 60).rounded()) },
            trackedMinutes: Int((tracked.reduce(0) { $0 + $1.duration } / 60).rounded()))
    }
}

/// How far two sets of intervals are apart: the length of their symmetric difference.
public enum TraceScore {
    public static func difference(_ a: [TraceInterval], _ b: [TraceInterval]) -> TimeInterval {
        let left = union(a)
        let right = union(b)
        return length(left) + length(right) - 2 * overlap(left, right)
    }

    static func union(_ intervals: [TraceInterval]) -> [TraceInterval] {
        var merged: [TraceInterval] = []
        for interval in intervals.filter({ $0.end > $0.start }).sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1].end = max(last.end, interval.end)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    static func length(_ intervals: [TraceInterval]) -> TimeInterval { intervals.reduce(0) { $0 + $1.duration } }

    static func overlap(_ a: [TraceInterval], _ b: [TraceInterval]) -> TimeInterval {
        var total: TimeInterval = 0
        for x in a {
            for y in b {
                let start = max(x.start, y.start)
                let end = min(x.end, y.end)
                if end > start { total += end.timeIntervalSince(start) }
            }
        }
        return total
    }
}
