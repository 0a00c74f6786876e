import Foundation
import OutpostCore
import OutpostShell

/// Seed 003's inline picker as state, not gestures: one picker with three tabs
/// (Shifts, Absences, GPS) in two modes. Opened for a day (a tap or long press on the week, a
/// long press on the month) it places what is chosen there at once (direct placement); opened
/// from the floating button without a day, choosing a template arms it, and each double tap on
/// a day then places it (arming) until it is disarmed. The seed's interaction table is
/// ``gesture(_:in:on:locked:)``. Nothing is placed on a confirmed day. Pure.
package struct CalendarPicker: Codable, Sendable, Hashable {
    package enum Tab: String, Codable, Sendable, CaseIterable {
        case shifts, absences, gps
    }

    /// What a double tap places while armed.
    package enum Armed: Codable, Sendable, Hashable {
        case shift(ShiftTemplateID)
        case absence(AbsenceTemplateID)
    }

    package enum Gesture: String, Codable, Sendable, CaseIterable {
        case tap
        case doubleTap = "double-tap"
        case longPress = "long-press"
    }

    package enum View: String, Sendable {
        case week, month
    }

    /// What the app does after a gesture or a choice.
    package enum Effect: Sendable, Hashable {
        case none
        /// The picker opened (for `day`, or without one from the floating button).
        case opened(day: String?)
        /// Show the week of `day` (on the month, a tap; armed, after a pause that lets a second
        /// tap make it a double tap).
        case showWeek(day: String, delayed: Bool)
        /// Place `armed` on `day`.
        case place(Armed, day: String)
        /// Open the manual session form for `day` (the GPS tab's "Log hours").
        case logHours(day: String?)
        /// Refused: the day is confirmed, or a single tap while armed on the week.
        case blocked(Blocked)
    }

    package enum Blocked: String, Codable, Sendable, Hashable {
        case confirmedDay
        case armedSingleTap
    }

    package var armed: Armed?
    var open = false
    /// The day the picker was opened for (direct placement); nil from the floating button.
    package var targetDay: String?
    package var tab = Tab.shifts
    /// The template whose inline edit form is open.
    package var editing: Armed?

    /// The seed's table: on the week a tap opens the picker (blocked while armed), a double
    /// tap opens it (places while armed), a long press always opens it; on the month a tap shows
    /// the week (delayed while armed), a double tap shows the week (places while armed), a long
    /// press opens the picker. A confirmed day opens nothing and takes nothing.
    package mutating func gesture(_ gesture: Gesture, in view: View, on day: String, locked: Set<String>) -> Effect {
        let armed = self.armed
        switch (view, gesture, armed) {
        case (.week, .tap, .some):
            return .blocked(.armedSingleTap)
        case (.week, .doubleTap, .some(let armed)), (.month, .doubleTap, .some(let armed)):
            return locked.contains(day) ? .blocked(.confirmedDay) : .place(armed, day: day)
        case (.month, .tap, let armed):
            return .showWeek(day: day, delayed: armed != nil)
        case (.month, .doubleTap, .none):
            return .showWeek(day: day, delayed: false)
        case (.week, .tap, .none), (.week, .doubleTap, .none), (_, .longPress, _):
            guard !locked.contains(day) else { return .blocked(.confirmedDay) }
            open(for: day, tab: tab)
            return .opened(day: day)
        }
    }

    /// The floating button (or a tap that opens the picker): for `day`, direct placement;
    /// without one, arming.
    mutating func open(for day: String?, tab: Tab) {
        open = true
        targetDay = day
        self.tab = tab
        editing = nil
    }

    package mutating func close() {
        open = false
        targetDay = nil
        editing = nil
    }

    /// A template chosen in the picker: placed on the target day at once, or armed.
    package mutating func choose(_ template: Armed, locked: Set<String>) -> Effect {
        guard open else { return .none }
        if let day = targetDay {
            guard !locked.contains(day) else { return .blocked(.confirmedDay) }
            close()
            return .place(template, day: day)
        }
        armed = template
        close()
        return .none
    }

    /// The GPS tab's "Log hours": the manual session form, for the target day if any.
    package mutating func logHours() -> Effect {
        guard open else { return .none }
        let day = targetDay
        close()
        return .logHours(day: day)
    }

    /// The pencil on a template's row: its inline edit form.
    package mutating func edit(_ template: Armed) {
        guard open else { return }
        editing = template
    }

    package mutating func disarm() { armed = nil }
}
