import ArgumentParser
import Foundation
import OutpostDevice
import OutpostTerminal

/// `outpost station`: the door station in the terminal.
struct StationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "station",
        abstract: "Run the check-in station in this terminal (keyboard-wedge QR scanner and typing).",
        discussion: """
            Sign in, pick an event (its roster syncs), then scan tickets with a USB or Bluetooth \
            keyboard-wedge scanner or type a name, e-mail or code. Enter confirms, Esc cancels. \
            Works offline: check-ins queue and sync when the server is reachable. With --mesh \
            the doors of one event share their check-ins over the LAN while the server is out of \
            reach, so a ticket admitted at one door shows as already checked in at the others; \
            F1 shows this door's join code as a QR code. Ctrl-Q quits.
            """
    )

    @OptionGroup var device: DeviceOptions

    @Option(help: ArgumentHelp("The server to sign in to (default: the one signed in before).", valueName: "url"))
    var server: String?

    @Flag(name: .customLong("auto-confirm"), help: "Confirm valid, not-yet-checked-in scans without a key press.")
    var autoConfirm = false

    @OptionGroup var mesh: MeshOptions

    func validate() throws {
        guard Terminal.isInteractive else { throw ValidationError("The station needs an interactive terminal.") }
    }

    @MainActor
    func run() async throws {
        let app = try device.launch()
        await StationLoop(app: app, server: server, autoConfirm: autoConfirm, mesh: mesh.settings).run()
        await device.finish(app)
        print("Outpost station closed; \(app.pendingCount) check-ins pending sync.")
    }
}

/// `outpost kiosk`: the self-service kiosk in the terminal.
struct KioskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Run kiosk mode in this terminal (attendees scan a ticket or type their e-mail).",
        discussion: """
            Needs a device signed in as an organizer or support user, inside an event whose kiosk \
            passcode is set (`outpost device kiosk setup`). Staff press F12 (or Ctrl-K) three \
            times within three seconds, then type the passcode, to leave. What an attendee typed \
            and did not submit is cleared after --idle-reset seconds without a keystroke.
            """
    )

    @OptionGroup var device: DeviceOptions

    @Option(
        name: .customLong("idle-reset"),
        help: "Seconds without a keystroke after which half-typed input is cleared (default 20).")
    var idleReset: Double = 20

    @OptionGroup var mesh: MeshOptions

    func validate() throws {
        guard Terminal.isInteractive else { throw ValidationError("The kiosk needs an interactive terminal.") }
        guard idleReset >= 1 else { throw ValidationError("--idle-reset must be at least 1 second.") }
    }

    @MainActor
    func run() async throws {
        let app = try device.launch()
        if !app.isKioskActive { app.enterKiosk() }
        guard app.isKioskActive else {
            throw ValidationError(
                "Kiosk mode needs a signed-in device inside an event with a kiosk passcode: run `outpost device kiosk setup` first."
            )
        }
        app.kioskDraftIdleSeconds = idleReset
        let pending = await KioskLoop(app: app, mesh: mesh.settings).run()
        await device.finish(app)
        print("Kiosk mode ended; \(pending) check-ins pending sync.")
    }
}

/// `outpost track`: a care worker's hours in the terminal.
struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Time tracking in this terminal: your work locations, clocked in or not, and your history.",
        discussion: """
            Needs a device signed in as a worker (`outpost device signin`). ↑↓ choose a location \
            (or, in the history, a day), i clocks in, o clocks out, c submits the chosen day, \
            s l h switch between status, locations and history, r syncs, x hides the location \
            permission warning for a week, q quits. The geofence events themselves come from the \
            phone's region monitor: `outpost device sim geofence` plays them.
            """
    )

    @OptionGroup var device: DeviceOptions

    func validate() throws {
        guard Terminal.isInteractive else { throw ValidationError("outpost track needs an interactive terminal.") }
    }

    @MainActor
    func run() async throws {
        let app = try device.launch()
        guard app.isSignedIn else {
            throw ValidationError("Sign in first: outpost device signin --home \(device.home) --server URL --email …")
        }
        await TrackLoop(app: app).run()
        print("Outpost track closed; \(app.pendingCount) waiting to sync.")
    }
}

/// `--mesh`, `--mesh-listen` and `--join`: the venue mesh of the station and the kiosk.
struct MeshOptions: ParsableArguments {
    @Flag(
        help:
            "Join the venue mesh while an event is open: listen for the other doors, find them on the LAN (DNS-SD), share check-ins offline."
    )
    var mesh = false

    @Option(
        name: .customLong("mesh-listen"),
        help: ArgumentHelp("Where the mesh listens (implies --mesh).", valueName: "host:port"))
    var listen: String?

    @Option(
        name: .customLong("join"),
        help: ArgumentHelp(
            "A door to keep joined: host:port or its join code (repeatable; implies --mesh).", valueName: "peer"))
    var joins: [String] = []

    func validate() throws {
        if let listen, MeshJoinCode.address(listen) == nil {
            throw ValidationError("--mesh-listen is host:port, e.g. 0.0.0.0:\(MeshJoinCode.defaultPort).")
        }
        for join in joins where MeshJoinCode(parsing: join) == nil {
            throw ValidationError("--join \(join) is neither host:port nor a join code (outpost-mesh://host:port#…).")
        }
    }

    /// The mesh's settings, or nil when none of the options was given. DNS-SD only when
    /// listening on every address (a door on loopback has no LAN to announce itself on).
    var settings: MeshRunner.Settings? {
        guard mesh || listen != nil || !joins.isEmpty else { return nil }
        let (host, port) = MeshJoinCode.address(listen ?? "0.0.0.0:\(MeshJoinCode.defaultPort)")!
        return MeshRunner.Settings(
            host: host, port: port, joins: joins.compactMap(MeshJoinCode.init(parsing:)), discover: host == "0.0.0.0")
    }
}
