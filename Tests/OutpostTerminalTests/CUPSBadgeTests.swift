import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostTerminal

/// Badges through a real print system: the private CUPS scheduler scripts/test starts on loopback
/// (scripts/lib/cups-lab.sh) with a cups-pdf queue behind a paper switch. The device prints
/// through ``CUPSBadgePrinter`` (IPP); what cups-pdf wrote is read back with poppler and zbar.
/// Serialized: the cases share the one queue and its paper.
@Suite("Badges through CUPS", .serialized)
struct CUPSBadgeTests {
    struct Lab {
        var queue: URL
        var out: URL
        var paper: URL

        func setPaper(_ present: Bool) throws {
            try Data((present ? "in\n" : "out\n").utf8).write(to: paper)
        }

        /// The PDFs cups-pdf wrote for badge print `id`.
        func pdfs(of id: BadgePrintID) -> [URL] {
            let prefix = "outpost-badge-\(id.wire.prefix(8))"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
            return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".pdf") }.sorted().map {
                out.appendingPathComponent($0)
            }
        }
    }

    /// The CUPS lab, or nil (the case says it skipped) outside scripts/test.
    static func lab() -> Lab? {
        let environment = ProcessInfo.processInfo.environment
        guard let queue = environment["OUTPOST_TEST_CUPS_URL"].flatMap(URL.init(string:)),
            let out = environment["OUTPOST_TEST_CUPS_OUT"], let paper = environment["OUTPOST_TEST_CUPS_PAPER"]
        else {
            print(
                "CUPS case skipped: OUTPOST_TEST_CUPS_URL is not set; scripts/test starts a CUPS scheduler and sets it."
            )
            return nil
        }
        return Lab(queue: queue, out: URL(fileURLWithPath: out), paper: URL(fileURLWithPath: paper))
    }

    /// Waits for CUPS (a real scheduler running filters) to bring `condition` about: polled,
    /// at most 60 s; no clock of ours runs it.
    @MainActor
    static func eventually(_ what: String, _ condition: @MainActor () async throws -> Bool) async throws {
        for _ in 0..<600 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("CUPS never got there: \(what)")
    }

    static func run(_ command: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(command)")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A signed-in device in the world's event, paired with the CUPS queue, the layout pulled.
    @MainActor
    static func device(_ api: TestAPI, _ world: World, _ lab: Lab, home: URL) async throws -> DeviceApp {
        let port = try #require(api.client.port)
        let cups = try #require(CUPSBadgePrinter(queue: lab.queue))
        let ports = DevicePorts(
            keyStore: FileKeyStore(url: home.appendingPathComponent("device.key")), transport: OfflineTransport(),
            printers: LinuxBadgePrinters(bluetooth: nil, queues: [cups]))
        let app = try DeviceApp.launch(
            home: home, ports: ports, modules: .eventDay, makeTransport: { LiveTransport.make(baseURL: $0) }
        ).opened()
        await app.signIn(
            server: URL(string: "http://127.0.0.1:\(port)")!, email: "alex@acme.test", password: "staff-password")
        await app.openEvent(world.event.id)
        let found = await app.discoverPrinters()
        let status = await cups.status(of: cups.info)
        try #require(found.map(\.id) == [lab.queue.absoluteString], "the queue answers: \(status)")
        await app.pairPrinter(id: lab.queue.absoluteString)
        return app
    }

    /// Checks the guest of `ticket` in by scanning it; the badge prints (print on check-in).
    @MainActor
    static func checkInByTicket(
        _ api: TestAPI, _ world: World, _ lab: Lab, home: URL, ticket: String
    ) async throws -> BadgePrintID {
        let app = try await device(api, world, lab, home: home)
        await app.sync()
        app.scan(ticket)
        try #require(app.tree().screen == UIIdentifier.confirmationScreen)
        await app.confirm()
        let id = try #require(app.printJobs.first?.printId)
        try await eventually("the badge printed") {
            await app.runPrintQueue()
            return app.printJobs.first?.state == "printed"
        }
        return id
    }

    @Test(
        "cups-badge-pdf: a guest checked in by ticket at a device paired with a CUPS queue gets one badge, a PDF at the label's size holding their name and company and a QR code that decodes to their ticket"
    )
    func badgePDF() async throws {
        guard let lab = Self.lab() else { return }
        try lab.setPaper(true)
        try await withServer(location: .sqliteInMemory, live: true) { api in
            let world = try await World.make(api)
            let organizer = api.lab(world.organizer)
            _ = try await organizer.setBadgeLayout(
                event: world.event.id, BadgeLayout(label: .label4x3, secondLine: .company, printOnCheckIn: true))
            let guest = world.guests[0]
            let ticket = try await organizer.ticket(event: world.event.id, guest: guest.id)
            let home = FileManager.default.temporaryDirectory.appendingPathComponent(
                "outpost-cups-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            let printId = try await Self.checkInByTicket(api, world, lab, home: home, ticket: ticket)
            let pdfs = lab.pdfs(of: printId)
            try #require(
                pdfs.count == 1,
                "one PDF for \(printId): \((try? FileManager.default.contentsOfDirectory(atPath: lab.out.path)) ?? [])")
            let info = try Self.run("pdfinfo", [pdfs[0].path])
            #expect(info.contains("288 x 216 pts"), "\(info)")
            let text = try Self.run("pdftotext", [pdfs[0].path, "-"])
            #expect(text.contains(guest.name), "\(text)")
            #expect(text.contains(BadgeContent.company(ofEmail: guest.email)), "\(text)")
            let png = home.appendingPathComponent("badge")
            _ = try Self.run("pdftoppm", ["-png", "-r", "300", "-singlefile", pdfs[0].path, png.path])
            #expect(try QRImageDecoder.decode(path: png.path + ".png") == [ticket], "the QR is the ticket")
        }
    }

    /// A check-in while the queue is out of labels: the badge waits in CUPS (sent, never sent
    /// again), the state shows; refilled, the next run resumes the queue and it prints once.
    @MainActor
    static func paperOutThenIn(_ api: TestAPI, _ world: World, _ lab: Lab, home: URL) async throws -> BadgePrintID {
        let app = try await device(api, world, lab, home: home)
        await app.sync()
        app.choose(guestId: world.guests[1].id)
        await app.confirm()
        let id = try #require(app.printJobs.first?.printId)
        try await eventually("the queue stopped out of labels") {
            await app.runPrintQueue()
            return app.printerStatus?.condition == .outOfPaper
        }
        #expect(app.tree().element(UIIdentifier.printerState)?.attributes["state"] == "out-of-paper")
        for _ in 0..<3 { await app.runPrintQueue() }
        #expect(app.printJobs.first?.state == "sent", "held by CUPS, never sent again")
        #expect(lab.pdfs(of: id).isEmpty)
        try lab.setPaper(true)
        try await eventually("the badge printed after the refill") {
            await app.runPrintQueue()
            return app.printJobs.first?.state == "printed"
        }
        for _ in 0..<2 { await app.runPrintQueue() }
        #expect(app.printerStatus?.condition == .ready)
        await app.sync()
        return id
    }

    @Test(
        "cups-paper-out-then-in-prints-once: a check-in while the CUPS queue is out of labels leaves the badge held by CUPS (stopped, media-empty) and shown as out of labels; runs meanwhile never send it again; refilled, it prints exactly once"
    )
    func paperOutThenIn() async throws {
        guard let lab = Self.lab() else { return }
        try lab.setPaper(false)
        defer { try? lab.setPaper(true) }
        try await withServer(location: .sqliteInMemory, live: true) { api in
            let world = try await World.make(api)
            _ = try await api.lab(world.organizer).setBadgeLayout(
                event: world.event.id, BadgeLayout(printOnCheckIn: true))
            let home = FileManager.default.temporaryDirectory.appendingPathComponent(
                "outpost-cups-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            let id = try await Self.paperOutThenIn(api, world, lab, home: home)
            #expect(lab.pdfs(of: id).count == 1, "printed once")
            let prints = try await api.lab(world.organizer).badgePrints(event: world.event.id)
            #expect(prints.printed == 1)
        }
    }

    @Test(
        "cups-unreachable: a queue whose scheduler does not answer is off, and a badge sent to it is refused as unreachable"
    )
    func unreachable() async throws {
        let socket = try #require(
            CUPSBadgePrinter(queue: URL(string: "ipp://127.0.0.1:9/printers/badge")!, timeout: 0.5))
        #expect(await socket.discover().isEmpty)
        #expect(await socket.status(of: socket.info).condition == .off)
        let badge = BadgeContent(
            layout: .standard, name: "Ada", secondLine: "", accessType: "General", colour: 0, ticket: nil)
        await #expect(throws: PrinterError.self) {
            try await socket.submit(PrinterJob(id: UUID(), badge: badge), to: socket.info)
        }
    }
}
