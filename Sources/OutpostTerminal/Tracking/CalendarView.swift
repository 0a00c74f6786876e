import Foundation
import OutpostCore
import OutpostDevice

/// The calendar of `outpost track` drawn as grids: the week as seven columns
/// of 24 hours (planned shifts in their colours, tracked time in rose beside them, absences
/// over them), the month as the 42 cells of six weeks, each from the screen's typed model
/// (minutes as numbers, marks as enums; never its words). Pure: a model and a width in, lines out.
enum CalendarView {
    static let rose = "\u{1B}[38;5;204m"
    static let teal = "\u{1B}[38;5;30m"
    static let grey = "\u{1B}[38;5;245m"
    static let positive = "\u{1B}[38;5;34m"
    static let negative = "\u{1B}[38;5;160m"
    static let absenceStyle = "\u{1B}[38;5;110m"
    static let inverse = TrackView.inverse
    static let bold = TrackView.bold
    static let dim = TrackView.dim

    /// The seed's shift palette as 256-colour foregrounds (grey for none).
    static func colour(_ color: ShiftColor?) -> String {
        let code =
            switch color {
            case .teal: 30
            case .blue: 33
            case .green: 35
            case .amber: 214
            case .rose: 204
            case .purple: 135
            case .cyan: 44
            case nil: 250
            }
        return "\u{1B}[38;5;\(code)m"
    }

    static func symbol(_ absence: AbsenceMark.Kind) -> String { absence == .sick ? "✚" : "☀" }

    /// Minutes as `H:MM`, signed when asked (overtime): `+1:30`, `−0:15`, `±0:00`.
    static func hm(_ minutes: Int, signed: Bool = false) -> String {
        let value = abs(minutes)
        let text = "\(value / 60):" + String(format: "%02d", value % 60)
        guard signed else { return text }
        return (minutes > 0 ? "+" : minutes < 0 ? "−" : "±") + text
    }

    static func overtimeStyle(_ minutes: Int) -> String { minutes > 0 ? positive : minutes < 0 ? negative : grey }

    /// A day's stretches with their shift colours (tracked time has none).
    static func spans(_ segments: [DaySegment]) -> [(start: Int, end: Int, tag: ShiftColor?)] {
        segments.map { ($0.startMinute, $0.endMinute, $0.tag.flatMap(ShiftColor.init(rawValue:))) }
    }

    /// The navigation line: ◀ title ▶, and on the week the GPS toggle (on, and its words).
    static func navigation(title: String, toggle: (on: Bool, text: String)?, width: Int) -> Styled {
        var line = Styled(" ◀ ", grey)
        line.append(title, bold)
        line.append(" ▶", grey)
        if let toggle {
            let on = toggle.on
            let text = (on ? "◉ " : "○ ") + toggle.text
            let gap = max(1, width - line.width - text.count - 1)
            line.append(String(repeating: " ", count: gap))
            line.append(text, on ? rose : grey)
        }
        return line
    }

    // MARK: - Week

    /// The week: a header of days (today inverse, ✓ confirmed, ? to confirm), twelve rows of two
    /// hours, each day's shifts (in their colours) with its tracked time (rose) beside them and
    /// absences (░) over the free hours, then tracked/planned, overtime and Submit per day, and
    /// the templates as a legend. `selected` marks the chosen day to submit.
    static func week(_ week: WeekScreen, width: Int, selected: Int) -> [String] {
        let days = week.days
        guard days.count == 7 else { return [] }
        let label = 6
        let column = max(6, (width - label - 1) / 7)
        let submitting = days.filter(\.canSubmit).map(\.hours.day)
        let copy = week.copy
        var lines: [Styled] = [
            navigation(
                title: week.title, toggle: (week.showTracked, copy.showTracked(week.showTracked)), width: width)
        ]
        if !submitting.isEmpty { lines.append(Styled(" " + copy.reviewHint, dim)) }
        var header = Styled(String(repeating: " ", count: label))
        for day in days {
            var cell = Styled(
                day.weekday + " " + String(Int(day.hours.day.suffix(2)) ?? 0), day.isToday ? inverse : bold)
            switch day.mark {
            case .confirmed: cell.append(" ✓", teal)
            case .unconfirmed: cell.append(" ?", grey)
            case .planned, .empty: break
            }
            for absence in day.absences { cell.append(" " + symbol(absence.kind), absenceStyle) }
            header = header + cell.spaced(column)
        }
        lines.append(header)
        for row in 0..<12 {
            var line = Styled(String(format: "%02d:00", row * 2) + " ", grey)
            for day in days {
                let away = day.absences.map { absence in
                    absence.fullDay ? (0, 1_440) : (absence.startMinute ?? 0, absence.endMinute ?? 0)
                }
                line =
                    line
                    + weekCell(
                        row: row, width: column, planned: spans(day.hours.plannedSegments),
                        tracked: week.showTracked ? spans(day.hours.trackedSegments) : [], away: away)
            }
            lines.append(line)
        }
        var totals = Styled(String(repeating: " ", count: label))
        var overtime = Styled(String(repeating: " ", count: label))
        var submit = Styled(String(repeating: " ", count: label))
        for day in days {
            let planned = day.hours.plannedMinutes
            let tracked = day.hours.trackedMinutes
            totals =
                totals
                + (planned + tracked == 0
                ? Styled("·", grey) : Styled(hm(tracked), rose) + Styled("/" + hm(planned), grey)).spaced(column)
            if let minutes = day.hours.overtimeMinutes {
                overtime =
                    overtime
                    + (Styled(hm(minutes, signed: true), overtimeStyle(minutes)) + Styled(" ✓", teal)).spaced(column)
            } else if day.mark == .unconfirmed {
                overtime = overtime + Styled("?", grey).spaced(column)
            } else {
                overtime = overtime + Styled().spaced(column)
            }
            if let index = submitting.firstIndex(of: day.hours.day) {
                submit =
                    submit
                    + Styled(index == selected ? "▶ Submit" : "  Submit", index == selected ? bold : "").spaced(column)
            } else {
                submit = submit + Styled().spaced(column)
            }
        }
        lines += [totals, overtime]
        if !submitting.isEmpty { lines.append(submit) }
        var legend = Styled(" ")
        for template in week.templates {
            legend.append("■ ", colour(template.color))
            legend.append(WeekScreen.label(template) + "  ")
        }
        legend.append("■ ", rose)
        legend.append("tracked", grey)
        lines.append(legend)
        return lines.map { $0.fitted(width).rendered }
    }

    /// One day's two hours: `width - 3` columns of shift (full block for both hours, upper or
    /// lower half for one; ░ where an absence lies over free time), a gap, two columns of
    /// tracked time. An hour counts when at least half of it is covered.
    static func weekCell(
        row: Int, width: Int, planned: [(start: Int, end: Int, tag: ShiftColor?)],
        tracked: [(start: Int, end: Int, tag: ShiftColor?)],
        away: [(Int, Int)]
    ) -> Styled {
        func covered(_ spans: [(start: Int, end: Int)], hour: Int) -> Bool {
            let from = hour * 60
            let to = from + 60
            return spans.reduce(0) { $0 + max(0, min(to, $1.end) - max(from, $1.start)) } >= 30
        }
        func glyph(_ first: Bool, _ second: Bool) -> String {
            first && second ? "█" : first ? "▀" : second ? "▄" : " "
        }
        let hours = (row * 2, row * 2 + 1)
        var cell = Styled()
        let shiftWidth = max(1, width - 4)
        let firstShift = planned.first { covered([($0.start, $0.end)], hour: hours.0) }
        let secondShift = planned.first { covered([($0.start, $0.end)], hour: hours.1) }
        let shiftGlyph = glyph(firstShift != nil, secondShift != nil)
        let absent =
            covered(away.map { (start: $0.0, end: $0.1) }, hour: hours.0)
            || covered(away.map { (start: $0.0, end: $0.1) }, hour: hours.1)
        if shiftGlyph != " " {
            cell.append(String(repeating: shiftGlyph, count: shiftWidth), colour((firstShift ?? secondShift)?.tag))
        } else if absent {
            cell.append(String(repeating: "░", count: shiftWidth), absenceStyle)
        } else {
            cell.append(String(repeating: " ", count: shiftWidth))
        }
        cell.append(" ")
        let trackedSpans = tracked.map { (start: $0.start, end: $0.end) }
        cell.append(
            String(
                repeating: glyph(covered(trackedSpans, hour: hours.0), covered(trackedSpans, hour: hours.1)), count: 2),
            rose)
        cell.append(" ")
        return cell.fitted(width)
    }

    // MARK: - Month

    /// The month: a header of weekdays, six rows of seven boxed cells (the day number, inverse
    /// today and dim outside the month; ✓ or ?; absence symbols; a dot per shift in its colour
    /// and a rose dot for tracked time; overtime on confirmed days), then the summary footer.
    /// With fewer than `roomy` rows the rules between the weeks are left out.
    static func month(_ month: MonthScreen, width: Int, rows: Int) -> [String] {
        let cells = month.cells
        guard cells.count == 42 else { return [] }
        let column = max(5, (width - 8) / 7)
        let rules = rows >= 30
        func rule(_ left: String, _ middle: String, _ right: String) -> Styled {
            Styled(
                left + Array(repeating: String(repeating: "─", count: column), count: 7).joined(separator: middle)
                    + right, grey)
        }
        var lines: [Styled] = [navigation(title: month.title, toggle: nil, width: width)]
        lines.append(
            Styled(" " + month.weekdays.map { Styled($0, bold).fitted(column).plain }.joined(separator: " "), bold))
        lines.append(rule("┌", "┬", "┐"))
        for week in 0..<6 {
            var top = Styled("│", grey)
            var bottom = Styled("│", grey)
            for cell in cells[(week * 7)..<(week * 7 + 7)] {
                let (first, second) = monthCell(cell)
                top = top + first.fitted(column) + Styled("│", grey)
                bottom = bottom + second.fitted(column) + Styled("│", grey)
            }
            lines += [top, bottom]
            if week < 5 && rules { lines.append(rule("├", "┼", "┤")) }
        }
        lines.append(rule("└", "┴", "┘"))
        lines += pack(month.footer, width: width - 2).map { Styled(" " + $0, bold) }
        return lines.map { $0.fitted(width).rendered }
    }

    /// `parts` joined by " · " into lines of at most `width` (a part longer than a line is cut
    /// where it has to be).
    static func pack(_ parts: [String], width: Int) -> [String] {
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, last.count + 3 + part.count <= width {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines += TreeRenderer.wrap(part, width)
            }
        }
        return lines
    }

    /// A month cell's two lines.
    static func monthCell(_ cell: MonthScreen.Cell) -> (Styled, Styled) {
        let inMonth = cell.inMonth
        let number = String(Int(cell.hours.day.suffix(2)) ?? 0)
        var first = Styled(number.count < 2 ? number + " " : number, cell.isToday ? inverse : inMonth ? bold : dim)
        switch cell.mark {
        case .confirmed: first.append(" ✓", teal)
        case .unconfirmed: first.append(" ?", grey)
        case .planned, .empty: break
        }
        for absence in cell.absences { first.append(" " + symbol(absence), absenceStyle) }
        var second = Styled()
        for shift in cell.shiftColors { second.append("●", inMonth ? colour(shift) : dim) }
        if cell.hours.grossSeconds > 0 {
            if second.width > 0 { second.append(" ") }
            second.append("●", inMonth ? rose : dim)
        }
        if let minutes = cell.hours.overtimeMinutes {
            second.append(" " + hm(minutes, signed: true), overtimeStyle(minutes))
        }
        return (first, second)
    }
}
