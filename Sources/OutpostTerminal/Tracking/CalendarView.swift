import Foundation
import OutpostDevice

/// The calendar of `outpost track` drawn as grids: the week as seven columns
/// of 24 hours (planned shifts in their colours, tracked time in rose beside them, absences
/// over them), the month as the 42 cells of six weeks, each from the screen's tree alone.
/// Pure: a tree and a width in, lines out.
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

    /// The seed's shift palette as 256-colour foregrounds.
    static func colour(_ name: String?) -> String {
        let code =
            switch name {
            case "teal": 30
            case "blue": 33
            case "green": 35
            case "amber": 214
            case "rose": 204
            case "purple": 135
            case "cyan": 44
            default: 250
            }
        return "\u{1B}[38;5;\(code)m"
    }

    static func symbol(_ absence: String) -> String { absence == "sick" ? "✚" : "☀" }

    /// Minutes as `H:MM`, signed when asked (overtime): `+1:30`, `−0:15`, `±0:00`.
    static func hm(_ minutes: Int, signed: Bool = false) -> String {
        let value = abs(minutes)
        let text = "\(value / 60):" + String(format: "%02d", value % 60)
        guard signed else { return text }
        return (minutes > 0 ? "+" : minutes < 0 ? "−" : "±") + text
    }

    static func overtimeStyle(_ minutes: Int) -> String { minutes > 0 ? positive : minutes < 0 ? negative : grey }

    /// `360-840:teal,1320-1440` as stretches with their tags.
    static func spans(_ text: String?) -> [(start: Int, end: Int, tag: String?)] {
        (text ?? "").split(separator: ",").compactMap { item in
            let parts = item.split(separator: ":", maxSplits: 1)
            let bounds = parts[0].split(separator: "-").compactMap { Int($0) }
            guard bounds.count == 2 else { return nil }
            return (bounds[0], bounds[1], parts.count > 1 ? String(parts[1]) : nil)
        }
    }

    /// The navigation line: ◀ title ▶, and on the week the GPS toggle.
    static func navigation(_ tree: UITree, width: Int) -> Styled {
        var line = Styled(" ◀ ", grey)
        line.append(tree.element(UIIdentifier.calendarTitle)?.text ?? "", bold)
        line.append(" ▶", grey)
        if let toggle = tree.element(UIIdentifier.calendarGPSToggle) {
            let on = toggle.attributes["on"] == "true"
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
    static func week(_ tree: UITree, width: Int, selected: Int) -> [String] {
        let days = tree.elements(UIIdentifier.calendarDay)
        guard days.count == 7 else { return [] }
        let label = 6
        let column = max(6, (width - label - 1) / 7)
        let absences = tree.elements(UIIdentifier.calendarAbsence)
        let submits = tree.elements(UIIdentifier.trackDaySubmit)
        var lines: [Styled] = [navigation(tree, width: width)]
        if let hint = tree.element(UIIdentifier.trackReviewHint) { lines.append(Styled(" " + hint.text, dim)) }
        var header = Styled(String(repeating: " ", count: label))
        for day in days {
            let date = day.attributes["date"] ?? ""
            let name = day.text.split(separator: " ").first.map(String.init) ?? ""
            var cell = Styled(
                name + " " + String(Int(date.suffix(2)) ?? 0), day.attributes["today"] == "true" ? inverse : bold)
            switch day.attributes["status"] {
            case "confirmed": cell.append(" ✓", teal)
            case "unconfirmed": cell.append(" ?", grey)
            default: break
            }
            for absence in absences where absence.attributes["date"] == date {
                cell.append(" " + symbol(absence.attributes["kind"] ?? ""), absenceStyle)
            }
            header = header + cell.spaced(column)
        }
        lines.append(header)
        let showTracked = tree.element(UIIdentifier.calendarGPSToggle)?.attributes["on"] != "false"
        for row in 0..<12 {
            var line = Styled(String(format: "%02d:00", row * 2) + " ", grey)
            for day in days {
                let date = day.attributes["date"] ?? ""
                let planned = spans(day.attributes["plannedSpans"])
                let tracked = spans(day.attributes["trackedSpans"])
                let away = absences.filter { $0.attributes["date"] == date }.map { absence in
                    absence.attributes["fullDay"] == "true"
                        ? (0, 1_440)
                        : (
                            Int(absence.attributes["startMinute"] ?? "") ?? 0,
                            Int(absence.attributes["endMinute"] ?? "") ?? 0
                        )
                }
                line =
                    line
                    + weekCell(
                        row: row, width: column, planned: planned, tracked: showTracked ? tracked : [], away: away)
            }
            lines.append(line)
        }
        var totals = Styled(String(repeating: " ", count: label))
        var overtime = Styled(String(repeating: " ", count: label))
        var submit = Styled(String(repeating: " ", count: label))
        for day in days {
            let planned = Int(day.attributes["plannedMinutes"] ?? "") ?? 0
            let tracked = Int(day.attributes["trackedMinutes"] ?? "") ?? 0
            totals =
                totals
                + (planned + tracked == 0
                ? Styled("·", grey) : Styled(hm(tracked), rose) + Styled("/" + hm(planned), grey)).spaced(column)
            if let minutes = day.attributes["overtimeMinutes"].flatMap(Int.init) {
                overtime =
                    overtime
                    + (Styled(hm(minutes, signed: true), overtimeStyle(minutes)) + Styled(" ✓", teal)).spaced(column)
            } else if day.attributes["status"] == "unconfirmed" {
                overtime = overtime + Styled("?", grey).spaced(column)
            } else {
                overtime = overtime + Styled().spaced(column)
            }
            if let index = submits.firstIndex(where: { $0.attributes["date"] == day.attributes["date"] }) {
                submit =
                    submit
                    + Styled(index == selected ? "▶ Submit" : "  Submit", index == selected ? bold : "").spaced(column)
            } else {
                submit = submit + Styled().spaced(column)
            }
        }
        lines += [totals, overtime]
        if !submits.isEmpty { lines.append(submit) }
        var legend = Styled(" ")
        for template in tree.elements(UIIdentifier.calendarTemplate) {
            legend.append("■ ", colour(template.attributes["color"]))
            legend.append(template.text + "  ")
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
        row: Int, width: Int, planned: [(start: Int, end: Int, tag: String?)],
        tracked: [(start: Int, end: Int, tag: String?)],
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
    static func month(_ tree: UITree, width: Int, rows: Int) -> [String] {
        let cells = tree.elements(UIIdentifier.calendarMonthCell)
        guard cells.count == 42 else { return [] }
        let column = max(5, (width - 8) / 7)
        let rules = rows >= 30
        func rule(_ left: String, _ middle: String, _ right: String) -> Styled {
            Styled(
                left + Array(repeating: String(repeating: "─", count: column), count: 7).joined(separator: middle)
                    + right, grey)
        }
        var lines: [Styled] = [navigation(tree, width: width)]
        let weekdays = (tree.element(UIIdentifier.calendarTitle)?.attributes["weekdays"] ?? "")
            .split(separator: ",").map(String.init)
        lines.append(Styled(" " + weekdays.map { Styled($0, bold).fitted(column).plain }.joined(separator: " "), bold))
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
        if let summary = tree.element(UIIdentifier.calendarMonthSummary) {
            lines += pack(summary.text.components(separatedBy: " · "), width: width - 2).map { Styled(" " + $0, bold) }
        }
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
    static func monthCell(_ cell: UIElement) -> (Styled, Styled) {
        let attributes = cell.attributes
        let inMonth = attributes["inMonth"] == "true"
        let number = String(Int((attributes["date"] ?? "").suffix(2)) ?? 0)
        var first = Styled(
            number.count < 2 ? number + " " : number,
            attributes["today"] == "true" ? inverse : inMonth ? bold : dim)
        switch attributes["status"] {
        case "confirmed": first.append(" ✓", teal)
        case "unconfirmed": first.append(" ?", grey)
        default: break
        }
        for absence in (attributes["absences"] ?? "").split(separator: ",") {
            first.append(" " + symbol(String(absence)), absenceStyle)
        }
        var second = Styled()
        for shift in (attributes["shifts"] ?? "").split(separator: ",") {
            second.append("●", inMonth ? colour(String(shift)) : dim)
        }
        if attributes["tracked"] == "true" {
            if second.width > 0 { second.append(" ") }
            second.append("●", inMonth ? rose : dim)
        }
        if let minutes = attributes["overtimeMinutes"].flatMap(Int.init) {
            second.append(" " + hm(minutes, signed: true), overtimeStyle(minutes))
        }
        return (first, second)
    }
}
