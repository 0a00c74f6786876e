import Foundation

/// A calendar day as `YYYY-MM-DD` (the day an activity happened, in the mentor's own terms: no
/// time zone). Shared by the server's validation and the device's form.
public enum ActivityDate {
    /// True for a real day between 2000 and 2100 written as `YYYY-MM-DD`.
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (2000...2100).contains(year), (1...12).contains(month), day >= 1
        else { return false }
        let days = [
            31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
        ]
        return day <= days[month - 1]
    }

    /// The day `date` falls on in `timeZone`, as `YYYY-MM-DD`.
    /// True when `day` lies after the day that follows `now`'s day in `timeZone`: a visit cannot
    /// have happened then. The day of tolerance keeps a mentor whose phone is a zone ahead (or
    /// just past midnight) from being refused. The server, which keeps no tenant time zone,
    /// asks in UTC: the latest zone is UTC+14, within the tolerance.
    public static func isAfterTomorrow(_ day: String, now: Date, in timeZone: TimeZone) -> Bool {
        day > Self.day(of: now.addingTimeInterval(86_400), in: timeZone)
    }

    public static func day(of date: Date, in timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
