import Foundation
import OutpostDevice
import OutpostProtocol
import Testing

@testable import OutpostTerminal
@testable import OutpostTracking

/// `outpost track`'s pictures: the 14 days as bars, the week and the month as
/// grids, drawn from seed-demo's November as the device tests commit it (the typed screen models
/// and the trees they project, `OutpostDeviceTests/Fixtures/calendar`), compared with the committed renderings here, which
/// `scripts/tmux-e2e` also finds on a real terminal. `OUTPOST_UPDATE_FIXTURES=1` rewrites them.
@Suite("Track view: the calendar as pictures")
struct CalendarViewTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let trees = here.appendingPathComponent("../OutpostDeviceTests/Fixtures/calendar")
    static let size = (rows: 32, columns: 90)

    static func tree(_ name: String) throws -> UITree {
        try JSONDecoder().decode(UITree.self, from: Data(contentsOf: trees.appendingPathComponent(name)))
    }

    /// The committed screen model `name` (`week-2026-11-09`): the front-ends draw from it.
    static func model<M: Decodable>(_ type: M.Type, _ name: String) throws -> M {
        try OutpostJSON.decode(M.self, from: Data(contentsOf: trees.appendingPathComponent(name + ".model.json")))
    }

    /// What the device showed: the committed tree and the typed model it projects.
    static func shown(_ name: String) throws -> ShownScreen {
        let model: any ScreenModel =
            switch name {
            case _ where name.hasPrefix("week"): try Self.model(WeekScreen.self, name)
            case _ where name.hasPrefix("month"): try Self.model(MonthScreen.self, name)
            default: try Self.model(TrackingStatusScreen.self, name)
            }
        return ShownScreen(tree: try tree(name + ".json"), parts: model.parts)
    }

    static func plain(_ lines: [String]) -> [String] {
        lines.map { TrackViewTests.strip($0).replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
    }

    /// The picture's lines of a frame: from the line starting with `first` to the next one
    /// containing `last`, as a terminal shows them (no colour, no trailing blanks).
    static func section(_ frame: [String], from first: String, to last: String) throws -> String {
        let lines = plain(frame)
        let start = try #require(lines.firstIndex { $0.hasPrefix(first) }, "no line starts with \(first)")
        let end = try #require(lines[start...].firstIndex { $0.contains(last) }, "no line has \(last)")
        return lines[start...end].joined(separator: "\n") + "\n"
    }

    static func expectCommitted(_ text: String, _ name: String) throws {
        let file = here.appendingPathComponent("Fixtures").appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["OUTPOST_UPDATE_FIXTURES"] == "1" {
            try Data(text.utf8).write(to: file)
            return
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(text == committed, "\(name) differs from the committed picture; the new one:\n\(text)")
    }

    @Test(
        "track-terminal-committed: seed-demo's status, week and month drawn at 90×32 are the committed pictures (tmux-e2e finds the same on a terminal)"
    )
    func committed() throws {
        let status = TrackView.frame(try Self.shown("status-2026-11-19"), size: Self.size, selected: 0)
        try Self.expectCommitted(
            try Self.section(status, from: " Last 14 days", to: "Next shift"), "status-2026-11-19.txt")
        let week = TrackView.frame(try Self.shown("week-2026-11-09"), size: Self.size, selected: 0)
        try Self.expectCommitted(try Self.section(week, from: " ◀ Week", to: " ■"), "week-2026-11-09.txt")
        let month = TrackView.frame(try Self.shown("month-2026-11"), size: Self.size, selected: 0)
        try Self.expectCommitted(try Self.section(month, from: " ◀ November", to: "confirmed)"), "month-2026-11.txt")
    }

    @Test(
        "track-terminal-week: days with ✓ and ?, shifts in their colour by the hour, tracked time beside them, sick days ░ over free hours, totals, overtime, Submit, the legend; the GPS toggle hides tracked time"
    )
    func week() throws {
        let week = try Self.model(WeekScreen.self, "week-2026-11-09")
        let lines = CalendarView.week(week, width: 90, selected: 0)
        let plain = Self.plain(lines)
        #expect(lines.allSatisfy { TrackViewTests.strip($0).count == 90 })
        let header = try #require(plain.first { $0.contains("Mon 9") })
        #expect(header.contains("Mon 9 ? ✚") && header.contains("Tue 10 ✓"))
        // Each day's column: 11 wide ((90 - 6 - 1) / 7), after 6 for the hours.
        func cell(_ lines: [String], _ hour: String, _ day: Int) throws -> String {
            let row = try #require(lines.first { $0.hasPrefix(hour) }).padding(
                toLength: 90, withPad: " ", startingAt: 0)
            return String(row.dropFirst(6 + 11 * day).prefix(11))
        }
        #expect(try cell(plain, "06:00", 1) == "███████ ██ ", "Tuesday's Early shift and tracked time from 06:00")
        #expect(try cell(plain, "12:00", 1) == "███████ ██ ")
        #expect(try cell(plain, "14:00", 1) == "           ", "14:00–14:15 tracked: less than half of the hour")
        #expect(try cell(plain, "00:00", 0) == "░░░░░░░    ", "a sick day lies over the free hours")
        #expect(try cell(plain, "06:00", 0) == "███████    ", "the planned shift stays visible under it")
        #expect(lines.contains { $0.contains(CalendarView.colour(.teal) + "███████") }, "the shift in its colour")
        #expect(plain.contains { $0.contains("8:20/7:30") }, "tracked against planned")
        #expect(plain.contains { $0.contains("+0:50 ✓") }, "overtime on a confirmed day")
        #expect(plain.contains { $0.hasPrefix(" ■ Early 06:00–14:00") })
        var hidden = week
        hidden.showTracked = false
        let off = Self.plain(CalendarView.week(hidden, width: 90, selected: 0))
        #expect(try cell(off, "06:00", 1) == "███████    ", "GPS off: no tracked time drawn")
    }

    @Test(
        "track-terminal-month: six boxed weeks of seven cells, today inverse, days outside the month dim, ✓ with overtime, ?, ☀ and ✚, shift and tracked dots, the footer wrapped; no rules between weeks when short of rows"
    )
    func month() throws {
        let month = try Self.model(MonthScreen.self, "month-2026-11")
        let lines = CalendarView.month(month, width: 90, rows: 32)
        let plain = Self.plain(lines)
        #expect(lines.allSatisfy { TrackViewTests.strip($0).count <= 90 })
        #expect(plain.filter { $0.hasPrefix("│") }.count == 12, "six weeks, two lines each")
        #expect(plain.filter { $0.hasPrefix("├") }.count == 5)
        #expect(plain[1].hasPrefix(" Mon") && plain[1].contains("Sun"))
        #expect(plain.contains { $0.contains("│10 ✓") })
        #expect(plain.contains { $0.contains("│9  ? ✚") }, "a sick day still to confirm")
        #expect(plain.contains { $0.contains("│20 ☀") }, "vacation")
        #expect(plain.contains { $0.contains("● ● +0:50") }, "a shift, tracked time and the overtime")
        #expect(lines.contains { $0.contains(CalendarView.inverse + "19") }, "today")
        #expect(lines.contains { $0.contains(CalendarView.dim + "26") }, "October's days are dim")
        #expect(
            plain.suffix(2) == [
                " Tracked 99 h 13 min · Planned 141 h 44 min · Overtime +7h 6m · Vacation 3", " Sick 1 (9 confirmed)",
            ], "the footer, wrapped between its parts")
        let short = Self.plain(CalendarView.month(month, width: 90, rows: 24))
        #expect(!short.contains { $0.hasPrefix("├") } && short.filter { $0.hasPrefix("│") }.count == 12)
    }

    @Test(
        "track-terminal-week-hours: an hour is drawn when at least half of it is covered: both hours █, the first ▀, the second ▄; a night shift's tail"
    )
    func hours() {
        func cell(_ planned: [(Int, Int)], tracked: [(Int, Int)] = [], row: Int) -> String {
            CalendarView.weekCell(
                row: row, width: 11, planned: planned.map { ($0.0, $0.1, .teal) },
                tracked: tracked.map { ($0.0, $0.1, nil) }, away: []
            ).plain
        }
        #expect(cell([(360, 480)], row: 3) == "███████    ", "06:00-08:00")
        #expect(cell([(360, 420)], row: 3) == "▀▀▀▀▀▀▀    ", "06:00-07:00")
        #expect(cell([(420, 480)], row: 3) == "▄▄▄▄▄▄▄    ", "07:00-08:00")
        #expect(cell([(360, 389)], row: 3) == "           ", "29 minutes are not half an hour")
        #expect(cell([(360, 390)], tracked: [(380, 480)], row: 3) == "▀▀▀▀▀▀▀ ██ ", "tracked beside the shift")
        #expect(cell([(360, 390)], tracked: [(395, 480)], row: 3) == "▀▀▀▀▀▀▀ ▄▄ ", "25 tracked minutes of 06:00")
        #expect(cell([(0, 360)], row: 2) == "███████    ", "a night shift's tail after midnight")
    }

    @Test("track-terminal-calendar-resize: the week and the month fit a 60-column, 24-row terminal and fill it")
    func resize() throws {
        for name in ["week-2026-11-09", "month-2026-11"] {
            let lines = TrackView.frame(try Self.shown(name), size: (rows: 24, columns: 60), selected: 0)
            #expect(lines.count == 24)
            #expect(lines.map(TrackViewTests.strip).allSatisfy { $0.count <= 60 }, "\(name)")
        }
    }
}
