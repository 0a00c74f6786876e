import Foundation
import OutpostDevice
import Testing

@testable import OutpostTerminal

/// `outpost track`'s frame, pure: a tree and a size in, lines out.
@Suite("Track view")
struct TrackViewTests {
    static func strip(_ line: String) -> String {
        line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    static let tree = UITree(
        screen: UIIdentifier.trackStatusScreen,
        elements: [
            UIElement(UIIdentifier.pendingSyncBanner, "1 day waiting to sync", ["pending": "1"]),
            UIElement(UIIdentifier.tabStatus, "Status"), UIElement(UIIdentifier.tabTrackLocations, "Locations"),
            UIElement(UIIdentifier.tabTrackHistory, "History"),
            UIElement(
                UIIdentifier.trackPermissionWarning,
                "Location access is “While Using the App”: automatic clock-in and clock-out need “Always”.",
                ["permission": "when-in-use"]),
            UIElement(
                UIIdentifier.trackLocationCard, "Care home Nord · clocked in 2 h 05 min",
                ["state": "active", "locationId": "a", "clockIn": "2026-11-16T08:00:00.000Z"]),
            UIElement(UIIdentifier.trackClockOut, "Clock out at Care home Nord", ["locationId": "a"]),
            UIElement(UIIdentifier.trackLocationCard, "Haus Linde · clocked in 10 min", ["state": "pending_exit"]),
            UIElement(UIIdentifier.trackPendingExit, "Left Haus Linde? You'll be clocked out unless you come back."),
            UIElement(UIIdentifier.trackLocationCard, "Büro · not clocked in", ["state": "none"]),
            UIElement(UIIdentifier.trackProfile, "Geofence rules: seed"),
        ],
        online: false, pending: 1, user: "wanda@acme.test", event: nil)

    @Test(
        "track-terminal-frame: the title and connection, the tabs, the warning, cards marked by state with the chosen one, the keys; fills and fits the terminal"
    )
    func frame() {
        let lines = TrackView.frame(Self.tree, size: (rows: 24, columns: 80), selected: 1)
        let plain = lines.map(Self.strip)
        #expect(lines.count == 24)
        #expect(plain.allSatisfy { $0.count <= 80 }, "\(plain.filter { $0.count > 80 })")
        #expect(plain[0].hasPrefix("Outpost · time tracking · wanda@acme.test"))
        #expect(plain[0].hasSuffix("offline · 1 waiting to sync") && plain[0].count == 80)
        #expect(plain[2] == " Status   Locations   History ")
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
        let lines = TrackView.frame(Self.tree, size: (rows: 12, columns: 44), selected: 0)
        let plain = lines.map(Self.strip)
        #expect(lines.count == 12)
        #expect(plain.allSatisfy { $0.count <= 44 }, "\(plain.filter { $0.count > 44 })")
        #expect(plain.contains { $0.hasPrefix("▶ ● Care home Nord") })
    }

    @Test(
        "track-terminal-dashboard: the 14 days as side-by-side bars (planned, tracked) on the dashboard's axis, unconfirmed dim, before the account –, the nudge beside the title"
    )
    func dashboardBars() {
        func day(_ date: String, planned: Int, tracked: Int, faded: Bool = false, before: Bool = false) -> UIElement {
            var attributes = [
                "date": date, "weekday": "M", "plannedMinutes": String(planned), "trackedMinutes": String(tracked),
                "faded": String(faded),
            ]
            if before { attributes["beforeAccount"] = "true" }
            return UIElement(UIIdentifier.dashboardDay, date, attributes)
        }
        let tree = UITree(
            screen: UIIdentifier.trackStatusScreen,
            elements: [
                UIElement(UIIdentifier.dashboard, "Last 14 days", ["axisHours": "12", "toConfirm": "1"]),
                day("2026-11-17", planned: 0, tracked: 0, before: true),
                day("2026-11-18", planned: 360, tracked: 720, faded: true),
                UIElement(UIIdentifier.dashboardNudge, "1 to confirm", ["count": "1"]),
            ],
            online: true, pending: 0, user: nil, event: nil)
        let bars = TrackView.bars(tree, height: 6).map(Self.strip)
        #expect(bars.count == 8)
        #expect(bars[0] == "12h ┤     █", "the top row: only the 12-hour tracked bar")
        #expect(bars[5] == "    ┤    ██", "the bottom row: both")
        #expect(bars[3] == "6h  ┤    ██", "half the axis: the 6-hour planned bar reaches it")
        #expect(bars[2] == "    ┤     █", "above half: the planned bar has ended")
        #expect(bars[6] == "0h  ┼–––───", "before the account: –")
        let lines = TrackView.frame(tree, size: (rows: 24, columns: 80), selected: 0)
        #expect(lines.map(Self.strip).contains(" Last 14 days  1 to confirm"))
        #expect(lines.contains { $0.contains(TrackView.dim + TrackView.plannedColour) }, "an unconfirmed day is dim")
    }
}
