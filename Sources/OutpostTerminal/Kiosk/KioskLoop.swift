import Foundation
import OutpostCore
import OutpostDevice

/// The self-service kiosk in a terminal: the attendee types an e-mail or scans a ticket. Staff
/// press F12 (or Ctrl-K) three times within three seconds, standing in for three taps on the
/// corner, then type the passcode. Orientation chosen at set-up shapes the layout.
@MainActor
public final class KioskLoop {
    let app: DeviceApp
    let terminal: Terminal
    var running = true
    var lastSync = Date()
    var background: Task<Void, Never>?

    /// The venue mesh's node while the event is open (nil: the kiosk does not mesh). Attendees
    /// never see it; a guest another door admitted is already checked in here too.
    let mesh: MeshRunner?
    var lastMeshUpdate = Date.distantPast

    public init(app: DeviceApp, terminal: Terminal = Terminal(), mesh: MeshRunner.Settings? = nil) {
        self.app = app
        self.terminal = terminal
        self.mesh = mesh.map { MeshRunner(app: app, settings: $0) }
    }

    /// Runs until staff exit kiosk mode with the passcode; returns the pending count then.
    @discardableResult
    public func run() async -> Int {
        // No signal keys: only the passcode (or the operator's SIGTERM) ends kiosk mode.
        terminal.start(signalKeys: false)
        defer { terminal.stop() }
        var lastFrame: [String] = []
        while running {
            for key in KeyDecoder.decode(terminal.readAvailable()) { await handle(key) }
            if Date().timeIntervalSince(lastSync) >= 15, background == nil {
                lastSync = Date()
                background = Task { @MainActor in
                    await self.app.sync()
                    self.background = nil
                }
            }
            if let mesh, Date().timeIntervalSince(lastMeshUpdate) >= 1 {
                lastMeshUpdate = Date()
                try? await mesh.update()
            }
            let frame = frameLines()
            if frame != lastFrame {
                terminal.draw(frame)
                lastFrame = frame
            }
            if !app.isKioskActive { running = false }
            await Task.yield()
        }
        background?.cancel()
        await mesh?.stop()
        return app.pendingCount
    }

    func handle(_ key: Key) async {
        let prompt = app.tree().screen == UIIdentifier.kioskExitPrompt
        // What is typed lives in the engine, which clears it after an idle time (and on screen).
        switch key {
        case .function(12), .control("k"):
            app.tapCorner()
        case .character(let character):
            app.kioskType(String(character))
        case .backspace:
            app.kioskDeleteBackward()
        case .escape:
            app.kioskClearDraft()
            if prompt { app.dismissExitPrompt() }
        case .enter:
            let line = app.kioskTakeDraft()  // a clean slate for whoever is next
            guard !line.isEmpty else { return }
            if prompt {
                app.exitKiosk(passcode: line)
            } else if StationLoop.looksLikeTicket(line) {
                await app.kioskCheckIn(ticket: line.uppercased())
                terminal.bell()
            } else {
                await app.kioskCheckIn(email: line)
                terminal.bell()
            }
        default:
            break
        }
    }

    func frameLines() -> [String] {
        Self.frame(app.shown(), size: terminal.refreshSize())
    }

    /// The kiosk's frame for a terminal of `size`: portrait (the orientation chosen at set-up)
    /// is a narrow column of at most 44 columns centred on the screen, landscape the whole width.
    nonisolated static func frame(_ shown: ShownScreen, size: (rows: Int, columns: Int)) -> [String] {
        let tree = shown.tree
        let portrait = shown.part(KioskScreen.self)?.kiosk.orientation == .portrait
        // Portrait: a narrow centred column; landscape: the whole width.
        let width = portrait ? min(size.columns, 44) : size.columns
        let margin = String(repeating: " ", count: max(0, (size.columns - width) / 2))
        var lines: [String] = [""]
        // The input line at the bottom stands in for the input fields.
        let fields: Set<String> = [UIIdentifier.kioskEmailInput, UIIdentifier.kioskPasscodeInput]
        for element in tree.elements where !element.text.isEmpty && !fields.contains(element.id) {
            let style = StationView.style(element.id)
            let big =
                element.id == UIIdentifier.kioskWelcomeScreen || element.id == UIIdentifier.kioskConfirmation
                || element.id == UIIdentifier.kioskAlreadyCheckedInMessage
                || element.id == UIIdentifier.kioskEmailNotFoundMessage
                || element.id == UIIdentifier.kioskNotSavedMessage
            let subtle = element.id == UIIdentifier.kioskBatteryLowBanner
            for line in TreeRenderer.wrap(element.text, width - 4) {
                let centred = Self.centre(line, width)
                if subtle {
                    lines.append(margin + StationView.dim + centred + StationView.reset)
                } else if let style {
                    lines.append(margin + style + centred + StationView.reset)
                } else {
                    lines.append(margin + (big ? StationView.bold : "") + centred + StationView.reset)
                }
            }
            lines.append("")
        }
        let prompt = tree.screen == UIIdentifier.kioskExitPrompt
        let shown =
            tree.element(prompt ? UIIdentifier.kioskPasscodeInput : UIIdentifier.kioskEmailInput)?.text ?? ""
        let label = prompt ? "Passcode: " : "E-mail or ticket: "
        let room = size.rows - 2
        if lines.count > room { lines = Array(lines.prefix(room)) }
        while lines.count < room { lines.append("") }
        return lines + [margin + Self.centre(label + shown + "█", width), ""]
    }

    nonisolated static func centre(_ text: String, _ width: Int) -> String {
        let padding = max(0, (width - text.count) / 2)
        return String(repeating: " ", count: padding) + text
    }
}
