import Foundation
import OutpostDevice

/// Lays out a frame of `outpost track`: the title and connection, the tabs, the permission
/// warning and the last action's words, then the screen (location cards with the clocked-in one
/// in green and its running time, a pending exit in amber; or the locations; or the history,
/// days with their sessions and Submit), then the keys. Words come from the tree; states,
/// times and minutes from the typed screen models. Pure: what is shown and a size in, lines out.
public enum TrackView {
    static let green = "\u{1B}[1;32m"
    static let amber = "\u{1B}[1;33m"
    static let red = "\u{1B}[1;31m"
    static let warning = "\u{1B}[1;30;43m"
    static let inverse = "\u{1B}[7m"
    static let dim = StationView.dim
    static let bold = StationView.bold
    static let reset = StationView.reset

    /// Elements the keys stand in for, or the frame draws itself.
    static let hidden: Set<String> = [
        UIIdentifier.tabStatus, UIIdentifier.tabTrackLocations, UIIdentifier.tabTrackHistory,
        UIIdentifier.trackClockIn, UIIdentifier.trackClockOut, UIIdentifier.trackLocationAdd,
        UIIdentifier.pendingSyncBanner, UIIdentifier.offlineBanner, UIIdentifier.tabCalendar,
        // The 14 days are drawn as bars (``bars(_:height:)``).
        UIIdentifier.dashboardDay,
        // The floating button is a phone's; keys stand in for it here.
        UIIdentifier.calendarFAB, UIIdentifier.calendarFABShifts, UIIdentifier.calendarFABAbsences,
        UIIdentifier.calendarFABLogHours, UIIdentifier.trackSubmitExplanationContinue,
        UIIdentifier.trackSubmitExplanationCancel,
    ]

    public static let keys =
        "↑↓ choose · i clock in · o clock out · c submit day · s l h w m screens · r sync · x hide warning · q quit"
    public static let weekKeys =
        "←→ week · ↑↓ choose day · c submit · g GPS · s l h w m screens · r sync · q quit"
    public static let monthKeys = "←→ month · s l h w m screens · r sync · q quit"
    public static let explanationKeys = "Enter submit · Esc not now · q quit"

    /// What the calendar grids draw themselves.
    static let calendarElements: Set<String> = [
        UIIdentifier.calendarPrev, UIIdentifier.calendarNext, UIIdentifier.calendarTitle,
        UIIdentifier.calendarGPSToggle, UIIdentifier.calendarTemplate, UIIdentifier.calendarAbsenceTemplate,
        UIIdentifier.calendarDay, UIIdentifier.calendarShift, UIIdentifier.calendarAbsence,
        UIIdentifier.calendarTracked, UIIdentifier.trackDaySubmit, UIIdentifier.trackReviewHint,
        UIIdentifier.calendarMonthCell, UIIdentifier.calendarMonthSummary,
    ]

    /// The frame for what is `shown` in a terminal of `size`; `selected` is the chosen card
    /// (status) or day to submit (history).
    public static func frame(_ shown: ShownScreen, size: (rows: Int, columns: Int), selected: Int) -> [String] {
        let tree = shown.tree
        let status = shown.part(TrackingStatusScreen.self)
        let width = max(40, size.columns)
        let connection =
            (tree.online ? "online" : "offline") + (tree.pending > 0 ? " · \(tree.pending) waiting to sync" : "")
        let title = "Outpost · time tracking" + (tree.user.map { " · \($0)" } ?? "")
        var lines = [
            bold
                + fit(title, width - connection.count - 1).padding(
                    toLength: width - connection.count, withPad: " ", startingAt: 0)
                + (tree.online ? "" : amber) + connection + reset,
            dim + String(repeating: "─", count: width) + reset,
        ]
        let tabs: [(String, String)] = [
            (UIIdentifier.tabStatus, UIIdentifier.trackStatusScreen),
            (UIIdentifier.tabTrackLocations, UIIdentifier.trackLocationsScreen),
            (UIIdentifier.tabTrackHistory, UIIdentifier.trackHistoryScreen),
            (UIIdentifier.tabCalendar, UIIdentifier.calendarWeekScreen),
        ]
        let calendar = tree.screen == UIIdentifier.calendarWeekScreen || tree.screen == UIIdentifier.calendarMonthScreen
        lines.append(
            tabs.compactMap { tab, screen in
                let shown = tree.screen == screen || (calendar && tab == UIIdentifier.tabCalendar)
                return tree.element(tab).map { shown ? inverse + " \($0.text) " + reset : " \($0.text) " }
            }.joined(separator: " "))
        lines.append("")
        var card = 0
        var submit = 0
        var grid = false
        for element in tree.elements where !element.text.isEmpty && !hidden.contains(element.id) {
            if calendar && calendarElements.contains(element.id) {
                // The grid stands in for the calendar's elements: drawn once, where the first was.
                if !grid {
                    grid = true
                    if let week = shown.part(WeekScreen.self) {
                        lines += CalendarView.week(week, width: width, selected: selected)
                    } else if let month = shown.part(MonthScreen.self) {
                        lines += CalendarView.month(month, width: width, rows: size.rows)
                    }
                }
                continue
            }
            switch element.id {
            case UIIdentifier.trackPermissionWarning, UIIdentifier.trackDemoBanner:
                for line in TreeRenderer.wrap("⚠ " + element.text, width - 2) {
                    lines.append(warning + " " + line.padding(toLength: width - 1, withPad: " ", startingAt: 0) + reset)
                }
            case UIIdentifier.trackNotice:
                lines += TreeRenderer.wrap("✓ " + element.text, width - 2).map { " " + green + $0 + reset }
            case UIIdentifier.trackError, UIIdentifier.trackDayAnswer:
                lines += TreeRenderer.wrap("✗ " + element.text, width - 2).map { " " + red + $0 + reset }
            case UIIdentifier.trackLocationCard:
                let marker = card == selected ? "▶ " : "  "
                let session = status.flatMap { card < $0.cards.count ? $0.cards[card].session : nil }
                card += 1
                let (symbol, colour) =
                    switch session?.state {
                    case .active?: ("●", green)
                    case .pendingExit?: ("◐", amber)
                    case .completed?, nil: ("○", dim)
                    }
                lines.append(marker + colour + symbol + " " + fit(element.text, width - 4) + reset)
                if let session { lines.append("      " + dim + "since " + clock(session.clockIn) + reset) }
            case UIIdentifier.trackPendingExit:
                lines += TreeRenderer.wrap(element.text, width - 6).map { "      " + amber + $0 + reset }
            case UIIdentifier.trackHistoryDay:
                lines.append("")
                lines.append(" " + bold + fit(element.text, width - 2) + reset)
            case UIIdentifier.trackHistorySession:
                lines.append("     " + fit(element.text, width - 6))
            case UIIdentifier.trackDaySubmit:
                let marker = submit == selected ? "▶ " : "  "
                submit += 1
                lines.append("   " + marker + "[c] " + fit(element.text, width - 10))
            case UIIdentifier.trackSubmitExplanation:
                lines += TreeRenderer.wrap(element.text, width - 4).map { "  " + bold + $0 + reset }
            case UIIdentifier.trackHistoryTotal, UIIdentifier.trackReviewHint:
                lines.append(" " + bold + fit(element.text, width - 2) + reset)
            case UIIdentifier.dashboard:
                lines.append("")
                let nudge = tree.element(UIIdentifier.dashboardNudge).map { "  " + amber + $0.text + reset } ?? ""
                lines.append(" " + bold + element.text + reset + nudge)
                if let dashboard = status?.dashboard { lines += bars(dashboard, height: 6).map { " " + $0 } }
            case UIIdentifier.dashboardNudge:
                continue
            case UIIdentifier.trackProfile:
                lines.append("")
                lines.append(" " + dim + fit(element.text, width - 2) + reset)
            default:
                lines += TreeRenderer.wrap(element.text, width - 2).map { " " + $0 }
            }
        }
        let room = max(0, size.rows - 2)
        if lines.count > room { lines = Array(lines.prefix(room)) }
        while lines.count < room { lines.append("") }
        let help =
            switch tree.screen {
            case UIIdentifier.calendarWeekScreen: weekKeys
            case UIIdentifier.calendarMonthScreen: monthKeys
            case UIIdentifier.trackSubmitExplanation: explanationKeys
            default: keys
            }
        return lines + [dim + String(repeating: "─", count: width) + reset, dim + fit(help, width) + reset]
    }

    static let rose = "\u{1B}[35m"
    static let plannedColour = "\u{1B}[32m"
    static let eighths: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The 14-day overview as side-by-side bars (seed 003's HoursSummaryWidget): planned green,
    /// tracked rose, unconfirmed days dim, days before the account "–"; `height` rows for the
    /// axis the dashboard chose (12, 16 or 24 h), labelled at its top, middle and zero.
    static func bars(_ dashboard: StatusDashboard, height: Int) -> [String] {
        let days = dashboard.bars
        guard !days.isEmpty else { return [] }
        let axis = Double(dashboard.axisHours)
        func cells(_ minutes: Int) -> Int { Int((Double(minutes) / 60 / axis * Double(height * 8)).rounded()) }
        var rows: [String] = []
        for row in (0..<height).reversed() {
            let label =
                row == height - 1 ? "\(Int(axis))h" : row == height / 2 - 1 ? "\(Int(axis) / 2)h" : ""
            var line = label.padding(toLength: 4, withPad: " ", startingAt: 0) + "┤"
            for day in days {
                let planned = cells(day.hours.plannedMinutes)
                let tracked = cells(day.hours.trackedMinutes)
                func block(_ total: Int) -> Character { eighths[max(0, min(8, total - row * 8))] }
                let faded = day.faded ? dim : ""
                line +=
                    " " + faded + plannedColour + String(block(planned)) + reset + faded + rose + String(block(tracked))
                    + reset
            }
            rows.append(line)
        }
        rows.append(
            "0h  ┼" + days.map { $0.beforeAccount ? "–––" : "───" }.joined())
        rows.append("     " + days.map { " " + $0.weekday + " " }.joined())
        return rows
    }

    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}
