import Foundation
import OutpostDevice
import Testing

@testable import OutpostCore
@testable import OutpostTerminal
@testable import OutpostTracking

/// `outpost track`'s frame, pure: the shown screen (its tree and typed models) and a size in, lines out.
@Suite("Track view")
struct TrackViewTests {
    static func strip(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    static let start = Date(timeIntervalSince1970: 1_795_075_200)  // Thursday 2026-11-19 08:00 UTC

    static func location(_ name: String) -> WorkLocation {
        WorkLocation(
            id: .random(), name: name, fence: Fence(center: GeoPoint(latitude: 52.5, longitude: 13.4), radius: 100))
    }

    static func session(at location: WorkLocation, _ state: TrackedSession.State, minutes: Int) -> TrackedSession {
        TrackedSession(
            id: UUID(), location: location.id, clockIn: start.addingTimeInterval(-Double(minutes) * 60), clockOut: nil,
            state: state, method: .geofence, pendingExitAt: nil, checkInAccuracy: nil, exitAccuracy: nil,
            short: false)
    }

    /// A worker offline with a day waiting: clocked in at one home, leaving another, not at the
    /// office; the location permission only while using the app.
    static var shown: ShownScreen {
        let nord = location("Care home Nord")
        let linde = location("Haus Linde")
        let screen = TrackingStatusScreen(
            cards: [
                .init(location: nord, session: session(at: nord, .active, minutes: 125), elapsedMinutes: 125),
                .init(location: linde, session: session(at: linde, .pendingExit, minutes: 10), elapsedMinutes: 10),
                .init(location: location("Büro"), session: nil, elapsedMinutes: 0),
            ],
            notice: nil, error: nil, profile: "seed", permissionWarning: .whenInUse, dashboard: nil,
            copy: TrackingCopy(.en))
        return ShownScreen(
            screen,
            in: ShellFrame(
                online: false, pending: 1, user: "wanda@acme.test",
                banners: [UIElement(UIIdentifier.pendingSyncBanner, "1 day waiting to sync", ["pending": "1"])]))
    }

    @Test(
        "track-terminal-frame: the title and connection, the tabs, the warning, cards marked by state with the chosen one, the keys; fills and fits the terminal"
    )
    func frame() {
        let lines = TrackView.frame(Self.shown, size: (rows: 24, columns: 80), selected: 1)
        let plain = lines.map(Self.strip)
        #expect(lines.count == 24)
        #expect(plain.allSatisfy { $0.count <= 80 }, "\(plain.filter { $0.count > 80 })")
        #expect(plain[0].hasPrefix("Outpost · time tracking · wanda@acme.test"))
        #expect(plain[0].hasSuffix("offline · 1 waiting to sync") && plain[0].count == 80)
        #expect(plain[2] == " Status   Locations   History   Week ")
        #expect(lines[2].contains(TrackView.inverse + " Status "), "the screen's tab is shown inverse")
        #expect(plain.contains { $0.hasPrefix(" ⚠ Location access") })
        #expect(plain.contains("  ● Care home Nord · clocked in 2 h 05 min"))
        #expect(plain.contains { $0.hasPrefix("      since ") })
        #expect(plain.contains("▶ ◐ Haus Linde · clocked in 10 min"), "the chosen card")
        #expect(plain.contains("  ○ Büro · not clocked in"))
        #expect(!plain.contains { $0.contains("Clock out at") }, "keys stand in for the buttons")
        #expect(lines.contains { $0.contains(TrackView.green + "● Care home Nord") })
        #expect(lines.contains { $0.contains(TrackView.amber + "◐ Haus Linde") })
        #expect(plain.last?.hasPrefix("↑↓ choose · i clock in · o clock out") == true)
    }

    @Test("track-terminal-resize: a narrower, shorter terminal gets a frame of its size, nothing wider")
    func resize() {
        let lines = TrackView.frame(Self.shown, size: (rows: 12, columns: 44), selected: 0)
        let plain = lines.map(Self.strip)
        #expect(lines.count == 12)
        #expect(plain.allSatisfy { $0.count <= 44 }, "\(plain.filter { $0.count > 44 })")
        #expect(plain.contains { $0.hasPrefix("▶ ● Care home Nord") })
    }

    @Test(
        "track-terminal-dashboard: the 14 days as side-by-side bars (planned, tracked) on the dashboard's axis, unconfirmed dim, before the account –, the nudge beside the title"
    )
    func dashboardBars() {
        func day(
            _ date: String, planned: Int, tracked: Int, faded: Bool = false, before: Bool = false
        )
            -> StatusDashboard.Bar
        {
            let hours = DayHours(
                day: date, lengthSeconds: 86_400, grossSeconds: tracked * 60, breakSeconds: 0, plannedMinutes: planned,
                confirmed: false, shortSessions: 0, absences: [])
            return StatusDashboard.Bar(hours: hours, weekday: "M", faded: faded, beforeAccount: before, isToday: false)
        }
        let dashboard = StatusDashboard(
            bars: [
                day("2026-11-17", planned: 0, tracked: 0, before: true),
                day("2026-11-18", planned: 360, tracked: 720, faded: true),
            ],
            axisHours: 12, toConfirm: 1, nextShift: nil)
        let screen = TrackingStatusScreen(
            cards: [], notice: nil, error: nil, profile: "seed", permissionWarning: nil, dashboard: dashboard,
            copy: TrackingCopy(.en))
        let shown = ShownScreen(screen, in: ShellFrame(online: true, pending: 0))
        let bars = TrackView.bars(dashboard, height: 6).map(Self.strip)
        #expect(bars.count == 8)
        #expect(bars[0] == "12h ┤     █", "the top row: only the 12-hour tracked bar")
        #expect(bars[5] == "    ┤    ██", "the bottom row: both")
        #expect(bars[3] == "6h  ┤    ██", "half the axis: the 6-hour planned bar reaches it")
        #expect(bars[2] == "    ┤     █", "above half: the planned bar has ended")
        #expect(bars[6] == "0h  ┼–––───", "before the account: –")
        let lines = TrackView.frame(shown, size: (rows: 24, columns: 80), selected: 0)
        #expect(lines.map(Self.strip).contains(" Last 14 days  1 to confirm"), "\(lines.map(Self.strip))")
        #expect(lines.contains { $0.contains(TrackView.dim + TrackView.plannedColour) }, "an unconfirmed day is dim")
    }
}
