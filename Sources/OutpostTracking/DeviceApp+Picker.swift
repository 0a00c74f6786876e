import Foundation
import OutpostCore
import OutpostShell

/// The calendar's inline picker (seed 003), as front-ends and tests call it: gestures on the
/// week or month shown, the floating button, the tabs, choosing (placing at once for a day, or
/// arming), the pencil, "Log hours", disarming.
extension DeviceApp {
    public enum PickerGesture: String, Sendable, CaseIterable {
        case tap
        case doubleTap = "double-tap"
        case longPress = "long-press"
    }

    public enum PickerTab: String, Sendable, CaseIterable {
        case shifts, absences, gps
    }

    /// A gesture on `day` of the week or month shown (the seed's interaction table).
    public func calendarGesture(_ gesture: PickerGesture, on day: String) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.gesture(CalendarPicker.Gesture(rawValue: gesture.rawValue) ?? .tap, on: day) }
    }

    /// Opens the picker: for `day` (direct placement), or without one from the floating button
    /// (arming).
    public func openCalendarPicker(for day: String? = nil, tab: PickerTab = .shifts) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.openPicker(for: day, tab: CalendarPicker.Tab(rawValue: tab.rawValue) ?? .shifts) }
    }

    public func calendarPickerTab(_ tab: PickerTab) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.pickerTab(CalendarPicker.Tab(rawValue: tab.rawValue) ?? .shifts) }
    }

    public func closeCalendarPicker() {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.closePicker() }
    }

    /// Chooses a shift or absence template in the open picker (by its id).
    public func chooseInCalendarPicker(_ templateId: String) {
        showModule(named: TrackingModule.name)
        performAsStaff {
            guard let template = pickerTemplate(templateId) else {
                trackingModule?.refuse(.planRefused(.noSuchTemplate))
                return
            }
            trackingModule?.choose(template)
        }
    }

    /// The pencil on a template's row: its inline edit form.
    public func editInCalendarPicker(_ templateId: String) {
        showModule(named: TrackingModule.name)
        perform {
            guard let template = pickerTemplate(templateId) else {
                trackingModule?.refuse(.planRefused(.noSuchTemplate))
                return
            }
            trackingModule?.editInPicker(template)
        }
    }

    /// The GPS tab's "Log hours": the manual session form for the picker's day.
    public func logHoursFromCalendarPicker() {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.logHoursFromPicker() }
    }

    /// The armed banner's cancel.
    public func disarmCalendar() {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.disarm() }
    }

    private func pickerTemplate(_ wire: String) -> CalendarPicker.Armed? {
        let plan = shiftPlan
        if let id = ShiftTemplateID(wire: wire), plan.templates.contains(where: { $0.id == id }) {
            return .shift(id)
        }
        if let id = AbsenceTemplateID(wire: wire), plan.absenceTemplates.contains(where: { $0.id == id }) {
            return .absence(id)
        }
        return nil
    }
}
