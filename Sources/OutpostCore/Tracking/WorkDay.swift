import Foundation

/// A worker's calendar day (`YYYY-MM-DD`, seed 003) and the ISO week it belongs to. The day is
/// the worker's own (in their time zone); the week an employer finalises is the ISO 8601 week
/// (Monday to Sunday) that contains it, written `YYYY-Www`. Shared by the device (which days it
/// may submit) and the server (which week a submission falls in).
public enum WorkDay {
    /// The ISO 8601 week of a valid day, as `2026-W48`; nil for anything that is not a day.
    public static func week(of day: String) -> String? {
        guard ActivityDate.isValid(day), let date = start(of: day, in: TimeZone(identifier: "UTC")!) else {
            return nil
        }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        return String(format: "%04d-W%02d", parts.yearForWeekOfYear ?? 0, parts.weekOfYear ?? 0)
    }

    /// True for an ISO week written `YYYY-Www` (weeks 01 to 53, years 2000 to 2100).
    public static func isWeek(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 8, parts.count == 2, parts[1].first == "W", let year = Int(parts[0]),
            let week = Int(parts[1].dropFirst()), parts[0].allSatisfy(\.isNumber),
            parts[1].dropFirst().allSatisfy(\.isNumber)
        else { return false }
        return (2000...2100).contains(year) && (1...53).contains(week)
    }

    /// When `day` begins in `timeZone` (its first instant: midnight, or later on a day whose
    /// midnight a clock change skips).
    public static func start(of day: String, in timeZone: TimeZone) -> Date? {
        guard ActivityDate.isValid(day) else { return nil }
        let parts = day.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let noon = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12))
        else { return nil }
        return calendar.startOfDay(for: noon)
    }

    /// The instants of `day` in `timeZone`: 23, 24 or 25 hours long.
    public static func interval(of day: String, in timeZone: TimeZone) -> Range<Date>? {
        guard let start = start(of: day, in: timeZone) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let next = calendar.date(byAdding: .day, value: 1, to: start) else { return nil }
        return start..<calendar.startOfDay(for: next.addingTimeInterval(12 * 3_600))
    }
}
