import Foundation

/// One position of a trace: what the phone's location services said at `time`. `gps` false is
/// a coarse position only the OS region monitor has (cell towers, Wi-Fi: a tunnel, a garage),
/// which an active GPS fetch cannot return.
public struct TraceFix: Codable, Sendable, Hashable {
    public var time: Date
    public var point: GeoPoint
    public var accuracy: Double
    public var gps: Bool

    public init(time: Date, point: GeoPoint, accuracy: Double, gps: Bool = true) {
        self.time = time
        self.point = point
        self.accuracy = accuracy
        self.gps = gps
    }
}

/// A span of time, `start..<end`.
public struct TraceInterval: Codable, Sendable, Hashable {
    public var start: Date
    public var end: Date

    public init(_ start: Date, _ end: Date) {
        self.start = start
        self.end = end
    }

    public var duration: TimeInterval { end.timeIntervalSince(start) }
    public func contains(_ date: Date) -> Bool { date >= start && date < end }
}

/// How the phone's platform behaves around a trace: how late it delivers boundary events,
/// when it is switched off (dead battery), when the worker opens the app.
public struct TracePlatform: Codable, Sendable, Hashable {
    /// How late the OS delivers an EXIT (iOS: minutes; Android in Doze: hours).
    public var exitDelay: TimeInterval
    public var enterDelay: TimeInterval
    /// Whether boundary events carry their own location (usually not: the app fetches one).
    public var eventsCarryFix: Bool
    /// The phone is off: no events, no checks, no fixes. At power-on the OS reports the region
    /// state it finds.
    public var phoneOff: [TraceInterval]
    /// When the worker opens the app (the foreground rule runs).
    public var foregrounds: [Date]

    public init(
        exitDelay: TimeInterval = 0, enterDelay: TimeInterval = 0, eventsCarryFix: Bool = false,
        phoneOff: [TraceInterval] = [], foregrounds: [Date] = []
    ) {
        self.exitDelay = exitDelay
        self.enterDelay = enterDelay
        self.eventsCarryFix = eventsCarryFix
        self.phoneOff = phoneOff
        self.foregrounds = foregrounds
    }

    public func isOff(at date: Date) -> Bool { phoneOff.contains { $0.contains(date) } }
    /// When the phone is next on at or after `date`.
    public func nextOn(from date: Date) -> Date {
        phoneOff.first { $0.contains(date) }.map(\.end) ?? date
    }
}

/// A day (or any stretch) of a worker's positions around one work location: the fixes in time
/// order, the platform's behaviour, and, for synthetic traces, when they were really inside.
public struct GeoTrace: Codable, Sendable, Hashable {
    public var name: String
    public var fence: Fence
    public var fixes: [TraceFix]
    public var platform: TracePlatform
    /// When the worker was really inside the fence (known for synthetic traces).
    public var truth: [TraceInterval]?

    public init(
        name: String, fence: Fence, fixes: [TraceFix], platform: TracePlatform = TracePlatform(),
        truth: [TraceInterval]? = nil
    ) {
        self.name = name
        self.fence = fence
        self.fixes = fixes.sorted { $0.time < $1.time }
        self.platform = platform
        self.truth = truth
    }

    public var start: Date { fixes.first?.time ?? .distantPast }
    public var end: Date { fixes.last?.time ?? .distantPast }

    /// What an active GPS fetch at `date` returns: the nearest GPS fix within 30 seconds, none
    /// while the phone is off or GPS has nothing (a tunnel).
    public func activeFetch(at date: Date) -> GeoFix? {
        guard !platform.isOff(at: date) else { return nil }
        let candidates = fixes.filter { $0.gps && abs($0.time.timeIntervalSince(date)) <= 30 }
        guard
            let nearest = candidates.min(by: {
                abs($0.time.timeIntervalSince(date)) < abs($1.time.timeIntervalSince(date))
            })
        else { return nil }
        return GeoFix(nearest.point, accuracy: nearest.accuracy, source: .activeFetch)
    }
}

/// Everything of a trace but its fixes (which live in a GPX or CSV file beside it): the fence,
/// the platform's behaviour and the truth. Written next to a generated trace as
/// `NAME.manifest.json`.
public struct TraceManifest: Codable, Sendable, Hashable {
    public var name: String
    public var fence: Fence
    public var platform: TracePlatform
    public var truth: [TraceInterval]?

    public init(_ trace: GeoTrace) {
        name = trace.name
        fence = trace.fence
        platform = trace.platform
        truth = trace.truth
    }

    public func trace(fixes: [TraceFix]) -> GeoTrace {
        GeoTrace(name: name, fence: fence, fixes: fixes, platform: platform, truth: truth)
    }
}
