import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// The staff app minus pixels: one launch of the app over its sealed store. Actions are named
/// after what the user means; every action persists the app state, so a relaunch (or a kill)
/// continues where it stopped. The UI never waits on the network to advance: a confirm is
/// committed locally first, and replay happens after.
@MainActor
public final class DeviceApp {
    public let home: URL
    public private(set) var ports: DevicePorts
    let store: DeviceStore?
    let openReport: DeviceStore.OpenReport?
    let openError: String?
    var state = AppState()
    var kiosk = KioskState()
    /// The signed-in session and its token rotation.
    let sessionKeeper: SessionKeeper
    /// The outbox's I/O loop (the decisions are ``OutboxMachine``'s).
    private(set) var replayer: OutboxReplayer?
    var policy: ClientPolicy?
    /// The autocomplete index, built from the unsealed roster on first use and then kept current.
    private var builtIndex: RosterIndex?
    /// Set when the roster changed under the index.
    private var indexIsStale = true
    var resuming = false
    var rosterProgress: (done: Int, total: Int)?
    /// Called with the tree after every roster page (the progress bar).
    public var onProgress: (@MainActor (UITree) -> Void)?
    /// How the transport for a server URL is made (tests wrap it with faults).
    let makeTransport: @Sendable (URL) -> any Transport

    /// Launches the app: opens the store and runs every pending migration before any screen.
    public static func launch(
        home: URL, ports: DevicePorts, simulateMigrationFailure: Bool = false,
        makeTransport: @escaping @Sendable (URL) -> any Transport = { URLSessionTransport(baseURL: $0) }
    ) -> DeviceApp {
        do {
            let (store, report) = try DeviceStore.open(
                home: home, keyStore: ports.keyStore, simulateMigrationFailure: simulateMigrationFailure)
            let app = DeviceApp(
                home: home, ports: ports, store: store, report: report, error: nil, makeTransport: makeTransport)
            app.restore()
            return app
        } catch {
            return DeviceApp(
                home: home, ports: ports, store: nil, report: nil, error: "\(error)", makeTransport: makeTransport)
        }
    }

    init(
        home: URL, ports: DevicePorts, store: DeviceStore?, report: DeviceStore.OpenReport?, error: String?,
        makeTransport: @escaping @Sendable (URL) -> any Transport
    ) {
        self.home = home
        self.ports = ports
        self.store = store
        self.openReport = report
        self.openError = error
        self.makeTransport = makeTransport
        sessionKeeper = SessionKeeper(
            current: try? store?.sealedMeta("session", as: SessionState.self),
            persist: { [store] session in try store?.setSealedMeta("session", session) })
        if let store {
            replayer = OutboxReplayer(
                store: store,
                handlers: [
                    CheckInOutbox(store: store) { [weak self] info in self?.state.info = info }
                ])
        }
    }

    /// The signed-in session, if any.
    var session: SessionState? { sessionKeeper.current }

    private func restore() {
        guard let store else { return }
        state = (try? store.sealedMeta("ui", as: AppState.self)) ?? AppState()
        policy = try? store.sealedMeta("client_policy", as: ClientPolicy.self)
        kiosk = (try? store.sealedMeta("kiosk", as: KioskState.self)) ?? KioskState()
        // The update banner shows on the first launch after an upgrade only.
        state.showUpdateBanner = openReport?.upgraded == true
        if session == nil { state.screen = .signIn }
        persist()
    }

    func persist() {
        try? store?.setSealedMeta("ui", state)
        try? store?.setSealedMeta("kiosk", kiosk)
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
    func authorized(_ request: TransportRequest) async throws -> TransportResponse {
        guard let client else { throw APIClientError.sessionEnded(code: nil) }
        return try await sessionKeeper.authorized(request, client: client)
    }

    public var deviceId: String { (try? store?.deviceId()) ?? "unknown-device" }

    /// Entries waiting to be sent: the signed-in user's, or everyone's when nobody is signed in.
    public var pendingCount: Int { (try? store?.pendingCount(owner: sessionKeeper.userId)) ?? 0 }

    /// Entries of other users kept on this device, waiting for them to sign in again.
    public var pendingForOtherUsers: Int {
        guard let user = sessionKeeper.userId else { return 0 }
        return ((try? store?.pendingCount(owner: nil)) ?? 0) - ((try? store?.pendingCount(owner: user)) ?? 0)
    }

    /// Entries set aside because they cannot be read (damaged on disk); kept, never sent.
    public var quarantinedCount: Int { (try? store?.quarantinedCount()) ?? 0 }

    public var isSignedIn: Bool { session != nil }

    /// The Idempotency-Key of the check-in the result card shows (set by a committed confirm).
    public var lastConfirmedKey: String? { state.result?.idempotencyKey }

    /// Every check-in this device confirmed that it still holds, with the server's answers.
    public var ledger: [CheckInLedgerEntry] { (try? store?.ledger()) ?? [] }

    public var currentEventId: String? { state.eventId }

    /// Changes a platform port (the simulator's switches).
    public func update(_ change: (inout DevicePorts) -> Void) {
        change(&ports)
    }

    // MARK: - Sign-in and events

    /// Signs in; lands on the event picker. Over a session of another user, that user is signed
    /// out first, keeping their pending entries for their next sign-in (never sent as this user).
    public func signIn(server: URL, email: String, password: String) async {
        guard let store else { return }
        state.signInError = nil
        let client = APIClient(transport: transport(for: server))
        do {
            let pair = try await client.signIn(email: email, password: password, deviceId: try store.deviceId())
            guard let user = UserID(wire: pair.user.id) else {
                throw APIClientError.undecodable("the server's user id \(pair.user.id.prefix(40))")
            }
            if let previous = session, previous.user.id != pair.user.id || previous.serverURL != server.absoluteString {
                await endSession(revoking: previous, discardingOutbox: false)
            }
            let newSession = SessionState(
                serverURL: server.absoluteString, accessToken: pair.accessToken, refreshToken: pair.refreshToken,
                user: pair.user)
            try store.adoptUnownedEntries(by: user)
            try sessionKeeper.begin(newSession)
            if let policy = try? await client.clientPolicy() {
                self.policy = policy
                try? store.setSealedMeta("client_policy", policy)
            }
            state.screen = .eventPicker
            await loadEvents(range: "all")
            await replay(force: true)
        } catch APIClientError.http(let status, let code) {
            state.signInError =
                switch (status, code) {
                case (429, _): "Too many attempts; wait a few minutes and try again."
                case (401, _): "That e-mail and password don't match an account."
                default: "The server could not sign you in (\(code ?? String(status)))."
                }
        } catch APIClientError.transport {
            state.signInError = "You're offline; signing in needs the network once."
        } catch {
            state.signInError = "Signing in failed: \(error)"
        }
        persist()
    }

    /// Lists the events the user may work, from the server when online, else the cached list.
    public func showEvents(range: String = "all") async {
        guard session != nil else { return }
        state.screen = .eventPicker
        state.eventId = nil
        invalidateIndex()
        await loadEvents(range: range)
        persist()
    }

    private func loadEvents(range: String) async {
        guard session != nil, let store else { return }
        state.eventRange = range
        do {
            let response = try await authorized(TransportRequest(method: "GET", path: "/v1/events?range=\(range)"))
            let list = try APIClient.decode(EventList.self, response)
            try store.replaceEvents(list.events)
        } catch {
            handle(error)
        }
    }

    /// Enters an event: syncs its roster (full the first time, then deltas, resuming from the
    /// stored cursor), then shows the event shell with the check-in tab.
    public func openEvent(_ eventId: String) async {
        guard session != nil, let store else { return }
        guard (try? store.events())?.contains(where: { $0.id == eventId }) == true else {
            state.signInError = nil
            return
        }
        state.eventId = eventId
        state.screen = .eventShell
        state.manualEntry = false
        clearTransient()
        persist()
        await syncRoster()
        invalidateIndex()
        persist()
    }

    /// Pulls roster pages after the stored cursor until there are no more; each page is applied
    /// in one transaction together with its cursor, so a kill loses at most the page in flight.
    func syncRoster() async {
        guard session != nil, let store, let eventId = state.eventId else { return }
        var done = 0
        defer { rosterProgress = nil }
        do {
            while true {
                var path = "/v1/events/\(eventId)/roster?limit=2000"
                if let cursor = try store.cursor(eventId: eventId) { path += "&since=\(cursor)" }
                let response = try await authorized(TransportRequest(method: "GET", path: path))
                let page = try APIClient.decode(RosterPage.self, response)
                try store.applyRosterPage(eventId: eventId, page: page)
                done += page.guests.count
                rosterProgress = (done, done + page.remaining)
                onProgress?(tree())
                if !page.hasMore { break }
            }
        } catch {
            handle(error)
        }
    }

    // MARK: - Check-in

    /// A scanned QR text: verified locally (no network call), then the confirmation screen or
    /// a banner. Wrong-event and forged tickets get banners of identical structure.
    public func scan(_ text: String) {
        guard let store, let eventId = state.eventId, let event = currentEvent else { return }
        clearTransient()
        state.screen = .eventShell
        let keys = (try? store.ticketKeys(eventId: eventId)) ?? [:]
        // What is verified here is byte for byte what is sent: the scanner's framing goes first.
        let ticket = ScannedText.normalized(text)
        do {
            let payload = try TicketCodec.verify(
                ticket, tenantId: UUID(wire: session?.user.tenantId ?? "") ?? UUID(),
                eventId: UUID(wire: event.id) ?? UUID(), keys: keys)
            present(guestId: payload.guestId.lowercasedString, method: .qr, ticket: ticket)
        } catch TicketError.otherEvent {
            state.banner = .crossEvent
        } catch {
            state.banner = .tampered
        }
        persist()
    }

    /// Manual entry: autocomplete over the local roster.
    public func lookup(_ query: String) {
        clearTransient()
        state.screen = .eventShell
        state.manualEntry = true
        state.query = query
        persist()
    }

    /// Manual entry by confirmation code (exact, case-insensitive).
    public func checkIn(code: String) {
        guard let store, let eventId = state.eventId else { return }
        clearTransient()
        state.screen = .eventShell
        state.manualEntry = true
        if let guest = try? store.guest(eventId: eventId, code: code) {
            present(guestId: guest.id, method: .manual, ticket: nil)
        } else {
            state.banner = .noSuchCode
        }
        persist()
    }

    /// Manual entry by picking a suggestion.
    public func choose(guestId: String) {
        clearTransient()
        present(guestId: guestId, method: .manual, ticket: nil)
        persist()
    }

    private func present(guestId: String, method: CheckInMethod, ticket: String?) {
        guard let store, let eventId = state.eventId else { return }
        guard let guest = try? store.guest(eventId: eventId, id: guestId) else {
            state.banner = .notInRoster
            return
        }
        guard guest.status.isAdmissible else {
            state.banner = .notAdmissible
            return
        }
        state.confirmation = Confirmation(guestId: guestId, method: method, ticket: ticket)
        state.screen = .confirmation
    }

    /// Confirms the guest on the confirmation screen: the check-in and its outbox entry are
    /// committed locally in one transaction, the screen advances, then the outbox replays.
    /// On the already-checked-in screen this re-confirms (`reconfirm: true`), never a second check-in.
    public func confirm(note: String? = nil, replayAfter: Bool = true) async {
        guard let store, state.screen == .confirmation, let confirmation = state.confirmation,
            let eventId = state.eventId, let guest = try? store.guest(eventId: eventId, id: confirmation.guestId),
            let owner = sessionKeeper.userId
        else { return }
        let already = guest.checkIn != nil
        let request = CheckInRequest(
            guestId: guest.id, deviceId: deviceId,
            scannedAt: Date(millisecondsSince1970: ports.clock.now().millisecondsSince1970),
            method: confirmation.method, ticket: confirmation.ticket, reconfirm: already ? true : nil,
            note: note)
        do {
            let entry = try store.confirmCheckIn(
                guest: guest, request: request, byName: session?.user.name ?? "", owner: owner, now: ports.clock.now())
            state.result = ResultCard(guestName: guest.name, idempotencyKey: entry.idempotencyKey)
        } catch {
            state.signOutMessage = "Could not save the check-in: \(error)"
        }
        state.confirmation = nil
        state.screen = .eventShell
        refreshIndex(guestId: guest.id)
        persist()
        guard replayAfter else { return }
        await replay(force: false)
        persist()
    }

    /// Clears result cards and banners (front-ends call this when they auto-dismiss them).
    public func dismissTransient() {
        clearTransient()
        persist()
    }

    /// The events on the picker, as last fetched.
    public var events: [EventInfo] { (try? store?.events()) ?? [] }

    /// The signed-in user's server, if any.
    public var serverURL: String? { session?.serverURL }

    /// Leaves the confirmation screen without writing anything.
    public func cancel() {
        clearTransient()
        state.confirmation = nil
        state.screen = session == nil ? .signIn : (state.eventId == nil ? .eventPicker : .eventShell)
        persist()
    }

    /// Switches between camera and manual entry.
    public func toggleManualEntry() {
        state.manualEntry.toggle()
        state.query = nil
        persist()
    }

    /// Replays the outbox now (ignoring backoff) and pulls the roster delta.
    public func sync() async {
        await replay(force: true)
        if state.eventId != nil { await syncRoster() }
        invalidateIndex()
        persist()
    }

    /// The autocomplete index of the current event (built lazily: launches that never search
    /// never unseal the whole roster).
    public var index: RosterIndex? {
        guard let store, let eventId = state.eventId else { return nil }
        if indexIsStale || builtIndex == nil {
            builtIndex = try? RosterIndex(guests: store.guests(eventId: eventId))
            indexIsStale = false
        }
        return builtIndex
    }

    func invalidateIndex() { indexIsStale = true }

    /// Keeps one guest current in a built index without rebuilding it.
    private func refreshIndex(guestId: String) {
        guard !indexIsStale, let store, let eventId = state.eventId,
            let guest = try? store.guest(eventId: eventId, id: guestId)
        else { return }
        builtIndex?.update(guest)
    }

    /// Sends the signed-in user's outbox entries oldest first, one at a time (``OutboxMachine``
    /// decides, ``OutboxReplayer`` does the I/O). `force` ignores backoff (the user asked).
    func replay(force: Bool) async {
        guard let replayer else { return }
        let clock = ports.clock
        let outcome = await replayer.replay(
            force: force, session: sessionKeeper, client: client, online: ports.online, now: { clock.now() },
            seed: UInt64(ports.random(0...1) * Double(UInt64(1) << 53)))
        if outcome.sessionEnded { handle(APIClientError.sessionEnded(code: nil)) }
    }

    /// Staff have seen the refused check-ins: they leave the list.
    public func dismissRejected() {
        guard let store else { return }
        for entry in (try? store.outbox(state: .rejected, owner: nil)) ?? [] {
            try? store.forgetRejected(OutboxMachine.EntryID(entry.id))
        }
        persist()
    }

    /// Only a definite refusal of the refresh token ends the session; pending data stays.
    private func handle(_ error: any Error) {
        if case APIClientError.sessionEnded = error {
            sessionKeeper.end()
            state.screen = .signIn
            state.signInError = "Your sign-in has ended; sign in again. Check-ins on this device are kept."
        }
    }

    private func clearTransient() {
        state.banner = nil
        state.result = nil
        state.info = nil
        state.signOutMessage = nil
        state.showUpdateBanner = false
    }

    // MARK: - Sign-out

    public enum SignOutChoice: String, Sendable {
        case wait
        case discard
        case keep
    }

    /// Sign-out. With pending check-ins of this user and no choice it shows the warning
    /// (default: wait); `keep` keeps them for the same user's next sign-in; `discard` drops them.
    /// Other users' kept entries are never touched.
    public func signOut(_ choice: SignOutChoice? = nil) async {
        guard let store, let current = session else { return }
        var discard = false
        switch (pendingCount, choice) {
        case (0, _):
            break
        case (_, nil):
            state.screen = .signOutWarning
            persist()
            return
        case (_, .wait?):
            await replay(force: true)
            if pendingCount > 0 {
                state.screen = .signOutWarning
                state.signOutMessage = "Still waiting: the check-ins could not be sent yet."
                persist()
                return
            }
        case (_, .keep?):
            discard = false
        case (_, .discard?):
            discard = true
        }
        await endSession(revoking: current, discardingOutbox: discard)
        try? store.vacuum()
        persist()
    }

    /// Ends `current` on this device: revokes it on the server (best effort), forgets the
    /// roster, events and tokens; its outbox entries stay for its next sign-in unless discarded.
    private func endSession(revoking current: SessionState, discardingOutbox: Bool) async {
        guard let store else { return }
        if let url = URL(string: current.serverURL) {
            await APIClient(transport: transport(for: url)).signOut(refreshToken: current.refreshToken)
        }
        let user = UserID(wire: current.user.id)
        try? store.clearForSignOut(discarding: discardingOutbox ? user : nil)
        sessionKeeper.end()
        invalidateIndex()
        state = AppState()
    }

    // MARK: - Lifecycle

    /// The app goes to the background.
    public func background() {
        state.backgroundedAt = ports.clock.now()
        persist()
    }

    /// The app comes back: the resume skeleton shows until local state is loaded (no network),
    /// then the delta and replay run without blocking the screen.
    @discardableResult
    public func foreground() -> Task<Void, Never> {
        resuming = true
        onProgress?(tree())
        state.backgroundedAt = nil
        resuming = false
        persist()
        return Task { @MainActor in await self.sync() }
    }

    var currentEvent: EventInfo? {
        guard let eventId = state.eventId else { return nil }
        return (try? store?.events())?.first { $0.id == eventId }
    }
}
