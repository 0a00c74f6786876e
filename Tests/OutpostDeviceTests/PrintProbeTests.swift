import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

/// The Print tab (seed 000) on real devices against a real server, with the simulated Bluetooth
/// label printer (the seed's pairing semantics: in range or off, labels or none, no spool).
@Suite("Print probes (seed 000)")
struct PrintProbeTests {
    /// A device paired with `printer`, in the event, the event's layout pulled.
    @MainActor
    static func pairedDevice(
        _ lab: DeviceLab, _ name: String, _ printer: SimulatedBluetoothPrinter
    ) async throws
        -> DeviceApp
    {
        let app = try await lab.readyDevice(name, printers: printer)
        let found = await app.discoverPrinters()
        #expect(found.map(\.id) == [SimulatedBluetoothPrinter.info.id])
        await app.pairPrinter(id: SimulatedBluetoothPrinter.info.id)
        try #require(app.tree().contains(UIIdentifier.tabPrint))
        return app
    }

    @Test(
        "bluetooth-printer-pair-survives-relaunch: no Print tab until a printer is paired; paired, the tab and the printer's state show and survive a relaunch and a sign-out; unpaired, the tab goes and stays gone after a relaunch"
    )
    func pairSurvivesRelaunch() async throws {
        try await DeviceLab.run { lab in
            let printer = SimulatedBluetoothPrinter()
            let app = try await lab.readyDevice("door", printers: printer)
            #expect(!app.tree().contains(UIIdentifier.tabPrint), "no printer, no Print tab")
            await app.pairPrinter(id: SimulatedBluetoothPrinter.info.id)
            #expect(app.refusal?.hasPrefix("No printer") == true, "pairing needs a printer found in reach")
            _ = try await Self.pairedDevice(lab, "door", printer)
            let relaunched = try lab.launch("door", printers: printer)
            let tree = relaunched.tree()
            #expect(tree.contains(UIIdentifier.tabPrint), "the pairing survives a relaunch")
            #expect(relaunched.pairedPrinter?.id == SimulatedBluetoothPrinter.info.id)
            await relaunched.runPrintQueue()
            #expect(relaunched.tree().element(UIIdentifier.printerState)?.attributes["state"] == "ready")
            // The printer is the device's: a sign-out and the next user's sign-in keep it.
            await relaunched.signOut()
            await relaunched.signIn(server: lab.serverURL, email: "bea@acme.test", password: DeviceLab.staffPassword)
            await relaunched.openEvent(lab.world.event.id)
            #expect(relaunched.tree().contains(UIIdentifier.tabPrint))
            relaunched.unpairPrinter()
            #expect(!relaunched.tree().contains(UIIdentifier.tabPrint))
            #expect(!(try lab.launch("door", printers: printer).tree().contains(UIIdentifier.tabPrint)))
        }
    }

    @Test(
        "print-paper-out-then-in-prints-once: with print-on-check-in set, a check-in while the printer is out of labels keeps the badge queued through syncs and shows the state; refilled, it prints once; switched off, a badge waits and prints once when it is back; the server counts each print once"
    )
    func paperOutThenIn() async throws {
        try await DeviceLab.run { lab in
            let organizer = lab.api.lab(lab.world.organizer)
            _ = try await organizer.setBadgeLayout(
                event: lab.world.event.id, BadgeLayout(secondLine: .company, printOnCheckIn: true))
            let printer = SimulatedBluetoothPrinter()
            let app = try await Self.pairedDevice(lab, "door", printer)
            await app.sync()
            printer.set(paper: false)
            let first = lab.world.guests[0]
            app.choose(guestId: first.id)
            await app.confirm()
            await app.sync()
            await app.sync()
            #expect(printer.current.printed.isEmpty)
            #expect(app.printJobs.map(\.state) == ["queued"])
            #expect(app.tree().element(UIIdentifier.printerState)?.attributes["state"] == "out-of-paper")
            printer.set(paper: true)
            await app.runPrintQueue()
            await app.runPrintQueue()
            #expect(printer.current.printed.map(\.name) == [first.name], "printed once after the refill")
            #expect(printer.current.printed.first?.ticket == first.code, "checked in by name: the QR holds the code")
            #expect(app.printJobs.map(\.state) == ["printed"])
            // Switched off: the next check-in's badge waits, then prints once.
            printer.set(powered: false)
            app.choose(guestId: lab.world.guests[1].id)
            await app.confirm()
            await app.runPrintQueue()
            #expect(printer.current.printed.count == 1)
            #expect(app.tree().element(UIIdentifier.printerState)?.attributes["state"] == "off")
            printer.set(powered: true)
            await app.sync()
            await app.sync()
            #expect(printer.current.printed.map(\.name) == [first.name, lab.world.guests[1].name])
            // A re-confirmation prints nothing.
            app.choose(guestId: first.id)
            await app.confirm()
            await app.sync()
            #expect(printer.current.printed.count == 2)
            let prints = try await organizer.badgePrints(event: lab.world.event.id)
            #expect(prints.printed == 2 && prints.reprinted == 0)
        }
    }

    @Test(
        "print-reprint-audited: staff print a badge on demand; printing it again needs a reason and is a reprint, counted and audited on the server with the reason; a badge the printer received whose answer was lost is never sent again"
    )
    func reprintAudited() async throws {
        try await DeviceLab.run { lab in
            let bluetooth = SimulatedBluetoothPrinter()
            let printer = LosingFirstAnswer(bluetooth)
            let app = try await lab.readyDevice("door", printers: printer)
            _ = await app.discoverPrinters()
            await app.pairPrinter(id: SimulatedBluetoothPrinter.info.id)
            let guest = lab.world.guests[2]
            await app.printBadge(guestId: guest.id)
            #expect(bluetooth.current.printed.count == 1, "received once, though its answer was lost")
            await app.sync()
            #expect(bluetooth.current.printed.count == 1, "asked, not sent again")
            #expect(app.printJobs.map(\.state) == ["printed"])
            await app.printBadge(guestId: guest.id)
            #expect(app.refusal == "This guest's badge was printed here already: a reprint needs a reason.")
            await app.printBadge(guestId: guest.id, reprintReason: "lost it at the coffee bar")
            #expect(app.refusal == nil)
            #expect(bluetooth.current.printed.count == 2)
            await app.sync()
            let prints = try await lab.api.lab(lab.world.organizer).badgePrints(event: lab.world.event.id)
            #expect(prints.printed == 1 && prints.reprinted == 1)
            #expect(prints.prints.first?.record.reason == "lost it at the coffee bar")
            #expect(prints.prints.allSatisfy { $0.byName == "Alex" && $0.guestName == guest.name })
            let audit = try await lab.audit().filter { $0.kind == .badgePrinted || $0.kind == .badgeReprinted }
            #expect(audit.map(\.kind) == [.badgePrinted, .badgeReprinted])
            #expect(audit.last?.method == "lost it at the coffee bar")
            #expect(audit.allSatisfy { $0.guestId == guest.id })
        }
    }
}

extension PrintProbeTests {
    @Test(
        "print-walkin-badge: with print-on-check-in set, a walk-in added at the door gets a badge like any check-in (online, its QR holds the code the server gave); without the setting nothing prints"
    )
    func walkInBadge() async throws {
        try await DeviceLab.run { lab in
            _ = try await WalkInProbeTests.doorType(lab, capacity: nil)
            let printer = SimulatedBluetoothPrinter()
            let app = try await Self.pairedDevice(lab, "door", printer)
            WalkInProbeTests.fill(app, name: "Wanda Walker", type: "Door")
            await app.addWalkIn()
            #expect(printer.current.printed.isEmpty, "the event does not print on check-in")
            _ = try await lab.api.lab(lab.world.organizer).setBadgeLayout(
                event: lab.world.event.id, BadgeLayout(printOnCheckIn: true))
            await app.sync()
            WalkInProbeTests.fill(app, name: "Walt Walker", type: "Door")
            await app.addWalkIn()
            #expect(printer.current.printed.map(\.name) == ["Walt Walker"])
            #expect(printer.current.printed.first?.ticket?.count == 10, "the server's guest code")
        }
    }
}

/// A printer whose first job is received but whose answer is lost (the Bluetooth link drops
/// after the data went out): the app must ask, not send it again.
final class LosingFirstAnswer: BadgePrinters, @unchecked Sendable {
    let inner: SimulatedBluetoothPrinter
    private let lock = NSLock()
    private var lost = false

    init(_ inner: SimulatedBluetoothPrinter) { self.inner = inner }

    func discover() async -> [PrinterInfo] { await inner.discover() }
    func status(of printer: PrinterInfo) async -> PrinterStatus { await inner.status(of: printer) }
    func submit(_ job: PrinterJob, to printer: PrinterInfo) async throws {
        try await inner.submit(job, to: printer)
        let first = lock.withLock {
            defer { lost = true }
            return !lost
        }
        if first { throw PrinterError.unreachable("the link dropped") }
    }
    func job(_ id: UUID, on printer: PrinterInfo) async throws -> PrinterJobState? {
        try await inner.job(id, on: printer)
    }
    func resume(_ printer: PrinterInfo) async throws { try await inner.resume(printer) }
}
