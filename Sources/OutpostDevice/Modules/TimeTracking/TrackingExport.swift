import Foundation
import OutpostCore

/// Which sessions the history and the export cover.
public enum TrackingRange: String, Codable, Sendable, CaseIterable {
    /// The calendar week (Monday to Sunday) containing now.
    case week
    /// The calendar month containing now.
    case month
    case all

    /// The interval of sessions' clock-ins it covers, in `timeZone`.
    func interval(containing now: Date, in timeZone: TimeZone) -> Range<Date> {
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

/// The work history as CSV (issue 12 item 7): one row per session.
enum TrackingExport {
    static let header = ["Date", "Day", "Clock In", "Clock Out", "Duration", "Method", "Status"]

    static func csv(_ sessions: [TrackedSession], timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let dayName = DateFormatter()
        dayName.locale = Locale(identifier: "en_US_POSIX")
        dayName.timeZone = timeZone
        dayName.dateFormat = "EEEE"
        let rows = sessions.map { session -> [String] in
            let zone = timeZone.identifier
            let minutes = session.minutes
            return [
                TimeFormatting.day(session.clockIn, zone), dayName.string(from: session.clockIn),
                TimeFormatting.time(session.clockIn, zone),
                session.clockOut.map { TimeFormatting.time($0, zone) } ?? "",
                minutes.map { String(format: "%d:%02d", $0 / 60, $0 % 60) } ?? "",
                session.method == .manual ? "Manual" : "Automatic",
                session.state.rawValue + (session.short ? " (short)" : ""),
            ]
        }
        return CSVWriter.document(header: header, rows: rows)
    }
}
