import Foundation
import OutpostCore
import OutpostShell

/// The month (seed 003's month view) as a screen model: always 42 cells (six weeks from the
/// Monday before the 1st), each with its shift dots, a tracked marker, absence icons, ✓ for a
/// confirmed day (with its overtime) and ? for a day with activity still to confirm; and the
/// summary footer of the month's own days. Pure.
package struct MonthScreen: ScreenModel, Codable, Hashable {
    package struct Cell: Codable, Hashable {
        package var hours: DayHours
        package var inMonth: Bool
        package var isToday: Bool
        /// Before today: only such a day can wait to be confirmed ("?").
        package var isPast: Bool
        package var shiftColors: [ShiftColor]
        package var absences: [AbsenceMark.Kind]

        package var mark: DayMark { DayMark(hours, past: isPast) }
    }

    /// The weekdays' short names, Monday first (the grid's header).
    package var weekdays: [String] { (0..<7).map { copy.weekday($0) } }

    /// The footer's parts; "(X confirmed)" stays with the last.
    package var footer: [String] {
        var parts = copy.monthSummaryParts(summary)
        if let confirmed = summary.confirmedNudge { parts[parts.count - 1] += " " + copy.confirmedNudge(confirmed) }
        return parts
    }

    /// The cells of the month's own days.
    package var days: [Cell] { cells.filter(\.inMonth) }

    package var title: String
    package var cells: [Cell]
    package var summary: MonthHours
    package var notice: TrackingMessage?
    package var error: TrackingMessage?
    package var copy: TrackingCopy
    /// The picker, its entry points and the armed banner (``CalendarPicker/elements(view:plan:manualFormDay:copy:)``).
    package var picker: [UIElement] = []

    package var identifier: String { UIIdentifier.calendarMonthScreen }

    package func elements() -> [UIElement] {
        var elements = TrackingTabs.header(copy, notice: notice, error: error)
        elements += [
            UIElement(UIIdentifier.calendarPrev, copy.previousMonth),
            UIElement(
                UIIdentifier.calendarTitle, title,
                ["weekdays": weekdays.joined(separator: ",")]),
            UIElement(UIIdentifier.calendarNext, copy.nextMonth),
        ]
        for cell in cells {
            let hours = cell.hours
            let number = String(Int(hours.day.suffix(2)) ?? 0)
            var attributes = [
                "date": hours.day, "inMonth": String(cell.inMonth),
                "status": cell.mark.rawValue,
                "tracked": String(hours.grossSeconds > 0),
                "trackedMinutes": String(hours.trackedMinutes), "plannedMinutes": String(hours.plannedMinutes),
            ]
            if !cell.shiftColors.isEmpty {
                attributes["shifts"] = cell.shiftColors.map(\.rawValue).joined(separator: ",")
            }
            if !cell.absences.isEmpty { attributes["absences"] = cell.absences.map(\.rawValue).joined(separator: ",") }
            if cell.isToday { attributes["today"] = "true" }
            var text = number
            if let overtime = hours.overtimeMinutes {
                attributes["overtimeMinutes"] = String(overtime)
                text += " ✓ " + copy.overtime(overtime)
            } else if hours.hasActivity && cell.isPast {
                text += " ?"
            }
            if cell.absences.contains(.vacation) { text += " 🌴" }
            if cell.absences.contains(.sick) { text += " 🤒" }
            elements.append(UIElement(UIIdentifier.calendarMonthCell, text, attributes))
        }
        elements.append(
            UIElement(
                UIIdentifier.calendarMonthSummary, footer.joined(separator: " · "),
                [
                    "trackedMinutes": String(summary.trackedMinutes), "plannedMinutes": String(summary.plannedMinutes),
                    "overtimeMinutes": String(summary.overtimeMinutes), "vacationDays": String(summary.vacationDays),
                    "sickDays": String(summary.sickDays), "confirmedDays": String(summary.confirmedDays),
                    "daysWithActivity": String(summary.daysWithActivity),
                ]))
        return elements + picker
    }
}
