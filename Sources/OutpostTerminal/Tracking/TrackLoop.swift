import Foundation
import OutpostCore
import OutpostDevice

/// `outpost track`: a care worker's status screen in the terminal (seed 003): location cards,
/// the clocked-in card with its running time, clock in and out, the permission warning, the
/// history with Submit, the week and the month as grids. Redrawn when the time shown changes, after every key, and on resize.
@MainActor
public final class TrackLoop {
    let app: DeviceApp
    let terminal: Terminal
    var selected = 0
    var running = true
    var lastSync = Date()
    var lastRefresh = Date.distantPast
    var background: Task<Void, Never>?

    public init(app: DeviceApp, terminal: Terminal = Terminal()) {
        self.app = app
        self.terminal = terminal
    }

    public func run() async {
        terminal.start()
        defer { terminal.stop() }
        app.showTracking(.status)
        var lastFrame: [String] = []
        while running {
            for key in KeyDecoder.decode(terminal.readAvailable()) { await handle(key) }
            let now = Date()
            if now.timeIntervalSince(lastRefresh) >= 1 {
                // The running time of a clocked-in session moves on.
                app.refresh()
                lastRefresh = now
            }
            if now.timeIntervalSince(lastSync) >= 30, background == nil {
                lastSync = now
                background = Task { @MainActor in
                    await self.app.sync()
                    self.background = nil
                }
            }
            let frame = TrackView.frame(app.shown(), size: terminal.refreshSize(), selected: selected)
            if frame != lastFrame {
                terminal.draw(frame)
                lastFrame = frame
            }
            await Task.yield()
        }
        background?.cancel()
    }

    static let trackingScreens: Set<String> = [
        UIIdentifier.trackStatusScreen, UIIdentifier.trackLocationsScreen, UIIdentifier.trackHistoryScreen,
    ]

    func handle(_ key: Key) async {
        let shown = app.shown()
        let tree = shown.tree
        let cards = shown.part(TrackingStatusScreen.self)?.cards.map(\.location.id) ?? []
        // The days with Submit, in the order the screen lists them.
        let days =
            shown.part(TrackingHistoryScreen.self)?.days.filter(\.canSubmit).map(\.date)
            ?? shown.part(WeekScreen.self)?.days.filter(\.canSubmit).map(\.hours.day) ?? []
        let submitting =
            tree.screen == UIIdentifier.trackHistoryScreen || tree.screen == UIIdentifier.calendarWeekScreen
        let count = submitting ? days.count : cards.count
        if tree.screen == UIIdentifier.trackSubmitExplanation {
            // The first Submit's explanation: Enter (or c) submits, Esc (or n) is "not now".
            switch key {
            case .enter, .character("c"): await app.continueSubmit()
            case .escape, .character("n"): app.cancelSubmit()
            case .control("q"), .control("c"), .character("q"): running = false
            default: break
            }
            return
        }
        switch key {
        case .control("q"), .control("c"), .character("q"):
            running = false
        case .up:
            selected = max(0, selected - 1)
        case .down:
            selected = min(max(0, count - 1), selected + 1)
        case .character("i"), .character("o"):
            guard selected < cards.count else { return }
            if key == .character("i") { app.clockIn(at: cards[selected]) } else { app.clockOut(at: cards[selected]) }
        case .character("c"):
            guard selected < days.count else { return }
            await app.confirmTrackedDay(days[selected])
        case .character("s"):
            selected = 0
            app.showTracking(.status)
        case .character("l"):
            selected = 0
            app.showTracking(.locations)
        case .character("h"):
            selected = 0
            app.showTracking(.history)
        case .character("w"):
            selected = 0
            app.showWeek()
        case .character("m"):
            selected = 0
            app.showMonth()
        case .left, .right:
            selected = 0
            let offset = key == .left ? -1 : 1
            if tree.screen == UIIdentifier.calendarWeekScreen {
                app.showAdjacentWeek(offset)
            } else if tree.screen == UIIdentifier.calendarMonthScreen {
                app.showMonth(offset: offset)
            }
        case .character("g"):
            if tree.screen == UIIdentifier.calendarWeekScreen { app.toggleTrackedTime() }
        case .character("x"):
            app.dismissPermissionWarning()
        case .character("r"):
            await app.sync()
        default:
            break
        }
    }
}
