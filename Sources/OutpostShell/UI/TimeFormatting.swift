import Foundation

/// Times and days as staff read them: in the event's time zone (GMT when it has none).
package enum TimeFormatting {
    /// "14:05".
    package static func time(_ date: Date, _ timeZone: String?) -> String {
        let parts = calendar(timeZone).dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// "2026-11-23".
    package static func day(_ date: Date, _ timeZone: String?) -> String {
        let parts = calendar(timeZone).dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    private static func calendar(_ timeZone: String?) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
        return calendar
    }
}
