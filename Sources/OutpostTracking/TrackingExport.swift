import Foundation
import OutpostCore
import OutpostShell

/// Which sessions the history and the export cover.
public enum TrackingRange: String, Codable, Sendable, CaseIterable {
    /// The calendar week (Monday to Sunday) containing now.
    case week
    /// The calendar month containing now.
    case month
    case all

    /// The interval of sessions' clock-ins it covers, in `timeZone`.
    package func interval(containing now: Date, in timeZone: TimeZone) -> Range<Date> {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        let component: Calendar.Component
        switch self {
        case .all: return Date.distantPast..<Date.distantFuture
        case .week: component = .weekOfYear
        case .month: component = .month
        }
        guard let interval = calendar.dateInterval(of: component, for: now) else {
            return Date.distantPast..<Date.distantFuture
        }
        return interval.start..<interval.end
    }
}

/// The work history as CSV: one row per session and day, the day's part of
/// a session that crosses midnight (as the week, the month and the submission count it, from
/// ``WorkHours``). The last column names the location (an export of every
/// location could not tell them apart); it is last so the columns before keep their places.
package enum TrackingExport {
    package static let header = ["Date", "Day", "Clock In", "Clock Out", "Duration", "Method", "Status", "Location"]

    package static func csv(
        _ sessions: [TrackedSession], timeZone: TimeZone, names: [LocationID: String],
        copy: TrackingCopy = TrackingCopy(.en)
    ) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        /// The day's name in the worker's language (Monday is 0).
        struct DayName {
            let calendar: Calendar
            let copy: TrackingCopy
            func string(from date: Date) -> String {
                copy.weekdayName((calendar.component(.weekday, from: date) + 5) % 7)
            }
        }
        let dayName = DayName(calendar: calendar, copy: copy)
        let zone = timeZone.identifier
        let rows = sessions.flatMap { session -> [[String]] in
            let method = session.method == .manual ? "Manual" : "Automatic"
            let status = session.state.rawValue + (session.short ? " (short)" : "")
            let location = names[session.location] ?? "a removed location"
            guard let clockOut = session.clockOut else {
                return [
                    [
                        TimeFormatting.day(session.clockIn, zone), dayName.string(from: session.clockIn),
                        TimeFormatting.time(session.clockIn, zone), "", "", method, status, location,
                    ]
                ]
            }
            return WorkHours.parts(of: session.span(now: clockOut), in: timeZone).map { part in
                // The day's part, less its share of the session's break.
                let minutes = (Int(part.end.timeIntervalSince(part.start)) - part.breakSeconds) / 60
                return [
                    part.day, dayName.string(from: part.start), TimeFormatting.time(part.start, zone),
                    TimeFormatting.time(part.end, zone), String(format: "%d:%02d", minutes / 60, minutes % 60), method,
                    status, location,
                ]
            }
        }
        return CSVWriter.document(header: header, rows: rows)
    }
}
