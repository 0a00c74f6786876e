import Foundation
import OutpostCore
import OutpostShell

/// The week (seed 003's calendar, week view) as a screen model: Monday to Sunday, each day with
/// its shifts, absences (shown over the shifts), tracked time (the GPS toggle), the day's hours
/// from ``WorkHours`` and whether it is confirmed; previous and next; the review hint and Submit
/// on days that can be submitted. Pure.
package struct WeekScreen: ScreenModel, Codable, Hashable {
    package struct Day: Codable, Hashable {
        package var hours: DayHours
        package var weekday: String
        package var shifts: [ShiftInstance]
        package var absences: [AbsenceInstance]
        package var canSubmit: Bool
        package var isToday: Bool
        /// Before today: only such a day can wait to be confirmed ("?").
        package var isPast: Bool

        package var mark: DayMark { DayMark(hours, past: isPast) }
    }

    /// The templates' legend lines ("Early 06:00–14:00"), as the picker lists them.
    package static func label(_ template: ShiftTemplate) -> String {
        "\(template.name) \(clock(template.startMinute))–\(clock(template.startMinute + template.durationMinutes))"
    }

    package var title: String
    /// The templates to place from (the inline picker's rows).
    package var templates: [ShiftTemplate]
    package var absenceTemplates: [AbsenceTemplate]
    package var days: [Day]
    package var showTracked: Bool
    package var notice: TrackingMessage?
    package var error: TrackingMessage?
    package var copy: TrackingCopy
    /// The picker, its entry points and the armed banner (``CalendarPicker/elements(view:plan:manualFormDay:copy:)``).
    package var picker: [UIElement] = []

    package var identifier: String { UIIdentifier.calendarWeekScreen }

    package func elements() -> [UIElement] {
        var elements = TrackingTabs.header(copy, notice: notice, error: error)
        elements += [
            UIElement(UIIdentifier.calendarPrev, copy.previousWeek),
            UIElement(UIIdentifier.calendarTitle, title),
            UIElement(UIIdentifier.calendarNext, copy.nextWeek),
            UIElement(UIIdentifier.calendarGPSToggle, copy.showTracked(showTracked), ["on": String(showTracked)]),
        ]
        for template in templates {
            elements.append(
                UIElement(
                    UIIdentifier.calendarTemplate,
                    Self.label(template),
                    [
                        "templateId": template.id.wire, "color": template.color.rawValue,
                        "breakMinutes": String(template.breakMinutes),
                    ]))
        }
        for template in absenceTemplates {
            elements.append(
                UIElement(
                    UIIdentifier.calendarAbsenceTemplate, "\(copy.absence(template.kind)) · \(template.name)",
                    ["templateId": template.id.wire, "kind": template.kind.rawValue]))
        }
        if days.contains(where: \.canSubmit) {
            elements.append(UIElement(UIIdentifier.trackReviewHint, copy.reviewHint))
        }
        for day in days {
            let hours = day.hours
            var attributes = [
                "date": hours.day, "trackedMinutes": String(hours.trackedMinutes),
                "plannedMinutes": String(hours.plannedMinutes), "status": day.mark.rawValue,
            ]
            if let overtime = hours.overtimeMinutes { attributes["overtimeMinutes"] = String(overtime) }
            if day.isToday { attributes["today"] = "true" }
            if !hours.plannedSegments.isEmpty { attributes["plannedSpans"] = Self.spans(hours.plannedSegments) }
            if showTracked, !hours.trackedSegments.isEmpty {
                attributes["trackedSpans"] = Self.spans(hours.trackedSegments)
            }
            var text = "\(day.weekday) \(hours.day)"
            if hours.confirmed, let overtime = hours.overtimeMinutes {
                text += " · " + copy.overtime(overtime) + " ✓"
            } else if hours.hasActivity && day.isPast {
                text += " · ?"
            }
            elements.append(UIElement(UIIdentifier.calendarDay, text, attributes))
            for absence in day.absences {
                let when =
                    absence.fullDay
                    ? copy.allDay : "\(Self.clock(absence.startMinute ?? 0))–\(Self.clock(absence.endMinute ?? 0))"
                var attributes = [
                    "date": hours.day, "absenceId": absence.id.wire, "kind": absence.kind.rawValue,
                    "fullDay": String(absence.fullDay),
                ]
                if !absence.fullDay, let start = absence.startMinute, let end = absence.endMinute {
                    attributes["startMinute"] = String(start)
                    attributes["endMinute"] = String(end)
                }
                elements.append(
                    UIElement(
                        UIIdentifier.calendarAbsence, "\(copy.absence(absence.kind)) · \(absence.name) · \(when)",
                        attributes))
            }
            for shift in day.shifts {
                var attributes = [
                    "date": hours.day, "shiftId": shift.id.wire, "color": shift.color.rawValue,
                    "startMinute": String(shift.startMinute), "durationMinutes": String(shift.durationMinutes),
                ]
                if shift.orphaned { attributes["orphaned"] = "true" }
                if !day.absences.isEmpty { attributes["underAbsence"] = "true" }
                elements.append(
                    UIElement(
                        UIIdentifier.calendarShift,
                        "\(shift.name) \(Self.clock(shift.startMinute))–\(Self.clock(shift.endMinute))"
                            + (shift.breakMinutes > 0 ? " · " + copy.breakMinutes(shift.breakMinutes) : "")
                            + (shift.orphaned ? " · " + copy.orphaned : ""),
                        attributes))
            }
            if showTracked, hours.grossSeconds > 0 {
                elements.append(
                    UIElement(
                        UIIdentifier.calendarTracked,
                        copy.trackedOf(copy.duration(minutes: hours.trackedMinutes), planned: hours.plannedMinutes)
                            + (hours.shortSessions > 0 ? copy.short : ""),
                        ["date": hours.day, "minutes": String(hours.trackedMinutes)]))
            }
            if day.canSubmit {
                elements.append(
                    UIElement(
                        UIIdentifier.trackDaySubmit, copy.submit(hours.day),
                        ["date": hours.day, "note": copy.submitNote]))
            }
        }
        return elements + picker
    }

    /// Stretches of a day for the views that draw it: `start-end[:tag]` in minutes since
    /// midnight, comma-separated (`360-840:teal,1320-1440:blue`).
    package static func spans(_ segments: [DaySegment]) -> String {
        segments.map { "\($0.startMinute)-\($0.endMinute)" + ($0.tag.map { ":" + $0 } ?? "") }.joined(separator: ",")
    }

    /// Minutes after midnight as `HH:mm` (past midnight for a night shift: 24:30 stays 00:30).
    package static func clock(_ minute: Int) -> String {
        String(format: "%02d:%02d", (minute / 60) % 24, minute % 60)
    }
}
