import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Where the time-tracking module is (sealed, kept across launches).
package struct TrackingState: Codable, Sendable, Hashable {
    package enum Screen: String, Codable, Sendable {
        case status
        case locations
        case history
        case week
        case month
    }

    package var screen: Screen = .status
    /// The history's filters.
    package var historyRange: TrackingRange = .all
    package var historyLocation: LocationID?
    package var notice: TrackingMessage?
    package var error: TrackingMessage?
    /// The geofence rules in use (``HysteresisPolicy`` name).
    package var profile = HysteresisPolicy.seed.name
    /// When the worker last dismissed the permission warning (it comes back after a week).
    package var permissionWarningDismissedAt: Date?
    /// A day of the week shown (nil: this week).
    package var weekOf: String?
    /// The screens show the demo month (the user's ``SandboxOwner``), not their own hours.
    package var demo = false
    /// The calendar's GPS toggle: tracked time shown.
    package var showTracked = true
    /// The month shown, `YYYY-MM` (nil: this month).
    package var month: String?
    /// The calendar's inline picker and what it has armed.
    package var picker = CalendarPicker()
    /// The day whose Submit waits for the first-time explanation to be read.
    package var explainSubmitFor: String?
    /// The day the manual session form is open for (the picker's "Log hours").
    package var manualFormDay: String?

    package init() {}

    /// Lenient: a field an older version wrote differently (or not at all) takes its default.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        screen = container.lenient(Screen.self, .screen) ?? .status
        historyRange = container.lenient(TrackingRange.self, .historyRange) ?? .all
        historyLocation = container.lenient(LocationID.self, .historyLocation)
        notice = container.lenient(TrackingMessage.self, .notice)
        error = container.lenient(TrackingMessage.self, .error)
        profile = container.lenient(String.self, .profile) ?? HysteresisPolicy.seed.name
        permissionWarningDismissedAt = container.lenient(Date.self, .permissionWarningDismissedAt)
        weekOf = container.lenient(String.self, .weekOf)
        showTracked = container.lenient(Bool.self, .showTracked) ?? true
        month = container.lenient(String.self, .month)
        picker = container.lenient(CalendarPicker.self, .picker) ?? CalendarPicker()
        explainSubmitFor = container.lenient(String.self, .explainSubmitFor)
        manualFormDay = container.lenient(String.self, .manualFormDay)
        demo = container.lenient(Bool.self, .demo) ?? false
    }
}

extension KeyedDecodingContainer {
    /// The field `key` as `T`, nil when absent or written differently by an older version (a
    /// screen's state, never a record: its field starts again at its default).
    fileprivate func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        // A screen field an older app wrote differently starts again at its default.
        try? decodeIfPresent(type, forKey: key)
    }
}
