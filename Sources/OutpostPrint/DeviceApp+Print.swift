import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The print module's actions, as the front-ends and tests call them (staff actions).
extension DeviceApp {
    package var printModule: PrintModule? { module(PrintModule.self) }

    /// The paired printer, if any (kept across relaunches).
    public var pairedPrinter: PrinterInfo? { printModule?.state.paired }
    /// What the paired printer last said.
    public var printerStatus: PrinterStatus? { printModule?.state.status }

    public func openPrint() {
        performAsStaff { printModule?.open() }
    }

    public func closePrint() {
        performAsStaff { printModule?.close() }
    }

    /// Looks for printers in reach; they show on the Print screen to pair.
    public func discoverPrinters() async -> [PrinterInfo] {
        clearRefusal()
        await printModule?.discover()
        commit()
        return printModule?.state.discovered ?? []
    }

    /// Pairs a printer ``discoverPrinters()`` found (the Print tab appears).
    public func pairPrinter(id: String) async {
        clearRefusal()
        await printModule?.pair(printerId: id)
        commit()
    }

    /// Forgets the paired printer (the Print tab goes).
    public func unpairPrinter() {
        perform { printModule?.unpair() }
    }

    /// Prints `guestId`'s badge (the first; with `reprintReason` a reprint), then works the queue.
    /// `ticket`: the scanned ticket for the badge's QR (else the guest's code).
    public func printBadge(guestId: GuestID, reprintReason: String? = nil, ticket: String? = nil) async {
        var queued = false
        performAsStaff {
            printModule?.printBadge(guestId: guestId, reason: reprintReason, ticket: ticket)
            queued = refusal == nil
        }
        guard queued else { return }
        await replay(force: false)
        commit()
    }

    /// Works the badge queue now (a front-end's timer; every replay does it too).
    public func runPrintQueue() async {
        await printModule?.runLocalWork()
        commit()
    }

    /// Badges this device has not seen come out of its printer yet (queued or at the printer).
    public var badgesWaiting: Int {
        guard let module = printModule else { return 0 }
        return (surfacing("read the badge queue") { try module.store.jobs(in: [.queued, .sent]) } ?? []).count
    }

    /// The badges in this device's queue for the open event, newest first: guest, state, reprint.
    public var printJobs: [(printId: BadgePrintID, guestId: GuestID, state: String, reprint: Bool, reason: String?)] {
        guard let eventId, let module = printModule else { return [] }
        return (surfacing("read the badge queue") { try module.store.recentJobs(eventId: eventId, limit: 100) } ?? [])
            .map { ($0.id, $0.guestId, $0.state.rawValue, $0.reprint, $0.reason) }
    }
}
