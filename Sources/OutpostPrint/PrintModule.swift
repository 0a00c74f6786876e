import Foundation
import OutpostCheckIn
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The print module (seed 000's Print tab): a badge printer paired to the device (the pairing
/// survives relaunch), the event's badge layout pulled from the server, and a local queue of
/// badges. A check-in prints the guest's badge when the event says so (``CheckInListener``);
/// staff print one on demand, and a reprint (counted and audited on the server) needs a reason.
/// Paper out or a printer switched off keeps a badge queued and it is retried on every sync; the
/// printer is asked about a job before it is ever sent again, so nothing prints twice unless
/// staff ask. Declares check-in (the guests, their access types).
@MainActor
package final class PrintModule: DeviceModule, CheckInListener {
    package static let name = "print"
    package static let migrations = ModuleStore<PrintModule>.printMigrations

    package let context: ModuleContext
    package let store: ModuleStore<PrintModule>
    package var state = PrintState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<PrintState>()
    private var desk: (any CheckInDesk)? { context.service((any CheckInDesk).self) }
    private var shown: [PrintScreen.Job] = []
    /// A drain of the queue is under way (a sync's and an action's never overlap: one job, one send).
    private var draining = false

    package init(context: ModuleContext, store: ModuleStore<PrintModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] { [BadgePrintOutbox(store: store)] }

    package func pull(event: EventInfo) async throws {
        let response = try await context.authorized(TransportRequest(API.badgeLayout.line(event.id)))
        // A page that is not the layout (a portal's) fails the pull; the last layout stays.
        guard response.status == 200, let layout = try? OutpostJSON.decode(BadgeLayout.self, from: response.body)
        else { throw APIClientError.http(status: response.status, code: nil) }
        state.layouts[event.id.wire] = layout
    }

    package func layout(eventId: EventID) -> BadgeLayout { state.layouts[eventId.wire] ?? .standard }

    package func reload() {
        guard state.open, let eventId = context.eventId else {
            shown = []
            return
        }
        let jobs = context.surfacing("read the badge queue") { try store.recentJobs(eventId: eventId, limit: 20) } ?? []
        shown = jobs.map {
            PrintScreen.Job(job: $0, guestName: desk?.guest(eventId: eventId, id: $0.guestId)?.name ?? "A guest")
        }
    }

    package var tabs: [UIElement] {
        guard let paired = state.paired else { return [] }
        return [UIElement(UIIdentifier.tabPrint, "Print", ["printer": paired.name])]
    }

    package func takeover(now: Date) -> (any ScreenModel)? { nil }

    package var frontScreen: (any ScreenModel)? {
        guard state.open else { return nil }
        return PrintScreen(
            paired: state.paired, status: state.status, discovered: state.discovered, jobs: shown,
            message: state.message, timeZone: context.currentEvent?.timeZone)
    }

    package var eventShellParts: [any ScreenPart] {
        guard let paired = state.paired else { return [] }
        return [PrinterStatePart(printer: paired, status: state.status)]
    }

    package var statusElements: [UIElement] { [] }
    package func eventChanged() {
        state.open = false
        state.message = nil
    }
    package func clearTransient() { state.message = nil }
    /// The printer stays paired: it is the device's, not the user's.
    package func sessionEnded() {
        state.open = false
        state.message = nil
    }
    package func saveState() throws -> Data { try encodedState.data(for: state) }
    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(PrintState.self, from: data)
    }

    // MARK: - Pairing

    package func open() {
        state.open = true
        state.message = nil
    }

    package func close() { state.open = false }

    /// Looks for printers in reach (a Bluetooth scan; the CUPS queues).
    package func discover() async {
        state.discovered = await context.ports.printers.discover()
        if state.discovered.isEmpty { state.message = "No printer in reach: switch it on and bring it close." }
    }

    /// Pairs a printer found by ``discover()``; kept across relaunches until unpaired.
    package func pair(printerId: String) async {
        guard let printer = state.discovered.first(where: { $0.id == printerId }) else {
            context.refuse("No printer \(printerId) in reach: look for printers first.")
            return
        }
        state.paired = printer
        state.status = await context.ports.printers.status(of: printer)
        state.message = "Paired with \(printer.name)."
    }

    /// Forgets the printer; badges still queued wait for the next one paired.
    package func unpair() {
        state.paired = nil
        state.status = nil
        state.message = "No printer paired."
    }

    // MARK: - Printing

    /// The Print tab's event: check-ins print the badge when the layout says so and a printer is
    /// paired; never for a re-confirmation or a guest whose badge this device already has.
    package func checkedIn(eventId: EventID, guestId: GuestID, ticket: String?, reconfirm: Bool) {
        guard !reconfirm, state.paired != nil, layout(eventId: eventId).printOnCheckIn,
            let owner = context.userId,
            let existing = context.surfacing(
                "read the badge queue", { try store.jobs(eventId: eventId, guestId: guestId) }),
            existing.allSatisfy({ $0.state == .failed })
        else { return }
        enqueue(eventId: eventId, guestId: guestId, ticket: ticket, reprint: false, reason: nil, owner: owner)
    }

    /// Staff print a guest's badge: the first, or (with a reason) a reprint. A badge this device
    /// printed or is printing is only printed again as a reprint.
    package func printBadge(guestId: GuestID, reason: String?, ticket: String? = nil) {
        guard let eventId = context.eventId, let owner = context.userId else { return }
        guard state.paired != nil else {
            context.refuse("Pair a printer first (Print tab).")
            return
        }
        guard desk?.guest(eventId: eventId, id: guestId) != nil else {
            context.refuse("That guest is not on this event's roster.")
            return
        }
        let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines)
        let existing =
            context.surfacing("read the badge queue") { try store.jobs(eventId: eventId, guestId: guestId) } ?? []
        let had = existing.contains { $0.state != .failed }
        if had, reason?.isEmpty ?? true {
            context.refuse("This guest's badge was printed here already: a reprint needs a reason.")
            return
        }
        if let reason, reason.count > BadgePrintRecord.maxReasonLength {
            context.refuse("A reprint's reason has at most \(BadgePrintRecord.maxReasonLength) characters.")
            return
        }
        enqueue(
            eventId: eventId, guestId: guestId, ticket: ticket, reprint: had, reason: had ? reason : nil, owner: owner)
        state.message = had ? "Reprint queued." : "Badge queued."
    }

    private func enqueue(
        eventId: EventID, guestId: GuestID, ticket: String?, reprint: Bool, reason: String?, owner: UserID
    ) {
        let job = PrintJobRecord(
            id: .random(), eventId: eventId, guestId: guestId, reprint: reprint, reason: reason, ticket: ticket,
            state: .queued, attempts: 0, lastError: nil, createdAt: context.ports.clock.now(), printedAt: nil,
            owner: owner)
        context.surfacing("queue the badge") { try store.keep(job) }
    }

    /// Works the queue against the paired printer: asks about every job it may have, sends the
    /// ones it never received, resumes a printer that stopped out of labels. Stops at the first
    /// printer that cannot be reached (the rest wait for the next run).
    package func runLocalWork() async {
        guard let printer = state.paired, !draining else { return }
        draining = true
        defer { draining = false }
        let printers = context.ports.printers
        let status = await printers.status(of: printer)
        state.status = status
        guard let jobs = context.surfacing("read the badge queue", { try store.jobs(in: [.queued, .sent]) }) else {
            return
        }
        if jobs.contains(where: { $0.state == .sent }), status.condition == .outOfPaper || status.condition == .stopped
        {
            // A spooling printer holds the job; asking it to go on is the retry (it stops again if
            // still empty). A resume that fails changes nothing: the job stays and the next run asks.
            try? await printers.resume(printer)
        }
        for var job in jobs {
            do {
                // Sent before (or maybe: the answer was lost)? The printer says; never send twice.
                if job.state == .sent || job.attempts > 0 {
                    switch try await printers.job(job.id.uuid, on: printer) {
                    case .done?:
                        try finish(job)
                        continue
                    case .queued?, .printing?:
                        if job.state != .sent {
                            job.state = .sent
                            try store.keep(job)
                        }
                        continue
                    case .canceled?:
                        job.state = .failed
                        job.lastError = "Canceled at the printer."
                        try store.keep(job)
                        continue
                    case nil where job.state == .sent:
                        job.state = .failed
                        job.lastError = "The printer no longer knows this badge: reprint it if it did not come out."
                        try store.keep(job)
                        continue
                    case nil:
                        break
                    }
                }
                guard let badge = badge(for: job) else {
                    job.state = .failed
                    job.lastError = "The guest is no longer on the roster."
                    try store.keep(job)
                    continue
                }
                job.attempts += 1
                try store.keep(job)
                try await printers.submit(PrinterJob(id: job.id.uuid, badge: badge), to: printer)
                job.state = .sent
                job.lastError = nil
                try store.keep(job)
                if try await printers.job(job.id.uuid, on: printer) == .done { try finish(job) }
            } catch let error as PrinterError {
                job.lastError = error.description
                context.surfacing("keep the badge queued") { try store.keep(job) }
                break
            } catch {
                context.surfacing("work the badge queue") { throw error }
                break
            }
        }
        state.status = await printers.status(of: printer)
    }

    private func finish(_ job: PrintJobRecord) throws {
        try store.printed(job, deviceId: context.deviceId, now: context.ports.clock.now())
    }

    /// The badge of `job`'s guest under the event's layout; nil when the guest is not on the roster.
    func badge(for job: PrintJobRecord) -> BadgeContent? {
        guard let guest = desk?.guest(eventId: job.eventId, id: job.guestId) else { return nil }
        let accessType = desk?.accessTypes(eventId: job.eventId).first { $0.id == guest.accessTypeId }?.name ?? ""
        return BadgeContent.of(
            name: guest.name, email: guest.email, accessTypeId: guest.accessTypeId, accessType: accessType,
            ticket: job.ticket ?? (guest.code.isEmpty ? nil : guest.code), layout: layout(eventId: job.eventId))
    }
}

/// The paired printer's state on the event shell (the station's status).
package struct PrinterStatePart: ScreenPart, Sendable {
    package var printer: PrinterInfo
    package var status: PrinterStatus?

    package func elements() -> [UIElement] { [PrintScreen.stateElement(printer, status)] }
}
