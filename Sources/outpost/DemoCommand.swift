import ArgumentParser
import Foundation
import Hummingbird
import Logging
import OutpostCore
import OutpostDevice
import OutpostDrawing
import OutpostLab
import OutpostProtocol
import OutpostServer
import OutpostTerminal

/// `outpost demo`: the whole loop in one command.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start a demo server with an event of realistic guests and open the station on it.",
        discussion: """
            Starts a server on a fresh SQLite store in --dir, seeds an organizer, a staff user and \
            an event with guests, signs a staff device in and syncs it, prints three sample tickets \
            (QR and text; also in DIR/sample-tickets.txt) and opens the station. Quitting the \
            station (Ctrl-Q) stops the server. With --no-station the server keeps running until \
            Ctrl-C or SIGTERM, for `outpost device` or curl. When the system Python has aiosmtpd \
            (Debian's python3-aiosmtpd, which scripts/demo installs), a real SMTP server runs on \
            loopback as the server's relay: e-mail sign-in codes land in DIR/mail/new/. With \
            --doors N, N stations and a kiosk open side by side under tmux, each its own process \
            and device, meshed over loopback: take them offline (`outpost device sim network off \
            --home DIR/door-N`) and a ticket admitted at one door shows as already checked in at \
            the others.
            """
    )

    @Option(help: "Port for the demo server.")
    var port = 8080

    @Option(help: ArgumentHelp("Directory for the demo's store and device (emptied first).", valueName: "dir"))
    var dir = "./outpost-demo"

    @Option(help: "How many guests to seed.")
    var guests = 500

    @Flag(name: .customLong("no-station"), help: "Do not open the station; keep serving until stopped.")
    var noStation = false

    @Option(
        help:
            "Open this many stations and a kiosk, meshed on this machine, side by side under tmux (2 to 4; the venue mesh)."
    )
    var doors: Int?

    func validate() throws {
        guard (1...20_000).contains(guests) else { throw ValidationError("--guests must be from 1 to 20000.") }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535.") }
        if !noStation, !Terminal.isInteractive {
            throw ValidationError("The station needs an interactive terminal; use --no-station to only serve.")
        }
        if let doors {
            guard (2...4).contains(doors) else { throw ValidationError("--doors must be from 2 to 4.") }
            guard !noStation else { throw ValidationError("--doors opens stations; it cannot go with --no-station.") }
            guard MeshDemo.tmux != nil else {
                throw ValidationError("--doors shows the doors side by side under tmux: apt-get install tmux.")
            }
        }
    }

    @MainActor
    func run() async throws {
        let directory = URL(fileURLWithPath: dir).standardizedFileURL
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "outpost-demo")
        logger.logLevel = .warning
        var configuration = ServerConfiguration(
            store: .sqlite(path: directory.appendingPathComponent("outpost.sqlite").path), port: port, bcryptCost: 8)
        let mail = try await Self.startMail(in: directory)
        defer { mail?.stop() }
        configuration.smtpRelay = mail.flatMap { SMTPClient(relay: $0.relay) }
        let parts = try OutpostServer.makeParts(configuration, logger: logger)
        _ = try await OutpostServer.bootstrap(
            store: parts.store, tenant: "Outpost Demo", email: DemoWorld.organizer.email,
            password: DemoWorld.organizer.password, name: DemoWorld.organizer.name, bcryptCost: 8)
        let app = try OutpostServer.buildApplication(configuration, parts: parts, logger: logger)
        let server = URL(string: "http://127.0.0.1:\(port)")!
        if noStation {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await app.runService() }
                try await Self.waitForHealth(server)
                try await seedAndPrint(server: server, directory: directory)
                print("Serving on \(server.absoluteString); Ctrl-C or SIGTERM stops it.")
                // Piped (a script or a test waiting for this line), stdout is block-buffered.
                fflush(nil)
                try await group.next()
            }
            return
        }
        let serverTask = Task.detached { try await app.run() }
        try await Self.waitForHealth(server)
        let device = try await seedAndPrint(server: server, directory: directory)
        if let doors {
            try await MeshDemo(server: server, directory: directory, doors: doors).run(first: device)
            serverTask.cancel()
            _ = try? await serverTask.value
            return
        }
        print("\nPress Enter to open the station (scan or paste a ticket, or type a name)…")
        _ = readLine()
        await StationLoop(app: device, server: server.absoluteString).run()
        print("Station closed; \(device.pendingCount) check-ins pending sync. Stopping the demo server.")
        serverTask.cancel()
        _ = try? await serverTask.value
    }

    /// A real SMTP server on loopback for the server's e-mail codes, when the system Python has
    /// aiosmtpd; its mail stays in DIR/mail.
    static func startMail(in directory: URL) async throws -> SMTPSink? {
        guard let python = SMTPSink.systemPython else {
            print("(No SMTP server for e-mail sign-in codes: install Debian's python3-aiosmtpd, or run scripts/demo.)")
            return nil
        }
        let mail = directory.appendingPathComponent("mail")
        let sink = try await SMTPSink.start(python: python, directory: mail)
        print("E-mail sign-in codes go through a real SMTP server on \(sink.relay) into \(mail.path)/new/.")
        return sink
    }

    /// Seeds the event, signs the demo device in, prints and saves three sample tickets.
    @MainActor
    @discardableResult
    func seedAndPrint(server: URL, directory: URL) async throws -> DeviceApp {
        let world = try await DemoWorld.seed(server: server, guests: guests, directory: directory)
        let (organizer, staff) = (DemoWorld.organizer, DemoWorld.staff)
        try world.tickets.map(\.text).joined(separator: "\n").appending("\n")
            .write(to: directory.appendingPathComponent("sample-tickets.txt"), atomically: true, encoding: .utf8)
        print("Outpost demo: \(server.absoluteString), event \"\(world.event.name)\" with \(world.imported) guests.")
        print(
            "Organizer \(organizer.email) / \(organizer.password) · staff \(staff.email) / \(staff.password) · exhibitor \(DemoWorld.exhibitor.email) / \(DemoWorld.exhibitor.password) · block manager \(DemoWorld.blockManager.email) / \(DemoWorld.blockManager.password) · kiosk passcode \(DemoWorld.kioskPasscode)"
        )
        print(
            "Organizer console: \(server.absoluteString)/admin (sign in as \(organizer.email) / \(organizer.password));"
                + " the doors, live: \(server.absoluteString)/admin/events/\(world.event.id.wire)/dashboard")
        print("Device home: \(world.home.path) (try `outpost device status --home \(world.home.path)`)\n")
        for (guest, text) in world.tickets {
            print("\(guest.name) — code \(guest.code)")
            for line in QRCode(text: text)?.terminalLines() ?? [] { print("  " + line) }
            print("  \(text)\n")
        }
        return world.device
    }

    static func waitForHealth(_ server: URL) async throws {
        do {
            try await HealthCheck.wait(for: server, limit: .seconds(30))
        } catch is HealthCheck.NotHealthy {
            throw ValidationError(
                "The demo server did not start on \(server.absoluteString); is the port in use? Try --port.")
        }
    }
}
