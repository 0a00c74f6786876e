import Foundation
import OutpostProtocol

/// The Bluetooth label printer of a simulated phone (Linux, tests, `outpost device sim printer`),
/// with the seed's semantics: it is in range or off, has labels or is out of them, and has no
/// spool: a job sent while it is out of labels is refused and stays in the app's queue. What it
/// printed is kept (the badge and the job id), so a test and the CLI can see each badge once.
public final class SimulatedBluetoothPrinter: BadgePrinters, @unchecked Sendable {
    public struct State: Codable, Sendable, Hashable {
        public var powered = true
        public var paper = true
        /// The badges it printed, oldest first.
        public var printed: [Printed] = []

        public init() {}
    }

    public struct Printed: Codable, Sendable, Hashable {
        public var job: UUID
        public var name: String
        public var secondLine: String
        public var ticket: String?
    }

    public static let info = PrinterInfo(id: "bt:00:1B:44:11:3A:B7", name: "Label printer (Bluetooth)")

    private let lock = NSLock()
    private var state: State
    private let saved: @Sendable (State) -> Void
    private let reload: (@Sendable () -> State?)?

    /// `reload`: where the switches are read again before each use (the CLI's `sim.json`, which
    /// `outpost device sim printer` flips while a station runs); nil keeps them in memory.
    public init(
        state: State = State(), reload: (@Sendable () -> State?)? = nil,
        saved: @escaping @Sendable (State) -> Void = { _ in }
    ) {
        self.state = state
        self.reload = reload
        self.saved = saved
    }

    public var current: State {
        let fresh = reload?()
        return lock.withLock {
            if let fresh { state = fresh }
            return state
        }
    }

    /// Flips the switches (the CLI's `sim printer`, a test).
    public func set(powered: Bool? = nil, paper: Bool? = nil) {
        _ = current
        let changed = lock.withLock {
            if let powered { state.powered = powered }
            if let paper { state.paper = paper }
            return state
        }
        saved(changed)
    }

    public func discover() async -> [PrinterInfo] { current.powered ? [Self.info] : [] }

    public func status(of printer: PrinterInfo) async -> PrinterStatus {
        let now = current
        guard printer.id == Self.info.id, now.powered else { return PrinterStatus(.off) }
        return now.paper ? PrinterStatus(.ready) : PrinterStatus(.outOfPaper, detail: "out of labels")
    }

    public func submit(_ job: PrinterJob, to printer: PrinterInfo) async throws {
        guard printer.id == Self.info.id else { throw PrinterError.unreachable("no such printer") }
        _ = current
        let result: Result<State, PrinterError> = lock.withLock {
            guard state.powered else { return .failure(.unreachable("switched off or out of range")) }
            guard state.paper else { return .failure(.outOfPaper) }
            if !state.printed.contains(where: { $0.job == job.id }) {
                state.printed.append(
                    Printed(
                        job: job.id, name: job.badge.name, secondLine: job.badge.secondLine, ticket: job.badge.ticket))
            }
            return .success(state)
        }
        saved(try result.get())
    }

    public func job(_ id: UUID, on printer: PrinterInfo) async throws -> PrinterJobState? {
        let now = current
        guard now.powered else { throw PrinterError.unreachable("switched off or out of range") }
        return now.printed.contains { $0.job == id } ? .done : nil
    }

    public func resume(_ printer: PrinterInfo) async throws {}
}
