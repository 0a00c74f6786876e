import Foundation

/// A span of tracked work: a session (its end is "now" while it runs) and the break the worker
/// gave it. Seconds are whole: every sum below is exact.
public struct TrackedSpan: Sendable, Hashable {
    public var start: Date
    public var end: Date
    public var breakMinutes: Int
    /// Shorter than five minutes: counted, and flagged for review.
    public var short: Bool

    /// Both ends fall on whole seconds (each rounded to the nearest, so a length is off by at
    /// most a second either way, never always short), and a span's parts between day bounds,
    /// which are whole seconds too, add up exactly.
    public init(start: Date, end: Date, breakMinutes: Int = 0, short: Bool = false) {
        let first = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded())
        self.start = first
        self.end = max(first, Date(timeIntervalSince1970: end.timeIntervalSince1970.rounded()))
        self.breakMinutes = max(0, breakMinutes)
        self.short = short
    }

    var seconds: Int { Int(end.timeIntervalSince(start)) }
    /// The break, never longer than the span.
    var breakSeconds: Int { min(breakMinutes * 60, seconds) }
}

/// A planned shift on a day: its start (minutes after midnight), its length and its break
/// (seed 003's shift instance). A shift past midnight is planned time on both its days.
public struct PlannedSpan: Sendable, Hashable {
    public var day: String
    public var startMinute: Int
    public var durationMinutes: Int
    public var breakMinutes: Int
    /// What the views draw it as (the shift's colour); the hours do not read it.
    public var tag: String?

    public init(day: String, startMinute: Int = 0, durationMinutes: Int, breakMinutes: Int = 0, tag: String? = nil) {
        self.day = day
        self.startMinute = startMinute
        self.durationMinutes = max(0, durationMinutes)
        self.breakMinutes = max(0, min(breakMinutes, durationMinutes))
        self.tag = tag
    }

    public var netMinutes: Int { durationMinutes - breakMinutes }

    /// The shift as time on the clock of `timeZone` (the start counted from the day's
    /// midnight on the wall clock, so 22:00 is 22:00 also on a day a clock change shortens).
    func span(in timeZone: TimeZone) -> TrackedSpan? {
        guard let midnight = WorkDay.start(of: day, in: timeZone) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard
            let start = calendar.date(
                bySettingHour: startMinute / 60, minute: startMinute % 60, second: 0, of: midnight)
        else { return nil }
        return TrackedSpan(
            start: start, end: start.addingTimeInterval(Double(durationMinutes) * 60), breakMinutes: breakMinutes)
    }
}

/// An absence on a day (seed 003): vacation or sick, the whole day or part of it.
public struct AbsenceMark: Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, Hashable {
        case vacation
        case sick
    }

    public var day: String
    public var kind: Kind
    public var fullDay: Bool

    public init(day: String, kind: Kind, fullDay: Bool = true) {
        self.day = day
        self.kind = kind
        self.fullDay = fullDay
    }
}

/// A stretch of one day, in minutes since the day began (elapsed time: on a 25-hour day the
/// last stretch ends at minute 1,500), for the views that draw a day: tracked time, or a shift
/// (`tag`: its colour).
public struct DaySegment: Codable, Sendable, Hashable {
    public var startMinute: Int
    public var endMinute: Int
    public var tag: String?

    public init(startMinute: Int, endMinute: Int, tag: String? = nil) {
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.tag = tag
    }
}

/// One day's hours: what was tracked on it (sessions split at its bounds, breaks allocated in
/// proportion), what was planned, and, on a confirmed day, the overtime.
public struct DayHours: Codable, Sendable, Hashable {
    public var day: String
    /// The day's own length: 1,440 minutes, or 1,380 / 1,500 on a day a clock change shortens
    /// or lengthens.
    public var lengthSeconds: Int
    /// Tracked time on the day, before breaks.
    public var grossSeconds: Int
    /// The breaks allocated to the day.
    public var breakSeconds: Int
    public var plannedMinutes: Int
    public var confirmed: Bool
    /// Sessions under five minutes with time on this day.
    public var shortSessions: Int
    public var absences: [AbsenceMark.Kind]
    /// When on the day time was tracked (the union of the sessions' parts, breaks not taken out).
    public var trackedSegments: [DaySegment] = []
    /// When on the day shifts are planned (a night shift's tail on the day after it began).
    public var plannedSegments: [DaySegment] = []

    /// Tracked time after breaks.
    public var trackedSeconds: Int { grossSeconds - breakSeconds }
    public var trackedMinutes: Int { trackedSeconds / 60 }
    /// Tracked minus planned, on confirmed days only (nil otherwise).
    public var overtimeMinutes: Int? { confirmed ? trackedMinutes - plannedMinutes : nil }
    /// Something happened on the day (time tracked or a shift planned).
    public var hasActivity: Bool { grossSeconds > 0 || plannedMinutes > 0 }
}

/// A month's summary (seed 003's footer): tracked, planned, overtime on confirmed days, the
/// vacation and sick days, and how many of the days with activity are confirmed.
public struct MonthHours: Codable, Sendable, Hashable {
    public var trackedMinutes: Int
    public var plannedMinutes: Int
    public var overtimeMinutes: Int
    public var vacationDays: Int
    public var sickDays: Int
    public var daysWithActivity: Int
    public var confirmedDays: Int
    public var shortSessions: Int

    /// "(X confirmed)": shown when only part of the days with activity are confirmed (the
    /// overtime counts only those).
    public var confirmedNudge: Int? {
        confirmedDays > 0 && confirmedDays < daysWithActivity ? confirmedDays : nil
    }
}

/// Hours, computed once: every view (week, month, dashboard), the CSV and the
/// day submission read their minutes here. Pure.
public enum WorkHours {
    /// The seconds of `span` on each day it touches in `timeZone` (a session across midnight,
    /// or across a clock change, is split at the day's real bounds), with its break allocated
    /// in proportion to those seconds; the parts sum to the whole exactly.
    public static func split(
        _ span: TrackedSpan, in timeZone: TimeZone
    ) -> [(day: String, seconds: Int, breakSeconds: Int)] {
        parts(of: span, in: timeZone).map { ($0.day, Int($0.end.timeIntervalSince($0.start)), $0.breakSeconds) }
    }

    /// The pieces of `span` on each day it touches, with each piece's share of the break.
    public static func parts(
        of span: TrackedSpan, in timeZone: TimeZone
    )
        -> [(day: String, start: Date, end: Date, breakSeconds: Int)]
    {
        var parts: [(day: String, start: Date, end: Date)] = []
        var cursor = span.start
        while cursor < span.end {
            let day = ActivityDate.day(of: cursor, in: timeZone)
            let bounds = WorkDay.interval(of: day, in: timeZone) ?? cursor..<span.end
            let stop = min(bounds.upperBound, span.end)
            parts.append((day, cursor, stop))
            cursor = stop > cursor ? stop : span.end
        }
        let breaks = allocate(span.breakSeconds, over: parts.map { Int($0.end.timeIntervalSince($0.start)) })
        return zip(parts, breaks).map { ($0.day, $0.start, $0.end, $1) }
    }

    /// `amount` split in proportion to `weights`, whole units, summing to `amount` exactly
    /// (largest remainder).
    static func allocate(_ amount: Int, over weights: [Int]) -> [Int] {
        let total = weights.reduce(0, +)
        guard total > 0 else { return weights.map { _ in 0 } }
        var shares = weights.map { amount * $0 / total }
        var remainders = weights.enumerated().map { ($0.offset, amount * $0.element % total) }
        remainders.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        for (index, _) in remainders.prefix(amount - shares.reduce(0, +)) { shares[index] += 1 }
        return shares
    }

    /// The hours of every day from `first` to `last` (inclusive, `YYYY-MM-DD`) in `timeZone`.
    public static func days(
        from first: String, to last: String, sessions: [TrackedSpan], planned: [PlannedSpan] = [],
        absences: [AbsenceMark] = [], confirmed: Set<String> = [], in timeZone: TimeZone
    ) -> [DayHours] {
        var result: [String: DayHours] = [:]
        var order: [String] = []
        var day = first
        while day <= last, let bounds = WorkDay.interval(of: day, in: timeZone) {
            result[day] = DayHours(
                day: day, lengthSeconds: Int(bounds.upperBound.timeIntervalSince(bounds.lowerBound)), grossSeconds: 0,
                breakSeconds: 0, plannedMinutes: 0, confirmed: confirmed.contains(day), shortSessions: 0, absences: [])
            order.append(day)
            guard let next = next(day, in: timeZone) else { break }
            day = next
        }
        // Time worked is the union of the sessions (clocked in at two places at once is one
        // hour, not two): a day never holds more than its length.
        var spans: [String: [(start: Date, end: Date)]] = [:]
        var breaks: [String: Int] = [:]
        for session in sessions {
            for part in parts(of: session, in: timeZone) where result[part.day] != nil {
                spans[part.day, default: []].append((part.start, part.end))
                breaks[part.day, default: 0] += part.breakSeconds
                if session.short { result[part.day]!.shortSessions += 1 }
            }
        }
        for (day, intervals) in spans {
            let merged = union(intervals)
            let gross = merged.reduce(0) { $0 + Int($1.end.timeIntervalSince($1.start)) }
            result[day]!.grossSeconds = gross
            result[day]!.breakSeconds = min(breaks[day] ?? 0, gross)
            if let midnight = WorkDay.start(of: day, in: timeZone) {
                result[day]!.trackedSegments = merged.map { segment($0.start, $0.end, from: midnight, tag: nil) }
            }
        }
        // Planned time is split like tracked time: a night shift is planned on both its days.
        var plannedSeconds: [String: Int] = [:]
        for shift in planned {
            guard let span = shift.span(in: timeZone) else { continue }
            for part in parts(of: span, in: timeZone) {
                plannedSeconds[part.day, default: 0] += Int(part.end.timeIntervalSince(part.start)) - part.breakSeconds
                if result[part.day] != nil, let midnight = WorkDay.start(of: part.day, in: timeZone) {
                    result[part.day]!.plannedSegments.append(
                        segment(part.start, part.end, from: midnight, tag: shift.tag))
                }
            }
        }
        for (day, seconds) in plannedSeconds where result[day] != nil { result[day]!.plannedMinutes = seconds / 60 }
        for absence in absences where result[absence.day] != nil { result[absence.day]!.absences.append(absence.kind) }
        return order.compactMap { result[$0] }
    }

    /// The intervals merged where they overlap or touch, in order.
    static func union(_ intervals: [(start: Date, end: Date)]) -> [(start: Date, end: Date)] {
        var merged: [(start: Date, end: Date)] = []
        for interval in intervals.sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1].end = max(last.end, interval.end)
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// `start..<end` as whole minutes since `midnight`, widened to the minutes it touches.
    static func segment(_ start: Date, _ end: Date, from midnight: Date, tag: String?) -> DaySegment {
        let from = start.timeIntervalSince(midnight) / 60
        let to = end.timeIntervalSince(midnight) / 60
        return DaySegment(startMinute: Int(from.rounded(.down)), endMinute: Int(to.rounded(.up)), tag: tag)
    }

    /// The month's summary of `days`.
    public static func month(_ days: [DayHours]) -> MonthHours {
        MonthHours(
            trackedMinutes: days.reduce(0) { $0 + $1.trackedSeconds } / 60,
            plannedMinutes: days.reduce(0) { $0 + $1.plannedMinutes },
            overtimeMinutes: days.compactMap(\.overtimeMinutes).reduce(0, +),
            vacationDays: days.filter { $0.absences.contains(.vacation) }.count,
            sickDays: days.filter { $0.absences.contains(.sick) }.count,
            daysWithActivity: days.filter(\.hasActivity).count,
            confirmedDays: days.filter { $0.confirmed && $0.hasActivity }.count,
            shortSessions: days.reduce(0) { $0 + $1.shortSessions })
    }

    /// The day after `day`.
    public static func next(_ day: String, in timeZone: TimeZone) -> String? {
        guard let bounds = WorkDay.interval(of: day, in: timeZone) else { return nil }
        return ActivityDate.day(of: bounds.upperBound.addingTimeInterval(1), in: timeZone)
    }
}
