import OutpostCore

/// What a calendar day shows beside its number: ✓ confirmed, ? waiting to be confirmed (a past
/// day with activity), planned (activity to come), or nothing.
package enum DayMark: String, Codable, Sendable, Hashable {
    case confirmed, unconfirmed, planned, empty

    package init(_ hours: DayHours, past: Bool) {
        self = hours.confirmed ? .confirmed : !hours.hasActivity ? .empty : past ? .unconfirmed : .planned
    }
}
