import Foundation
import OutpostCore
import OutpostShell

/// The picker and its entry points as elements of the week and the month (the seed's 28 test
/// identifiers): the floating button and its menu (week only, hidden while the picker is open),
/// the armed banner in its fixed slot, the focus ring on the target day, the picker with its
/// tabs, the templates' rows (pencil left, selector right), the inline edit form, the GPS tab's
/// "Log hours", and the manual session form it opens. Pure.
extension CalendarPicker {
    package func elements(
        view: View, plan: ShiftPlan, manualFormDay: String?, copy: TrackingCopy
    ) -> [UIElement] {
        var elements: [UIElement] = []
        if let armed {
            let name =
                switch armed {
                case .shift(let id): plan.templates.first { $0.id == id }?.name
                case .absence(let id): plan.absenceTemplates.first { $0.id == id }?.name
                }
            elements.append(
                UIElement(UIIdentifier.calendarArmedBanner, copy.armed(name ?? "?"), ["templateId": armed.wire]))
            elements.append(UIElement(UIIdentifier.calendarArmedCancel, copy.cancel))
        }
        if view == .week && !open {
            elements += [
                UIElement(UIIdentifier.calendarFAB, copy.fab),
                UIElement(UIIdentifier.calendarFABAbsences, copy.tabAbsences),
                UIElement(UIIdentifier.calendarFABShifts, copy.tabShifts),
                UIElement(UIIdentifier.calendarFABLogHours, copy.logHours),
            ]
        }
        if let manualFormDay {
            elements.append(
                UIElement(UIIdentifier.trackManualForm, copy.manualForm(manualFormDay), ["date": manualFormDay]))
        }
        guard open else { return elements }
        if let targetDay { elements.append(UIElement(UIIdentifier.calendarFocusDay, targetDay, ["date": targetDay])) }
        var attributes = ["mode": targetDay == nil ? "arming" : "direct", "tab": tab.rawValue]
        if let targetDay { attributes["targetDate"] = targetDay }
        elements.append(UIElement(UIIdentifier.inlinePicker, targetDay.map(copy.placeOn) ?? copy.arming, attributes))
        elements.append(UIElement(UIIdentifier.inlinePickerClose, copy.close))
        for (id, name, value) in [
            (UIIdentifier.inlinePickerTabShifts, copy.tabShifts, Tab.shifts),
            (UIIdentifier.inlinePickerTabAbsences, copy.tabAbsences, Tab.absences),
            (UIIdentifier.inlinePickerTabGPS, copy.tabGPS, Tab.gps),
        ] {
            elements.append(UIElement(id, name, ["selected": String(tab == value)]))
        }
        if let targetDay { elements.append(UIElement(UIIdentifier.inlinePickerTargetDate, targetDay)) }
        switch tab {
        case .shifts:
            for template in plan.templates {
                let id = template.id.wire
                let selected = armed == .shift(template.id)
                elements += [
                    UIElement(UIIdentifier.inlinePickerShiftEdit, copy.edit, ["templateId": id]),
                    UIElement(
                        UIIdentifier.inlinePickerShiftRow,
                        "\(template.name) \(WeekScreen.clock(template.startMinute))–\(WeekScreen.clock(template.startMinute + template.durationMinutes))",
                        ["templateId": id, "color": template.color.rawValue]),
                    UIElement(
                        UIIdentifier.inlinePickerShiftSelect, copy.choose,
                        ["templateId": id, "selected": String(selected)]
                    ),
                ]
            }
            elements.append(UIElement(UIIdentifier.inlinePickerShiftAdd, copy.newShift))
        case .absences:
            for template in plan.absenceTemplates {
                let id = template.id.wire
                let selected = armed == .absence(template.id)
                elements += [
                    UIElement(UIIdentifier.inlinePickerAbsenceEdit, copy.edit, ["templateId": id]),
                    UIElement(
                        UIIdentifier.inlinePickerAbsenceRow, "\(copy.absence(template.kind)) · \(template.name)",
                        ["templateId": id, "kind": template.kind.rawValue]),
                    UIElement(
                        UIIdentifier.inlinePickerAbsenceSelect, copy.choose,
                        ["templateId": id, "selected": String(selected)]),
                ]
            }
            elements.append(UIElement(UIIdentifier.inlinePickerAbsenceAdd, copy.newAbsence))
        case .gps:
            elements.append(UIElement(UIIdentifier.inlinePickerLogHours, copy.logHours))
        }
        if case .shift(let id) = editing, let template = plan.templates.first(where: { $0.id == id }) {
            elements += [
                UIElement(UIIdentifier.inlinePickerEditForm, template.name, ["templateId": id.wire]),
                UIElement(UIIdentifier.inlinePickerEditName, copy.name, ["value": template.name]),
                UIElement(
                    UIIdentifier.inlinePickerEditStart, copy.start, ["value": WeekScreen.clock(template.startMinute)]),
                UIElement(
                    UIIdentifier.inlinePickerEditDuration, copy.length, ["value": String(template.durationMinutes)]),
                UIElement(
                    UIIdentifier.inlinePickerEditBreak, copy.breakLabel, ["value": String(template.breakMinutes)]),
                UIElement(
                    UIIdentifier.inlinePickerEditColor, copy.colour,
                    [
                        "value": template.color.rawValue,
                        "choices": ShiftColor.allCases.map(\.rawValue).joined(separator: ","),
                    ]),
                UIElement(UIIdentifier.inlinePickerEditSave, copy.save, ["templateId": id.wire]),
            ]
        } else if case .absence(let id) = editing,
            let template = plan.absenceTemplates.first(where: { $0.id == id })
        {
            elements += [
                UIElement(UIIdentifier.inlinePickerEditForm, template.name, ["templateId": id.wire]),
                UIElement(UIIdentifier.inlinePickerEditName, copy.name, ["value": template.name]),
                UIElement(
                    UIIdentifier.inlinePickerEditStart, copy.start,
                    ["value": template.startMinute.map(WeekScreen.clock) ?? copy.allDay]),
                UIElement(
                    UIIdentifier.inlinePickerEditColor, copy.colour,
                    [
                        "value": template.color.rawValue,
                        "choices": ShiftColor.allCases.map(\.rawValue).joined(separator: ","),
                    ]),
                UIElement(UIIdentifier.inlinePickerEditSave, copy.save, ["templateId": id.wire]),
            ]
        }
        return elements
    }
}

extension CalendarPicker.Armed {
    package var wire: String {
        switch self {
        case .shift(let id): id.wire
        case .absence(let id): id.wire
        }
    }
}
