import Foundation

/// Dates as a time zone's wall clock shows them, in one fixed pattern (POSIX locale). Making a
/// `DateFormatter` costs far more than using one: a page, an export or a dashboard view makes one
/// of these and formats every row with it.
struct WallClockFormat: @unchecked Sendable {
    private let formatter: DateFormatter

    /// `zone` is an IANA identifier; an unknown one is UTC.
    init(_ pattern: String, zone: String) {
        formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone) ?? .gmt
        formatter.dateFormat = pattern
    }

    func string(_ date: Date) -> String { formatter.string(from: date) }
}
