import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// The calendar on the device: the plan's rules through the module, the week
/// as a screen model with each day's hours from `WorkHours`, confirmed days locked. The phone's
/// clock stands at Thursday 2026-11-19 08:00 (week 47).
@Suite("Time tracking: the week and the plan")
struct CalendarProbeTests {
    @MainActor
    static func day(_ phone: WorkerPhone, _ date: String) -> UIElement? {
        phone.app.tree().elements(UIIdentifier.calendarDay).first { $0.attributes["date"] == date }
    }

    @Test(
        "calendar-week: shifts from a template, tracked time against the plan, overtime on the confirmed day, ? on the others, Submit where it can; a confirmed day refuses changes"
    )
    func week() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "calendar")
            let home = try phone.addLocation()
            let early = try #require(
                phone.app.addShiftTemplate(
                    name: "Early", color: .teal, startMinute: 360, durationMinutes: 480, breakMinutes: 30))
            for day in ["2026-11-16", "2026-11-17", "2026-11-19", "2026-11-20"] {
                #expect(phone.app.placeShift(early, on: day) != nil, "\(day)")
            }
            func at(_ text: String) -> Date { OutpostJSON.parse(text)! }
            phone.app.addManualSession(at: home.id, from: at("2026-11-16T06:00:00Z"), to: at("2026-11-16T14:00:00Z"))
            phone.app.addManualSession(at: home.id, from: at("2026-11-17T06:00:00Z"), to: at("2026-11-17T14:30:00Z"))
            lab.api.clock.set(phone.clock.now)
            await phone.confirm("2026-11-16")
            #expect(phone.app.confirmedDays["2026-11-16"]?.status == .submitted)
            phone.app.showWeek()
            var tree = phone.app.tree()
            #expect(tree.screen == UIIdentifier.calendarWeekScreen)
            #expect(tree.element(UIIdentifier.calendarTitle)?.text == "Week 47 · 2026-11-16 – 2026-11-22")
            #expect(tree.elements(UIIdentifier.calendarDay).count == 7)
            let monday = try #require(Self.day(phone, "2026-11-16"))
            #expect(monday.attributes["status"] == "confirmed" && monday.attributes["overtimeMinutes"] == "30")
            #expect(monday.text == "Mon 2026-11-16 · +0h 30m ✓")
            #expect(Self.day(phone, "2026-11-17")?.text == "Tue 2026-11-17 · ?")
            #expect(Self.day(phone, "2026-11-19")?.attributes["today"] == "true")
            #expect(Self.day(phone, "2026-11-19")?.text == "Thu 2026-11-19", "today is not nudged")
            #expect(
                tree.elements(UIIdentifier.calendarTracked).map(\.text) == [
                    "Tracked 8 h 00 min of 7 h 30 min planned", "Tracked 8 h 30 min of 7 h 30 min planned",
                ])
            #expect(tree.elements(UIIdentifier.trackDaySubmit).map { $0.attributes["date"] } == ["2026-11-17"])
            #expect(tree.contains(UIIdentifier.trackReviewHint))
            #expect(tree.elements(UIIdentifier.calendarShift).first?.text == "Early 06:00–14:00 · break 30 min")
            #expect(tree.element(UIIdentifier.calendarTemplate)?.attributes["templateId"] == early.wire)
            // Nothing changes on the confirmed day; an overlap is refused with the other's name.
            phone.app.placeShift(early, on: "2026-11-16", startMinute: 900)
            #expect(
                phone.app.tree().element(UIIdentifier.trackError)?.text
                    == "2026-11-16 is confirmed and cannot be changed.")
            phone.app.placeShift(early, on: "2026-11-17", startMinute: 600)
            #expect(phone.app.tree().element(UIIdentifier.trackError)?.text == "It overlaps Early on that day.")
            #expect(phone.app.shiftPlan.shifts.count == 4)
            // An absence is shown over the shift of its day.
            phone.app.addAbsence(on: "2026-11-20", kind: .sick)
            tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.calendarAbsence)?.text == "Sick · Sick · all day")
            #expect(
                tree.elements(UIIdentifier.calendarShift).first { $0.attributes["date"] == "2026-11-20" }?
                    .attributes["underAbsence"] == "true")
            // The GPS toggle hides the tracked time; previous and next weeks.
            phone.app.toggleTrackedTime()
            #expect(!phone.app.tree().contains(UIIdentifier.calendarTracked))
            #expect(phone.app.tree().element(UIIdentifier.calendarGPSToggle)?.attributes["on"] == "false")
            phone.app.showAdjacentWeek(-1)
            #expect(phone.app.tree().element(UIIdentifier.calendarTitle)?.text == "Week 46 · 2026-11-09 – 2026-11-15")
            phone.app.showAdjacentWeek(2)
            #expect(phone.app.tree().element(UIIdentifier.calendarTitle)?.text == "Week 48 · 2026-11-23 – 2026-11-29")
            // calendar-month: the same days in the month's 42 cells, and its footer.
            phone.app.addAbsence(on: "2026-11-27", kind: .vacation)
            phone.app.showMonth()
            tree = phone.app.tree()
            #expect(tree.screen == UIIdentifier.calendarMonthScreen)
            #expect(tree.element(UIIdentifier.calendarTitle)?.text == "November 2026")
            let cells = tree.elements(UIIdentifier.calendarMonthCell)
            #expect(cells.count == 42)
            #expect(cells.first?.attributes["date"] == "2026-10-26" && cells.last?.attributes["date"] == "2026-12-06")
            #expect(cells.filter { $0.attributes["inMonth"] == "true" }.count == 30)
            func cell(_ date: String) -> UIElement? { cells.first { $0.attributes["date"] == date } }
            #expect(cell("2026-11-16")?.text == "16 ✓ +0h 30m")
            #expect(cell("2026-11-17")?.text == "17 ?" && cell("2026-11-17")?.attributes["tracked"] == "true")
            #expect(cell("2026-11-19")?.attributes["today"] == "true" && cell("2026-11-19")?.text == "19")
            #expect(
                cell("2026-11-20")?.attributes["absences"] == "sick"
                    && cell("2026-11-20")?.attributes["shifts"] == "teal")
            #expect(cell("2026-11-27")?.text == "27 🌴")
            let summary = try #require(tree.element(UIIdentifier.calendarMonthSummary))
            #expect(
                summary.text
                    == "Tracked 16 h 30 min · Planned 30 h 00 min · Overtime +0h 30m · Vacation 1 · Sick 1 (1 confirmed)"
            )
            phone.app.showMonth(offset: 1)
            #expect(phone.app.tree().element(UIIdentifier.calendarTitle)?.text == "December 2026")
            #expect(phone.app.tree().elements(UIIdentifier.calendarMonthCell).first?.attributes["date"] == "2026-11-30")
        }
    }

    @Test("calendar-template-delete: future shifts go, past ones stay orphaned and say so; German copy")
    func deleteTemplate() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "orphans")
            let late = try #require(
                phone.app.addShiftTemplate(name: "Late", color: .amber, startMinute: 840, durationMinutes: 480))
            phone.app.placeShift(late, on: "2026-11-17")
            phone.app.placeShift(late, on: "2026-11-21")
            phone.app.deleteShiftTemplate(late)
            phone.app.showWeek(of: "2026-11-17")
            let shifts = phone.app.tree().elements(UIIdentifier.calendarShift)
            #expect(shifts.map { $0.attributes["date"] } == ["2026-11-17"])
            #expect(
                shifts.first?.attributes["orphaned"] == "true"
                    && shifts.first?.text == "Late 14:00–22:00 · template deleted")
            phone.language = .de
            try phone.relaunch()
            phone.app.showWeek(of: "2026-11-17")
            let tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.calendarTitle)?.text == "KW 47 · 2026-11-16 – 2026-11-22")
            #expect(tree.elements(UIIdentifier.calendarShift).first?.text == "Late 14:00–22:00 · Vorlage gelöscht")
            #expect(tree.element(UIIdentifier.tabCalendar)?.text == "Woche")
        }
    }

    @Test(
        "status-dashboard: 14 days of planned and tracked, unconfirmed days faded with 'X to confirm' (today excluded), days before the account as —, the axis growing to 16 h, the next shift"
    )
    func dashboard() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "dashboard")
            let home = try phone.addLocation()
            let early = try #require(
                phone.app.addShiftTemplate(
                    name: "Early", color: .teal, startMinute: 360, durationMinutes: 480, breakMinutes: 30))
            for day in ["2026-11-17", "2026-11-19", "2026-11-20"] { phone.app.placeShift(early, on: day) }
            func at(_ text: String) -> Date { OutpostJSON.parse(text)! }
            phone.app.addManualSession(at: home.id, from: at("2026-11-16T06:00:00Z"), to: at("2026-11-16T14:00:00Z"))
            phone.app.addManualSession(at: home.id, from: at("2026-11-17T06:00:00Z"), to: at("2026-11-17T14:30:00Z"))
            phone.app.addAbsence(on: "2026-11-18", kind: .vacation)
            phone.app.showTracking(.status)
            var tree = phone.app.tree()
            let days = tree.elements(UIIdentifier.dashboardDay)
            #expect(days.count == 14)
            #expect(days.first?.attributes["date"] == "2026-11-06" && days.last?.attributes["date"] == "2026-11-19")
            #expect(days.last?.attributes["today"] == "true" && days.last?.attributes["faded"] == "false")
            #expect(days.first?.text == "F 2026-11-06 —", "before the account, nothing is not zero")
            let monday = try #require(days.first { $0.attributes["date"] == "2026-11-16" })
            #expect(
                monday.text == "M 2026-11-16 · planned 0 min, tracked 8 h 00 min"
                    && monday.attributes["faded"] == "true")
            #expect(days.first { $0.attributes["date"] == "2026-11-18" }?.text.hasSuffix("🌴") == true)
            #expect(tree.element(UIIdentifier.dashboardNudge)?.text == "2 to confirm")
            #expect(tree.element(UIIdentifier.dashboard)?.attributes["axisHours"] == "12")
            #expect(tree.element(UIIdentifier.dashboardNextShift)?.text == "Next shift: Early · 2026-11-20 06:00–14:00")
            // Confirmed days are no longer faded; a 13-hour day grows the axis to 16 h.
            lab.api.clock.set(phone.clock.now)
            await phone.confirm("2026-11-16")
            phone.app.addManualSession(at: home.id, from: at("2026-11-15T06:00:00Z"), to: at("2026-11-15T19:00:00Z"))
            phone.app.showTracking(.status)
            tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.dashboardNudge)?.text == "2 to confirm")
            #expect(
                tree.elements(UIIdentifier.dashboardDay).first { $0.attributes["date"] == "2026-11-16" }?.attributes[
                    "faded"] == "false")
            #expect(tree.element(UIIdentifier.dashboard)?.attributes["axisHours"] == "16")
        }
    }

    @Test(
        "hours-one-source: a night session counts on both its days alike in the week, the CSV and the submission; a session touching a confirmed day is refused"
    )
    func oneSource() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "night")
            let home = try phone.addLocation()
            func at(_ text: String) -> Date { OutpostJSON.parse(text)! }
            phone.app.addManualSession(at: home.id, from: at("2026-11-16T22:00:00Z"), to: at("2026-11-17T06:00:00Z"))
            phone.app.showWeek(of: "2026-11-16")
            let tracked = phone.app.tree().elements(UIIdentifier.calendarTracked)
            #expect(tracked.map { $0.attributes["date"] } == ["2026-11-16", "2026-11-17"])
            #expect(tracked.map { $0.attributes["minutes"] } == ["120", "360"])
            let csv = try phone.app.trackingCSV(timeZone: TimeZone(identifier: "UTC")!)
            let rows = csv.split(separator: "\r\n").dropFirst().map(String.init)
            #expect(
                rows == [
                    "2026-11-16,Monday,22:00,00:00,2:00,Manual,completed,Care home Nord",
                    "2026-11-17,Tuesday,00:00,06:00,6:00,Manual,completed,Care home Nord",
                ])
            lab.api.clock.set(phone.clock.now)
            await phone.confirm("2026-11-16")
            let days = try await DaySubmissionProbeTests.serverDays(lab, phone.email)
            #expect(days.map(\.trackedMinutes) == [120])
            #expect(days.first?.sessions.count == 1)
            // The night's other day is not confirmed; a new session reaching into the confirmed one is refused.
            phone.app.addManualSession(at: home.id, from: at("2026-11-15T23:00:00Z"), to: at("2026-11-16T01:00:00Z"))
            #expect(
                phone.app.tree().element(UIIdentifier.trackError)?.text
                    == "2026-11-16 is confirmed and cannot be changed.")
            await phone.confirm("2026-11-17")
            #expect(try await DaySubmissionProbeTests.serverDays(lab, phone.email).map(\.trackedMinutes) == [120, 360])
        }
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/calendar")

    /// The tree as committed: ids (random per run) left out, everything else as shown.
    static func normalized(_ tree: UITree) throws -> String {
        let ids: Set<String> = ["shiftId", "templateId", "absenceId", "locationId"]
        let elements = tree.elements.map { element in
            UIElement(element.id, element.text, element.attributes.filter { !ids.contains($0.key) })
        }
        let stable = UITree(
            screen: tree.screen, elements: elements, online: tree.online, pending: tree.pending, user: "worker",
            event: tree.event)
        return String(decoding: try OutpostJSON.encode(stable), as: UTF8.self)
            .replacingOccurrences(of: "},{", with: "},\n{") + "\n"
    }

    /// A screen model as committed: its random ids replaced by stable ones, numbered in the
    /// order they first appear (so the committed model still decodes, and the same id is the same).
    static func normalized(model: some Encodable) throws -> String {
        let text = String(decoding: try OutpostJSON.encode(model), as: UTF8.self)
        var stable: [String: String] = [:]
        let id = /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/
        return
            text.replacing(id) { match in
                let original = String(match.output).lowercased()
                if let known = stable[original] { return known }
                let next = String(format: "00000000-0000-4000-8000-%012d", stable.count + 1)
                stable[original] = next
                return next
            }
            .replacingOccurrences(of: "},{", with: "},\n{") + "\n"
    }

    /// Compares the typed model the front-ends draw from with the committed one (beside the
    /// tree it projects to); `OUTPOST_UPDATE_FIXTURES=1` writes it instead.
    static func expectCommitted(model: (some Encodable)?, _ name: String) throws {
        try expectCommitted(text: try normalized(model: try #require(model, "no \(name) shown")), name)
    }

    /// Compares with the committed tree; `OUTPOST_UPDATE_FIXTURES=1` writes it instead.
    static func expectCommitted(_ tree: UITree, _ name: String) throws {
        try expectCommitted(text: try normalized(tree), name)
    }

    static func expectCommitted(text: String, _ name: String) throws {
        let file = fixtures.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["OUTPOST_UPDATE_FIXTURES"] == "1" {
            try Data(text.utf8).write(to: file)
            return
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(text == committed, "\(name) differs from the committed file; the new one:\n\(text)")
    }

    @Test(
        "calendar-committed-trees: seed-demo's November makes the committed month, week and status trees (shifts, sessions, absences, ✓ and ?, the footer, the 14 days)"
    )
    func committedTrees() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "demo-month")
            await phone.app.connectivityChanged(online: false)
            phone.app.seedTrackingDemo(month: "2026-11", seed: 1)
            var tree = phone.app.tree()
            #expect(tree.screen == UIIdentifier.calendarMonthScreen)
            #expect(tree.element(UIIdentifier.trackNotice)?.text.hasPrefix("A month of demo work:") == true)
            let cells = tree.elements(UIIdentifier.calendarMonthCell)
            #expect(cells.contains { $0.text.contains("✓") } && cells.contains { $0.text.hasSuffix("?") })
            #expect(cells.contains { $0.text.contains("🌴") } && cells.contains { $0.text.contains("🤒") })
            try Self.expectCommitted(tree, "month-2026-11.json")
            try Self.expectCommitted(model: phone.app.shown().part(MonthScreen.self), "month-2026-11.model.json")
            phone.app.showWeek(of: "2026-11-09")
            tree = phone.app.tree()
            try Self.expectCommitted(tree, "week-2026-11-09.json")
            try Self.expectCommitted(model: phone.app.shown().part(WeekScreen.self), "week-2026-11-09.model.json")
            // The status screen with its 14 days (the terminal's bars and the report start here too).
            phone.app.showTracking(.status)
            tree = phone.app.tree()
            #expect(tree.elements(UIIdentifier.dashboardDay).count == 14)
            try Self.expectCommitted(tree, "status-2026-11-19.json")
            try Self.expectCommitted(
                model: phone.app.shown().part(TrackingStatusScreen.self), "status-2026-11-19.model.json")
        }
    }

    @Test(
        "track-session-break: a session's break comes off its days in the history, the week, the CSV and the submission; longer than the session or on a confirmed day it is refused"
    )
    func sessionBreak() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "break")
            let home = try phone.addLocation()
            func at(_ text: String) -> Date { OutpostJSON.parse(text)! }
            phone.app.addManualSession(at: home.id, from: at("2026-11-17T06:00:00Z"), to: at("2026-11-17T14:00:00Z"))
            let session = try #require(phone.app.trackedSessions.first)
            phone.app.setSessionBreak(session.id, minutes: 600)
            #expect(
                phone.app.tree().element(UIIdentifier.trackError)?.text == "A break cannot be longer than its session.")
            phone.app.setSessionBreak(session.id, minutes: 30)
            #expect(phone.app.tree().element(UIIdentifier.trackNotice)?.text == "Break of 30 min saved.")
            #expect(phone.app.tree().element(UIIdentifier.trackHistorySession)?.text.contains("break 30 min") == true)
            phone.app.showWeek(of: "2026-11-17")
            #expect(
                phone.app.tree().elements(UIIdentifier.calendarTracked).first?.attributes["minutes"] == "450")
            let rows = try phone.app.trackingCSV().split(separator: "\r\n").dropFirst().map(String.init)
            #expect(rows == ["2026-11-17,Tuesday,06:00,14:00,7:30,Manual,completed,Care home Nord"])
            lab.api.clock.set(phone.clock.now)
            await phone.confirm("2026-11-17")
            let days = try await DaySubmissionProbeTests.serverDays(lab, phone.email)
            #expect(days.first?.trackedMinutes == 450 && days.first?.sessions.first?.breakMinutes == 30)
            phone.app.setSessionBreak(session.id, minutes: 45)
            #expect(
                phone.app.tree().element(UIIdentifier.trackError)?.text
                    == "2026-11-17 is confirmed and cannot be changed.")
        }
    }
}
