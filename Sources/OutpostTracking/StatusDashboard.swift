import Foundation
import OutpostCore
import OutpostShell

/// The status screen's 14-day overview (seed 003's HoursSummaryWidget and NextShiftWidget):
/// planned and tracked per day, unconfirmed days faded with an "X to confirm" nudge (today
/// excluded), absence markers, days before the account as "—", the y-axis that grows from 12 h
/// to 16 h or 24 h with the data, and the next shift. Pure.
package struct StatusDashboard: Codable, Hashable {
    package struct Bar: Codable, Hashable {
        package var hours: DayHours
        package var weekday: String
        package var faded: Bool
        package var beforeAccount: Bool
        package var isToday: Bool
    }

    package var bars: [Bar]
    package var axisHours: Int
    package var toConfirm: Int
    package var nextShift: ShiftInstance?

    /// The 14 days ending `today`.
    package static func make(
        days: [DayHours], today: String, accountSince: String, shifts: [ShiftInstance], now: Date, zone: TimeZone,
        copy: TrackingCopy
    ) -> StatusDashboard {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let bars = days.map { hours in
            let weekday =
                WorkDay.start(of: hours.day, in: zone).map { (calendar.component(.weekday, from: $0) + 5) % 7 } ?? 0
            return Bar(
                hours: hours, weekday: copy.weekday(weekday).prefix(1).uppercased(),
                faded: !hours.confirmed && hours.hasActivity && hours.day != today,
                beforeAccount: hours.day < accountSince && !hours.hasActivity && hours.absences.isEmpty,
                isToday: hours.day == today)
        }
        let most = days.map { max($0.trackedMinutes, $0.plannedMinutes) }.max() ?? 0
        let axis = most <= 12 * 60 ? 12 : most <= 16 * 60 ? 16 : 24
        let next = shifts.filter { shift in
            guard let start = WorkDay.start(of: shift.day, in: zone) else { return false }
            return start.addingTimeInterval(Double(shift.startMinute) * 60) > now
        }.min { ($0.day, $0.startMinute) < ($1.day, $1.startMinute) }
        return StatusDashboard(
            bars: bars, axisHours: axis, toConfirm: bars.filter(\.faded).count, nextShift: next)
    }

    package func elements(_ copy: TrackingCopy) -> [UIElement] {
        var elements = [
            UIElement(
                UIIdentifier.dashboard, copy.dashboardTitle,
                ["axisHours": String(axisHours), "toConfirm": String(toConfirm)])
        ]
        for bar in bars {
            let hours = bar.hours
            var attributes = [
                "date": hours.day, "weekday": bar.weekday, "plannedMinutes": String(hours.plannedMinutes),
                "trackedMinutes": String(hours.trackedMinutes), "faded": String(bar.faded),
            ]
            if bar.beforeAccount { attributes["beforeAccount"] = "true" }
            if bar.isToday { attributes["today"] = "true" }
            if !hours.absences.isEmpty {
                attributes["absences"] = hours.absences.map(\.rawValue).joined(separator: ",")
            }
            let text =
                bar.beforeAccount
                ? "\(bar.weekday) \(hours.day) —"
                : "\(bar.weekday) \(hours.day) · \(copy.plannedVsTracked(hours.plannedMinutes, hours.trackedMinutes))"
                    + (hours.absences.contains(.vacation) ? " 🌴" : "") + (hours.absences.contains(.sick) ? " 🤒" : "")
            elements.append(UIElement(UIIdentifier.dashboardDay, text, attributes))
        }
        if toConfirm > 0 {
            elements.append(
                UIElement(UIIdentifier.dashboardNudge, copy.toConfirm(toConfirm), ["count": String(toConfirm)]))
        }
        if let shift = nextShift {
            elements.append(
                UIElement(
                    UIIdentifier.dashboardNextShift,
                    copy.nextShift(
                        shift.name, shift.day,
                        "\(WeekScreen.clock(shift.startMinute))–\(WeekScreen.clock(shift.endMinute))"),
                    ["shiftId": shift.id.wire, "date": shift.day, "color": shift.color.rawValue]))
        }
        return elements
    }
}
