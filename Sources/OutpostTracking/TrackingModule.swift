import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Time tracking (seed 003, Module 1): work locations as fences, the geofence engine deciding
/// clock-in and clock-out from the platform's events, and the sessions it makes, kept in a
/// store that enforces the seed's invariant. Platform events arrive through ``feed(_:at:)``;
/// on every appearance (a launch, the foreground) due exit verifications run with an active GPS
/// fetch, then the foreground rule confirms expired pending exits.
@MainActor
package final class TrackingModule: DeviceModule {
    package static let name = "track"
    package static let migrations = ModuleStore<TrackingModule>.trackingMigrations

    /// What the module may use of the shell.
    package let context: ModuleContext
    package let store: ModuleStore<TrackingModule>
    package var state = TrackingState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<TrackingState>()

    var locations: [WorkLocation] = []
    var open: [TrackedSession] = []
    var history: [TrackedSession] = []
    var confirmed: [String: ConfirmedDay] = [:]
    var week: WeekScreen?
    var monthScreen: MonthScreen?
    var dashboard: StatusDashboard?
    var now = Date()

    package init(context: ModuleContext, store: ModuleStore<TrackingModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] {
        [
            DaySubmissionOutbox(store: store) { [weak self] day, code, refusal in
                guard let self else { return }
                if let refusal {
                    state.error = .dayNotSubmitted(day, copy.serverRefusal(code: code, message: refusal))
                } else {
                    state.notice = .daySubmitted(day)
                }
            }
        ]
    }
    package func isHome(for user: UserInfo) -> Bool { user.role == .worker }

    /// Whose hours these are: the signed-in user, or (while the app is locked) the user the
    /// lock screen belongs to; the region monitor keeps reporting while the app is locked.
    package var worker: UserID? { context.deviceUser }

    /// Whose records the screens and the worker's own actions read and write: the worker's, or
    /// while the demo month is shown, their sandbox (never queued, never exported). The
    /// platform's events (the region monitor, its verification checks) are the worker's real
    /// hours and always go to ``worker``; so do the CSV and the privacy export.
    package var owner: UserID? { state.demo ? worker.map(SandboxOwner.of) : worker }
    package func pull(event: EventInfo) async throws {}

    package var policy: HysteresisPolicy { HysteresisPolicy.named(state.profile) ?? .seed }

    // MARK: - Events

    /// Feeds one platform event (or the user's manual clock) through the engine and stores what
    /// it decided, with the engine's state, in one transaction.
    @discardableResult
    package func feed(_ event: GeofenceEvent, at time: Date, for person: UserID?) -> GeofenceOutcome? {
        do {
            guard let owner = person else { return nil }
            var engine = try store.trackingEngine(policy: policy, owner: owner)
            engine.policy = policy
            let outcome = engine.handle(event, at: time)
            try store.applyTracking(outcome, engine: engine, owner: owner)
            return outcome
        } catch {
            refuse(.refused(.failed("could not record that: \(error)")))
            return nil
        }
    }

    /// The app appeared (launch or foreground): due verification checks run first, each with an
    /// active GPS fetch, then the foreground rule.
    package func appeared(now: Date) {
        runDueChecks(now: now)
        feed(.foreground, at: now, for: worker)
    }

    /// Time passed in the background: the checks that fell due ran then, then a timer tick.
    package func backgroundTimePassed(now: Date) {
        runDueChecks(now: now)
        feed(.timer, at: now, for: worker)
    }

    func runDueChecks(now: Date) {
        guard let owner = worker else { return }
        while let (location, due) = context.surfacing(
            "read the due exit checks", { try store.takeDueVerification(now: now, owner: owner) }) ?? nil
        {
            guard let fence = locations(id: location, of: owner)?.fence else { continue }
            feed(.verification(location, fence, fix: context.ports.gps()), at: due, for: owner)
        }
    }

    func locations(id: LocationID, of person: UserID?) -> WorkLocation? {
        person.flatMap { person in
            (context.surfacing("read the work locations") { try store.locations(owner: person) } ?? []).first {
                $0.id == id
            }
        }
    }

    // MARK: - Lifecycle

    package func eventChanged() {}

    package func clearTransient() {
        state.notice = nil
        state.error = nil
        context.clearRefusal()
    }

    /// The next person on this phone sees none of this one's words or filters.
    package func sessionEnded() {
        let profile = state.profile
        state = TrackingState()
        state.profile = profile
    }

    /// The first worker to sign in takes the hours imported from the previous app (the
    /// phone's one user before); the previous app's file is deleted once they are theirs.
    package func signedIn(_ user: UserInfo) {
        if user.role == .worker {
            _ = context.surfacing("record when this worker's hours start") {
                try store.accountSince(
                    owner: user.id, today: ActivityDate.day(of: context.ports.clock.now(), in: context.ports.timeZone))
            }
        }
        guard user.role == .worker,
            let report = context.surfacing(
                "take the previous app's hours", { try store.adoptLegacyTracking(owner: user.id) })
                ?? nil
        else { return }
        let file = context.home.appendingPathComponent(LegacyTrackingStore.fileName)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            // The hours are in the store now; a file left behind (or never there) is read as empty.
            try? FileManager.default.removeItem(atPath: file.path + suffix)
        }
        state.notice = .imported(
            sessions: report.sessions, repaired: report.repaired.count, unreadable: report.unreadable.count)
    }

    package func exportRecords(of user: UserID) throws -> Data? {
        // Every time one way, as the server's half of the export writes it: RFC 3339 in UTC with
        // milliseconds (this half wrote epoch milliseconds).
        try OutpostJSON.makeEncoder().encode(try store.trackingRecords(owner: user))
    }

    package func erase(user: UserID) throws {
        try store.eraseTracking(owner: user)
        try store.eraseTracking(owner: SandboxOwner.of(user))
        state = TrackingState()
    }

    package func saveState() throws -> Data { try encodedState.data(for: state) }

    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(TrackingState.self, from: data)
    }

    func fail(_ error: TrackingError) {
        refuse(.refused(error))
    }

    /// The action was refused: the screen says why, and so does the shell (``DeviceApp/refusal``).
    package func refuse(_ message: TrackingMessage) {
        state.error = message
        context.refuse(copy.message(message))
    }
}
