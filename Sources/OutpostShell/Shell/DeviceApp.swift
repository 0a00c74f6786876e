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
    public private(set) var events: [EventInfo] = []
    /// The outbox as the status banners show it, recounted after every action.
    var status = ShellStatus()
    /// The states as last kept in the store, by key (a commit writes only those that changed).
    private var savedStates: [String: Data] = [:]
    /// Why the latest action was refused, in one sentence; nil when it was not. Kept in memory
    /// only (a relaunch starts without one): the headless CLI exits with status 3 when an
    /// action leaves one, and the tree carries it as `refusal`. Each action starts without one.
    public private(set) var refusal: String?
    /// Writes to the store that failed while the app ran: shown as a banner, kept for tests.
    package private(set) var faults = StorageFaults()
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

    /// The first module that provides `Service` (an interface a module exports to others).
    func service<Service>(_ type: Service.Type) -> Service? {
        modules.lazy.compactMap { $0 as? Service }.first
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
        saveStates()
        reload()
    }

    /// Keeps the shell's and every module's state, those that changed since they were last
    /// kept, in one transaction. (One transaction per state, every time, made a confirm four
    /// write transactions: 2 ms, when its own commit is 0.2.)
    private func saveStates() {
        var changed: [(String, Data)] = []
        var states: [(String, Data?)] = [
            ("ui", surfacing("save where the app is") { try JSONEncoder.outpostDevice.encode(state) })
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

    /// Recounts the outbox and lets every module rebuild its screen models.
    private func reload() {
        status.pending = pendingCount
        status.pendingNoun = pendingNoun
        status.pendingForOtherUsers = pendingForOtherUsers
        status.quarantined = quarantinedCount
        for module in modules { module.reload() }
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
    public var pendingCount: Int {
        let owner = sessionKeeper.userId
        var count = surfacing("count the entries waiting") { try store.pendingCount(owner: owner) } ?? 0
        // Entries of one subject (an activity registered, then corrected) are one thing waiting.
        for handler in modules.flatMap(\.outboxHandlers) where handler.countsBySubject {
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
    var pendingNoun: ShellStatus.Noun {
        let kinds = surfacing("count the entries waiting") { try store.pendingKinds(owner: sessionKeeper.userId) } ?? []
        guard kinds.count == 1, let kind = kinds.first else {
            return .entries
        }
        return modules.lazy.flatMap(\.outboxHandlers).first { $0.kind == kind }?.noun ?? .entries
    }

    /// Entries of other users kept on this device, waiting for them to sign in again.
    public var pendingForOtherUsers: Int {
        guard let user = sessionKeeper.userId else { return 0 }
        let all = surfacing("count the entries waiting") { try store.pendingCount(owner: nil) } ?? 0
        return all - (surfacing("count the entries waiting") { try store.pendingCount(owner: user) } ?? 0)
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

    // MARK: - Sign-in and events

    /// Signs in; lands on the event picker. Over a session of another user, that user is signed
    /// out first, keeping their pending entries for their next sign-in (never sent as this user).
    /// A plain `http://` server that is not this machine is refused before anything is sent
    /// (``ServerAddress``), unless `allowingInsecureHTTP` (a development switch).
    public func signIn(server: URL, email: String, password: String, allowingInsecureHTTP: Bool = false) async {
        await authenticate(server: server, allowingInsecureHTTP: allowingInsecureHTTP) { client, deviceId in
            try await client.signIn(email: email, password: password, deviceId: deviceId)
        }
    }

    /// Passwordless sign-in (seed 003): asks the server to mail a six-digit code.
    public func requestEmailCode(
        server: URL, email: String, registering: Bool = false, allowingInsecureHTTP: Bool = false
    ) async {
        guard startSignIn(server: server, allowingInsecureHTTP: allowingInsecureHTTP) else { return }
        do {
            try await APIClient(transport: transport(for: server)).requestEmailCode(
                email: email, purpose: registering ? .register : .signin)
            state.signInNotice =
                "If \(email) has an account (or is creating one), a code is on its way: enter it within 10 minutes."
        } catch {
            refuseSignIn(error)
        }
        commit()
    }

    /// Signs in with a mailed code; with `name` and `consentVersion` the account is created (the
    /// consent is kept on the device too).
    public func signIn(
        server: URL, email: String, code: String, name: String? = nil, consentVersion: String? = nil,
        allowingInsecureHTTP: Bool = false
    ) async {
        await authenticate(server: server, allowingInsecureHTTP: allowingInsecureHTTP) { client, deviceId in
            try await client.signIn(
                email: email, code: code, deviceId: deviceId, name: name, consentVersion: consentVersion)
        }
        if isSignedIn, let consentVersion, let user = session?.user.id {
            storeConsent(ConsentRecord(version: consentVersion, acceptedAt: ports.clock.now()), for: user)
        }
    }

    /// The version of the terms this device's user accepted when registering here.
    public var consentVersion: String? { consent?.version }

    /// The consent the signed-in user (or the removed account whose entries are kept) gave, as
    /// the server last said (each user's own: two people who share a phone each see theirs).
    public var consent: ConsentRecord? {
        guard let user = session?.user.id ?? state.removedAccount?.id else { return nil }
        return surfacing("read your consent") {
            try store.sealedMeta("consent:\(user.wire)", as: ConsentRecord.self)
        }.flatMap { $0 }
    }

    func storeConsent(_ record: ConsentRecord, for user: UserID) {
        surfacing("save your consent") { try store.setSealedMeta("consent:\(user.wire)", record) }
    }

    /// Reads the user's consent from the server (at sign-in and every sync): a second phone
    /// knows what the first one accepted.
    func refreshConsent() async {
        guard let user = session?.user, user.role == .worker || user.role == .mentor, ports.online else { return }
        do {
            let record = try APIClient.decode(
                ConsentRecord.self, try await authorized(TransportRequest(API.consent.line())))
            storeConsent(record, for: user.id)
        } catch {
            if case APIClientError.sessionEnded = error { handle(error) }
        }
    }

    /// One sign-in, whatever proves it: the policy first, then `obtain` the pair, then the
    /// session begins (another user's session ends first, keeping their pending entries).
    private func authenticate(
        server: URL, allowingInsecureHTTP: Bool,
        _ obtain: (APIClient, String) async throws -> TokenPair
    ) async {
        guard startSignIn(server: server, allowingInsecureHTTP: allowingInsecureHTTP) else { return }
        let client = APIClient(transport: transport(for: server))
        // The first contact asks for the client policy, before any password is sent: a device
        // below it shows only the force-upgrade screen.
        await refreshPolicy(client)
        if upgradeRequired {
            commit()
            return
        }
        do {
            let pair = try await obtain(client, deviceId)
            let user = pair.user.id
            if let previous = session, previous.user.id != pair.user.id || previous.serverURL != server.absoluteString {
                await endSession(revoking: previous, discardingOutbox: false)
            }
            let newSession = SessionState(
                serverURL: server.absoluteString, accessToken: pair.accessToken, refreshToken: pair.refreshToken,
                user: pair.user, offlineUnlockHours: pair.offlineUnlockHours)
            try store.adoptUnownedEntries(by: user)
            try sessionKeeper.begin(newSession)
            for module in modules { module.signedIn(pair.user) }
            if let home = modules.first(where: { $0.isHome(for: pair.user) }) {
                // A user who works outside events (a peer mentor, a care worker) lands in their module.
                state.screen = .module
                state.module = type(of: home).name
                await replay(force: true)
                await pullAccountFeeds()
            } else {
                state.screen = .eventPicker
                await loadEvents(range: "all")
                await replay(force: true)
            }
        } catch {
            refuseSignIn(error)
        }
        commit()
    }

    /// The sign-in screen says why the server (or the network) refused, and so does ``refusal``.
    private func refuseSignIn(_ error: any Error) {
        let words = Self.words(forSignIn: error)
        state.signInError = words
        refuse(words)
    }

    /// What every sign-in step does first: nothing while staff actions are refused; the last
    /// messages go; a plain `http://` server off this machine is refused before anything is sent.
    /// False when the step stops here.
    private func startSignIn(server: URL, allowingInsecureHTTP: Bool) -> Bool {
        guard store != nil, refuseStaffActionIfHeld() else { return false }
        state.signInError = nil
        state.signInNotice = nil
        if let refusal = ServerAddress.refusal(server, allowingInsecureHTTP: allowingInsecureHTTP) {
            state.signInError = refusal
            refuse(refusal)
            commit()
            return false
        }
        return true
    }

    /// Why a sign-in did not work, in words.
    static func words(forSignIn error: any Error) -> String {
        switch error {
        case APIClientError.http(429, _): "Too many attempts; wait a few minutes and try again."
        case APIClientError.http(401, "invalid_code"?): "That code is wrong, used or expired; ask for a new one."
        case APIClientError.http(401, _): "That e-mail and password don't match an account."
        case APIClientError.http(422, _):
            "This e-mail has no account yet: create one with your name and by accepting the terms."
        case APIClientError.http(503, "mail_unavailable"?):
            "The server can't send e-mail right now; try again in a minute, or sign in with a password."
        case APIClientError.http(let status, let code):
            "The server could not sign you in (\(code ?? String(status)))."
        case APIClientError.transport(.untrustedServer):
            "The server's certificate is not trusted by this device; check the address, or ask the organizer."
        case APIClientError.transport: "You're offline; signing in needs the network once."
        default: "Signing in failed: \(error)"
        }
    }

    /// Lists the events the user may work, from the server when online, else the cached list.
    public func showEvents(range: String = "all") async {
        guard session != nil, refuseStaffActionIfHeld() else { return }
        state.screen = .eventPicker
        state.eventId = nil
        for module in modules { module.eventChanged() }
        await loadEvents(range: range)
        commit()
    }

    private func loadEvents(range: String) async {
        guard session != nil else { return }
        state.eventRange = range
        do {
            let response = try await authorized(TransportRequest(API.listEvents.line(query: [("range", range)])))
            let list = try APIClient.decode(EventList.self, response)
            try store.replaceEvents(list.events)
            events = list.events
        } catch {
            handle(error)
        }
    }

    /// Enters an event: pulls every module's feeds (the roster: full the first time, then
    /// deltas, resuming from the stored cursor), then shows the event shell with its tabs.
    public func openEvent(_ eventId: EventID) async {
        guard session != nil, refuseStaffActionIfHeld() else { return }
        guard events.contains(where: { $0.id == eventId }) else {
            refuse("There is no event \(eventId.wire) on your list: show the events and choose one of them.")
            return
        }
        state.eventId = eventId
        state.screen = .event
        for module in modules { module.eventChanged() }
        clearTransient()
        commit()
        await pullFeeds()
        commit()
    }

    /// Pulls every module's feeds for the open event, stopping at the first failure (the next
    /// sync resumes from the stored cursors).
    package func pullFeeds() async {
        guard session != nil, let event = currentEvent else { return }
        do {
            for module in modules { try await module.pull(event: event) }
        } catch {
            handle(error)
        }
    }

    /// Pulls every module's feeds of the signed-in user (not of an event), stopping at the first
    /// failure; what was pulled before stays.
    func pullAccountFeeds() async {
        guard session != nil else { return }
        do {
            for module in modules { try await module.pullAccount() }
        } catch {
            handle(error)
        }
        await refreshConsent()
    }

    /// Shows a module's own screen (outside any event): the peer mentor's activities.
    public func showModule(named name: String) {
        guard session != nil, modules.contains(where: { type(of: $0).name == name }) else { return }
        performAsStaff {
            state.screen = .module
            state.module = name
            clearTransient()
        }
    }

    /// The feed being pulled ("roster") and how far it is, while one is (the progress bar's values).
    public var feedProgress: (feed: String, done: Int, total: Int)? { status.feedProgress }

    /// A feed's progress (nil: done); shown as the progress bar, live to `onProgress`.
    package func reportProgress(_ progress: (done: Int, total: Int)?, feed: String) {
        status.feedProgress = progress.map { (feed, $0.done, $0.total) }
        if progress != nil { onProgress?(tree()) }
    }

    /// Clears result cards and banners (front-ends call this when they auto-dismiss them).
    public func dismissTransient() {
        perform { clearTransient() }
    }

    /// The platform reports a change of connectivity (NWPathMonitor, NetInfo). When the network
    /// returns, the session is validated, the outbox replays and the feeds pull by themselves,
    /// on whatever screen the user is (nothing is interrupted).
    public func connectivityChanged(online: Bool) async {
        let cameBack = online && !ports.online
        update { $0.online = online }
        if cameBack { await sync() }
    }

    /// Replays the outbox now (ignoring backoff) and pulls the modules' feeds.
    public func sync() async {
        await validateSession()
        await replay(force: true)
        if let client { await refreshPolicy(client) }
        if !upgradeRequired {
            await pullFeeds()
            await pullAccountFeeds()
            await reportUnsent()
        }
        commit()
    }

    /// Tells the server how many entries of the signed-in mentor or worker this device has not
    /// sent (an organizer sees it before removing the user); door devices report per event.
    func reportUnsent() async {
        guard let user = session?.user, user.role == .mentor || user.role == .worker, ports.online,
            // A report of one integer always encodes; the optional only keeps the guard flat.
            let body = try? OutpostJSON.encode(DeviceReport(pending: pendingCount))
        else { return }
        do {
            _ = try await authorized(
                TransportRequest(
                    API.reportUserDevice.line(deviceId),
                    headers: ["Content-Type": "application/json"], body: body))
        } catch {
            // The next sync reports again; an ended session was handled by the replay.
            if case APIClientError.sessionEnded = error { handle(error) }
        }
    }

    /// After a module queued an entry (`queued`): sends it at once when online.
    package func replayAfter(_ queued: Bool) async {
        guard queued, ports.online else { return }
        await replay(force: false)
        commit()
    }

    /// Sends the signed-in user's outbox entries oldest first, one at a time (``OutboxMachine``
    /// decides, ``OutboxReplayer`` does the I/O). `force` ignores backoff (the user asked).
    package func replay(force: Bool) async {
        let clock = ports.clock
        let outcome = await replayer.replay(
            force: force, session: sessionKeeper, client: client, online: ports.online, now: { clock.now() },
            seed: UInt64(ports.random(0...1) * Double(UInt64(1) << 53)))
        for fault in outcome.storeFaults { faults.record(fault.what, fault.error) }
        if outcome.sessionEnded { handle(APIClientError.sessionEnded(code: outcome.sessionEndedCode)) }
    }

    /// Only a definite refusal of the refresh token ends the session; pending data stays.
    package func handle(_ error: any Error) {
        if case APIClientError.sessionEnded(let code) = error {
            let user = session?.user
            let kept = pendingCount
            let waiting = "\(kept) \(pendingNoun.for(kept))"
            sessionKeeper.end()
            state.screen = .signIn
            if code == APIErrorCode.accountRemoved.rawValue, let user {
                // The true reason, and where the work is: the server takes nothing from a
                // removed account, so the entries stay here and in the privacy export.
                state.removedAccount = user
                state.signInError =
                    "Your account was removed by your organizer."
                    + (kept > 0
                        ? " \(waiting) could not be sent and the server no longer accepts them; they stay on this device, and Export My Data writes them out."
                        : "")
            } else {
                state.signInError =
                    "Your sign-in has ended (the account was removed, its password changed, or it signed in elsewhere); sign in again."
                    + (kept > 0 ? " \(kept) saved \(kept == 1 ? "entry is" : "entries are") kept on this device." : "")
            }
        }
    }

    func clearTransient() {
        state.message = nil
        state.showUpdateBanner = false
        for module in modules { module.clearTransient() }
    }

    // MARK: - Sign-out

    public enum SignOutChoice: String, Sendable {
        case wait
        case discard
        case keep
    }

    /// Sign-out. With pending entries of this user and no choice it shows the warning
    /// (default: wait); `keep` keeps them for the same user's next sign-in; `discard` drops them.
    /// Other users' kept entries are never touched.
    public func signOut(_ choice: SignOutChoice? = nil) async {
        guard let current = session, refuseStaffActionIfHeld() else { return }
        var discard = false
        switch (pendingCount, choice) {
        case (0, _):
            break
        case (_, nil):
            state.screen = .signOutWarning
            let waiting = "\(pendingCount) \(pendingNoun.for(pendingCount))"
            refuse("Not signed out: \(waiting) not synced yet; wait for them, keep them or discard them.")
            commit()
            return
        case (_, .wait?):
            await replay(force: true)
            if pendingCount > 0 {
                state.screen = .signOutWarning
                state.message = "Still waiting: the \(pendingNoun.many) could not be sent yet."
                refuse("Not signed out: \(pendingCount) \(pendingNoun.for(pendingCount)) could not be sent yet.")
                commit()
                return
            }
        case (_, .keep?):
            discard = false
        case (_, .discard?):
            discard = true
        }
        await endSession(revoking: current, discardingOutbox: discard)
        // Only gives freed pages back to the disk (the signed-out roster); nothing depends on it.
        try? store.vacuum()
        commit()
    }

    /// Ends `current` on this device: revokes it on the server (best effort), forgets the
    /// roster, events and tokens; its outbox entries stay for its next sign-in unless discarded.
    private func endSession(revoking current: SessionState, discardingOutbox: Bool) async {
        if let url = URL(string: current.serverURL) {
            await APIClient(transport: transport(for: url)).signOut(refreshToken: current.refreshToken)
        }
        forgetSession(discarding: discardingOutbox ? current.user.id : nil)
    }

    /// Forgets the session on this device (the roster, events, tokens and the lock's bound key);
    /// the outbox stays, owned by its users, unless `discarding` names one.
    func forgetSession(discarding: UserID?) {
        surfacing("forget the signed-out roster and tokens") {
            try store.clearForSignOut(
                discarding: discarding, sessionTables: modules.flatMap { type(of: $0).sessionTables })
        }
        if let discarding {
            for module in modules {
                surfacing("discard \(type(of: module).name)'s unsent work") {
                    try module.discardUnsent(owner: discarding)
                }
            }
        }
        savedStates = [:]
        sessionKeeper.end()
        events = []
        state = ShellState()
        for module in modules { module.sessionEnded() }
    }

    /// The simulator's damaged disk (`outpost device sim damage-outbox-row`): the newest pending
    /// entry becomes unreadable. Returns its Idempotency-Key, nil when nothing is pending.
    public func simulateDamagedOutboxEntry() -> String? {
        defer { commit() }
        return surfacing("damage an entry (simulator)") { try store.damageNewestPendingEntry() }.flatMap { $0 }
    }

    // MARK: - Lifecycle

    /// The app goes to the background.
    public func background() {
        state.backgroundedAt = ports.clock.now()
        commit()
    }

    /// The app comes back: the resume skeleton shows until local state is loaded (no network),
    /// then the delta and replay run without blocking the screen.
    @discardableResult
    public func foreground() -> Task<Void, Never> {
        status.resuming = true
        onProgress?(tree())
        relockIfAway()
        state.backgroundedAt = nil
        let now = ports.clock.now()
        for module in modules { module.appeared(now: now) }
        status.resuming = false
        commit()
        return Task { @MainActor in await self.sync() }
    }
}
