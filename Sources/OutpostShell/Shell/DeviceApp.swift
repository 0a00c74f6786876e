import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// The device shell minus pixels: one launch of the app over its sealed store, hosting the
/// modules (``DeviceModule``) that make it an event-day app. The shell owns launch, the store
/// and its migrations, the session, connectivity, navigation and tabs, and the sync engine
/// (the outbox replayer and the modules' pull feeds); everything else is a module's.
///
/// Actions are named after what the user means; every action saves the shell's and the
/// modules' state, so a relaunch (or a kill) continues where it stopped. The UI never waits on
/// the network to advance: work is committed locally first, and replay happens after.
@MainActor
public final class DeviceApp {
    public let home: URL
    public private(set) var ports: DevicePorts
    let store: DeviceStore
    let openReport: DeviceStore.OpenReport
    var state = ShellState()
    /// The modules, in tab order (made by ``launch(home:ports:modules:simulateMigrationFailure:makeTransport:)``).
    private(set) var modules: [any DeviceModule] = []
    /// The signed-in session and its token rotation.
    let sessionKeeper: SessionKeeper
    /// Where the session's tokens rest, and the lock in front of them.
    let vault: SessionVault
    /// The outbox's I/O loop (the decisions are ``OutboxMachine``'s), over the modules' handlers.
    private(set) lazy var replayer = OutboxReplayer(store: store, handlers: modules.flatMap(\.outboxHandlers))
    var policy: ClientPolicy?
    /// The events on the picker, as last fetched (kept in memory; rendering reads no store).
    public internal(set) var events: [EventInfo] = []
    /// The outbox as the status banners show it, recounted after an action that wrote to the
    /// store or changed who is signed in.
    var status = ShellStatus()
    /// Moves whenever a record may have changed (any table but the screens' saved states in
    /// `meta`), or another connection committed: what a reload read from the store at one
    /// generation still holds at the same generation.
    package var storeGeneration: Int { store.changes.generation(excluding: ["meta"]) }
    /// The status line's outbox counts (pending, their noun, other users', set aside), counted
    /// again only after a record changed or another user signed in.
    private var statusCounts = StoreRead<(Int, ShellStatus.Noun, Int, Int)>()
    /// The states as last kept in the store, by key (a commit writes only those that changed).
    var savedStates: [String: Data] = [:]
    /// The shell's state's bytes as last saved, encoded again only when it changed.
    private var encodedShellState = EncodedState<ShellState>()
    /// Why the latest action was refused, in one sentence; nil when it was not. Kept in memory
    /// only (a relaunch starts without one): the headless CLI exits with status 3 when an
    /// action leaves one, and the tree carries it as `refusal`. Each action starts without one.
    public private(set) var refusal: String?
    /// Writes to the store that failed while the app ran: shown as a banner, kept for tests.
    package internal(set) var faults = StorageFaults()
    /// How long each module's last pull took, by module name (the bench reports the roster's
    /// apart from the other feeds an event opens with).
    package internal(set) var feedSeconds: [String: Double] = [:]
    /// An ended session whose stored copy could not be cleared: every action tries again, so the
    /// next launch (maybe another person's) never restores it once the store takes the write.
    var sessionLeftInStore = false
    /// Called with the tree after every roster page (the progress bar).
    public var onProgress: (@MainActor (UITree) -> Void)?
    /// How the transport for a server URL is made (tests wrap it with faults).
    let makeTransport: @Sendable (URL) -> any Transport

    /// Launches the app: opens the store, runs every pending migration (the shell's, then each
    /// module's) before any screen, and restores the shell and every module where they were.
    public static func launch(
        home: URL, ports: DevicePorts, modules: DeviceModules, simulateMigrationFailure: Bool = false,
        makeTransport: @escaping @Sendable (URL) -> any Transport = { LiveTransport.make(baseURL: $0) }
    ) -> DeviceLaunch {
        do {
            let (store, report) = try DeviceStore.open(
                home: home, keyStore: ports.keyStore, modules: modules.migrations,
                simulateMigrationFailure: simulateMigrationFailure)
            // A device without an id does not start: every Idempotency-Key and device report
            // carries it, and a made-up one would merge two devices' work on the server.
            let deviceId = try store.deviceId()
            let app = DeviceApp(
                home: home, ports: ports, store: store, deviceId: deviceId, report: report,
                makeTransport: makeTransport)
            let context = ModuleContext(shell: app)
            app.modules = modules.types.map { $0.make(context: context, store: store) }
            app.restore()
            return .ready(app)
        } catch {
            return .storageError(StorageFailure(reason: "\(error)", online: ports.online))
        }
    }

    init(
        home: URL, ports: DevicePorts, store: DeviceStore, deviceId: String, report: DeviceStore.OpenReport,
        makeTransport: @escaping @Sendable (URL) -> any Transport
    ) {
        self.home = home
        self.deviceId = deviceId
        self.ports = ports
        self.store = store
        self.openReport = report
        self.makeTransport = makeTransport
        let vault = SessionVault(store: store, ports: ports)
        self.vault = vault
        sessionKeeper = SessionKeeper(
            current: vault.sessionAtLaunch(), persist: { session in try vault.save(session) })
    }

    /// Runs a store access whose failure the user must hear of (`what`: "save the screen's
    /// state"): an error goes to ``faults`` (the storage-fault banner) instead of vanishing; nil
    /// then.
    @discardableResult
    package func surfacing<T>(_ what: String, _ access: () throws -> T) -> T? {
        do {
            return try access()
        } catch {
            faults.record(what, error)
            return nil
        }
    }

    /// The module of type `M`, when the app runs it (a module's actions on the app find their
    /// module this way).
    package func module<M: DeviceModule>(_ type: M.Type) -> M? { service(type) }

    /// `M` (when this device has it) with every other module's front screen closed: one station
    /// in front at a time (the zone station opening closes the pickup station).
    package func front<M: DeviceModule>(_ type: M.Type) -> M? {
        for module in modules where !(module is M) { module.closeFront() }
        return module(type)
    }

    /// The first module that provides `Service` (an interface a module exports to others).
    func service<Service>(_ type: Service.Type) -> Service? {
        modules.lazy.compactMap { $0 as? Service }.first
    }

    /// Every module that provides `Service`.
    func services<Service>(_ type: Service.Type) -> [Service] {
        modules.compactMap { $0 as? Service }
    }

    /// The signed-in session, if any.
    package var session: SessionState? { sessionKeeper.current }

    private func restore() {
        // A state that cannot be read starts its screen afresh; the entries are not in it.
        state =
            surfacing("read where the app was") { try store.sealedMeta("ui", as: ShellState.self) }.flatMap { $0 }
            ?? ShellState()
        for module in modules {
            let name = type(of: module).name
            if let data = surfacing("read where \(name) was", { try store.sealedBlob(name) }).flatMap({ $0 }) {
                surfacing("restore where \(name) was") { try module.restoreState(data) }
            }
        }
        policy = surfacing("read the app's minimum version") {
            try store.sealedMeta("client_policy", as: ClientPolicy.self)
        }.flatMap { $0 }
        events = surfacing("read the events list") { try store.events() } ?? []
        // The update banner shows on the first launch after an upgrade only.
        state.showUpdateBanner = openReport.upgraded == true
        let now = ports.clock.now()
        for module in modules { module.appeared(now: now) }
        if session == nil, !isLocked {
            state.screen = .signIn
        } else if state.screen == .signIn {
            // A store written before the shell kept its own state: back to where the session is.
            state.screen = state.eventId == nil ? .eventPicker : .event
        }
        commit()
    }

    /// Saves the shell's and every module's state, then rebuilds what the screens show. Every
    /// action ends here.
    package func commit() {
        vault.touch()
        if sessionLeftInStore, session == nil { forgetStoredSession() }
        saveStates()
        reload()
    }

    /// Clears the stored copy of the session that just ended (``SessionKeeper/end()``); when the
    /// store refuses, the fault shows and the next action tries again.
    func forgetStoredSession() {
        sessionLeftInStore = surfacing("forget the ended session") { try sessionKeeper.end() } == nil
    }

    /// Keeps the shell's and every module's state, those that changed since they were last
    /// kept, in one transaction. (One transaction per state, every time, made a confirm four
    /// write transactions: 2 ms, when its own commit is 0.2.)
    private func saveStates() {
        var changed: [(String, Data)] = []
        var states: [(String, Data?)] = [
            ("ui", surfacing("save where the app is") { try encodedShellState.data(for: state) })
        ]
        for module in modules {
            let name = type(of: module).name
            states.append((name, surfacing("save where \(name) is") { try module.saveState() }))
        }
        for case (let key, let data?) in states where savedStates[key] != data { changed.append((key, data)) }
        guard !changed.isEmpty, surfacing("save where the app is", { try store.setSealedBlobs(changed) }) != nil
        else { return }
        for (key, data) in changed { savedStates[key] = data }
    }

    /// Rebuilds the screens at the clock's time without any action (a front-end redrawing a
    /// running clock, such as the elapsed time of a clocked-in session).
    public func refresh() { reload() }

    /// Runs a module's (or the shell's) synchronous action, then saves and rebuilds. Below the
    /// server's minimum OS nothing runs: the force-upgrade screen's "update" is the only action.
    package func perform(_ action: () -> Void) {
        refusal = nil
        guard !upgradeRequired else {
            refuse("This version of the app is too old for the server: update it first.")
            return
        }
        action()
        commit()
    }

    /// A staff action: refused (nothing happens) while a module holds the device for someone
    /// who is not staff (kiosk mode), or while an upgrade is required.
    package func performAsStaff(_ action: () -> Void) {
        guard refuseStaffActionIfHeld() else { return }
        perform(action)
    }

    /// The action was refused: `sentence` says why (see ``refusal``).
    package func refuse(_ sentence: String) { refusal = sentence }

    /// A new action starts: the last one's refusal goes (each module's `clearTransient` calls it).
    package func clearRefusal() { refusal = nil }

    /// True when a staff action may run now; otherwise records why not (kiosk mode, an upgrade,
    /// the lock) and returns false.
    package func refuseStaffActionIfHeld() -> Bool {
        refusal = nil
        if upgradeRequired {
            refuse("This version of the app is too old for the server: update it first.")
        } else if let holder = modules.first(where: \.holdsDevice) {
            refuse(holder.heldRefusal)
        } else if isLocked {
            refuse("The app is locked: unlock it first.")
        } else {
            return true
        }
        return false
    }

    /// True while a module holds the device (kiosk mode): every staff action is refused.
    public var isHeld: Bool { modules.contains { $0.holdsDevice } }

    /// The OS is older than the server's client policy (from the first contact with the server,
    /// cached): the force-upgrade screen is all there is, and the engine refuses every action.
    /// Check-ins confirmed before still replay (nothing confirmed is lost); nothing new starts.
    public var upgradeRequired: Bool {
        guard let policy else { return false }
        return ports.platform.isBelow(minIOS: policy.minIOS, minAndroidAPI: policy.minAndroidAPI)
    }

    /// Fetches the server's client policy (no sign-in needed) and caches it; false when the
    /// server could not be asked.
    @discardableResult
    func refreshPolicy(_ client: APIClient) async -> Bool {
        // Unreachable or unreadable: the cached policy stands, and the caller says so (false).
        guard let policy = try? await client.clientPolicy() else { return false }
        self.policy = policy
        surfacing("save the app's minimum version") { try store.setSealedMeta("client_policy", policy) }
        return true
    }

    /// Lets every module rebuild its screen models, then recounts the outbox when a record
    /// changed or another user signed in (one read of the counts the outbox's triggers keep).
    private func reload() {
        store.noteOutsideCommits()
        for module in modules { module.reload() }
        (status.pending, status.pendingNoun, status.pendingForOtherUsers, status.quarantined) =
            statusCounts.value(
                generation: storeGeneration, scope: sessionKeeper.userId, faultsRecorded: { faults.recorded }
            ) {
                let tally = outboxTally
                return (
                    pendingCount(in: tally), pendingNoun(in: tally), pendingForOtherUsers(in: tally), tally.quarantined
                )
            }
    }

    /// One transport per server for the life of the launch (connections are reused).
    private var transports: [String: any Transport] = [:]

    func transport(for url: URL) -> any Transport {
        guard ports.online else { return OfflineTransport() }
        if let existing = transports[url.absoluteString] { return existing }
        let made = makeTransport(url)
        transports[url.absoluteString] = made
        return made
    }

    var client: APIClient? {
        guard let session, let url = URL(string: session.serverURL) else { return nil }
        return APIClient(transport: transport(for: url))
    }

    /// Sends an authenticated request with the session's token (rotated silently when it expired).
    package func authorized(_ request: TransportRequest) async throws -> TransportResponse {
        guard let client else { throw APIClientError.sessionEnded(code: nil) }
        return try await sessionKeeper.authorized(request, client: client)
    }

    /// This installation's id, read (or made) once at launch; empty only on the storage-error
    /// screen, where nothing can be sent.
    public let deviceId: String

    /// Entries waiting to be sent: the signed-in user's, or everyone's when nobody is signed in;
    /// with what the modules hold for the signed-in user that waits on them (``unsentLines``).
    public var pendingCount: Int { pendingCount(in: outboxTally) }

    /// The outbox counted now (nothing when it cannot be read: the fault banner says why).
    private var outboxTally: DeviceStore.OutboxTally {
        surfacing("count the entries waiting") { try store.outboxTally() } ?? DeviceStore.OutboxTally()
    }

    private func pendingCount(in tally: DeviceStore.OutboxTally) -> Int {
        let owner = sessionKeeper.userId
        var count = tally.pendingCount(owner: owner)
        // Entries of one subject (an activity registered, then corrected) are one thing waiting.
        for handler in modules.flatMap(\.outboxHandlers)
        where handler.countsBySubject && tally.pendingKinds(owner: owner).contains(handler.kind) {
            guard
                let keys = surfacing(
                    "count the entries waiting", { try store.pendingKeys(owner: owner, kind: handler.kind) })
            else { continue }
            count -= keys.count - Set(keys.map { handler.subject(ofKey: $0) ?? $0 }).count
        }
        return count + unsentLines.count
    }

    /// What the modules hold for the signed-in user that no entry will send until they act on
    /// it (an unresolved conflict), one line each (``DeviceModule/unsent(owner:)``).
    var unsentLines: [String] {
        guard let user = sessionKeeper.userId else { return [] }
        return modules.flatMap { $0.unsent(owner: user) }
    }

    /// What the signed-in user's pending entries are, in words: the kind's own when they are of
    /// one kind, "entries" when mixed.
    var pendingNoun: ShellStatus.Noun { pendingNoun(in: outboxTally) }

    private func pendingNoun(in tally: DeviceStore.OutboxTally) -> ShellStatus.Noun {
        let kinds = tally.pendingKinds(owner: sessionKeeper.userId)
        guard kinds.count == 1, let kind = kinds.first else {
            return .entries
        }
        return modules.lazy.flatMap(\.outboxHandlers).first { $0.kind == kind }?.noun ?? .entries
    }

    /// Entries of other users kept on this device, waiting for them to sign in again.
    public var pendingForOtherUsers: Int { pendingForOtherUsers(in: outboxTally) }

    private func pendingForOtherUsers(in tally: DeviceStore.OutboxTally) -> Int {
        guard let user = sessionKeeper.userId else { return 0 }
        return tally.pendingCount(owner: nil) - tally.pendingCount(owner: user)
    }

    /// Entries set aside because they cannot be read (damaged on disk); kept, never sent.
    public var quarantinedCount: Int {
        surfacing("count the entries set aside") { try store.quarantinedCount() } ?? 0
    }

    public var isSignedIn: Bool { session != nil }

    /// The open event, if any.
    public var currentEventId: EventID? { state.eventId }
    package var eventId: EventID? { state.eventId }

    package var currentEvent: EventInfo? {
        guard let eventId = state.eventId else { return nil }
        return events.first { $0.id == eventId }
    }

    /// The signed-in user's server, if any.
    public var serverURL: String? { session?.serverURL }

    /// Changes a platform port (the simulator's switches).
    public func update(_ change: (inout DevicePorts) -> Void) {
        change(&ports)
        vault.ports = ports
        reload()
    }
}
