import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Where the time-tracking module is (sealed, kept across launches).
package struct TrackingState: Codable, Sendable, Hashable {
    package enum Screen: String, Codable, Sendable {
        case status
        case locations
        case history
        case week
        case month
    }

    package var screen: Screen = .status
    /// The history's filters.
    package var historyRange: TrackingRange = .all
    package var historyLocation: LocationID?
    package var notice: TrackingMessage?
    package var error: TrackingMessage?
    /// The geofence rules in use (``HysteresisPolicy`` name).
    package var profile = HysteresisPolicy.seed.name
    /// When the worker last dismissed the permission warning (it comes back after a week).
    package var permissionWarningDismissedAt: Date?
    /// A day of the week shown (nil: this week).
    package var weekOf: String?
    /// The screens show the demo month (the user's ``SandboxOwner``), not their own hours.
    package var demo = false
    /// The calendar's GPS toggle: tracked time shown.
    package var showTracked = true
    /// The month shown, `YYYY-MM` (nil: this month).
    package var month: String?
    /// The calendar's inline picker and what it has armed.
    package var picker = CalendarPicker()
    /// The day whose Submit waits for the first-time explanation to be read.
    package var explainSubmitFor: String?
    /// The day the manual session form is open for (the picker's "Log hours").
    package var manualFormDay: String?

    package init() {}

    /// Lenient: a field an older version wrote differently (or not at all) takes its default.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        screen = container.lenient(Screen.self, .screen) ?? .status
        historyRange = container.lenient(TrackingRange.self, .historyRange) ?? .all
        historyLocation = container.lenient(LocationID.self, .historyLocation)
        notice = container.lenient(TrackingMessage.self, .notice)
        error = container.lenient(TrackingMessage.self, .error)
        profile = container.lenient(String.self, .profile) ?? HysteresisPolicy.seed.name
        permissionWarningDismissedAt = container.lenient(Date.self, .permissionWarningDismissedAt)
        weekOf = container.lenient(String.self, .weekOf)
        showTracked = container.lenient(Bool.self, .showTracked) ?? true
        month = container.lenient(String.self, .month)
        picker = container.lenient(CalendarPicker.self, .picker) ?? CalendarPicker()
        explainSubmitFor = container.lenient(String.self, .explainSubmitFor)
        manualFormDay = container.lenient(String.self, .manualFormDay)
        demo = container.lenient(Bool.self, .demo) ?? false
    }
}

extension KeyedDecodingContainer {
    /// The field `key` as `T`, nil when absent or written differently by an older version (a
    /// screen's state, never a record: its field starts again at its default).
    fileprivate func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        // A screen field an older app wrote differently starts again at its default.
        try? decodeIfPresent(type, forKey: key)
    }
}

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

    private var locations: [WorkLocation] = []
    private var open: [TrackedSession] = []
    private var history: [TrackedSession] = []
    private var confirmed: [String: ConfirmedDay] = [:]
    private var week: WeekScreen?
    private var monthScreen: MonthScreen?
    private var dashboard: StatusDashboard?
    private var now = Date()

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

    private func runDueChecks(now: Date) {
        guard let owner = worker else { return }
        while let (location, due) = context.surfacing(
            "read the due exit checks", { try store.takeDueVerification(now: now, owner: owner) }) ?? nil
        {
            guard let fence = locations(id: location, of: owner)?.fence else { continue }
            feed(.verification(location, fence, fix: context.ports.gps()), at: due, for: owner)
        }
    }

    private func locations(id: LocationID, of person: UserID?) -> WorkLocation? {
        person.flatMap { person in
            (context.surfacing("read the work locations") { try store.locations(owner: person) } ?? []).first {
                $0.id == id
            }
        }
    }

    // MARK: - Screens

    package func reload() {
        now = context.ports.clock.now()
        guard let owner else {
            locations = []
            open = []
            history = []
            confirmed = [:]
            week = nil
            monthScreen = nil
            dashboard = nil
            return
        }
        locations = context.surfacing("read the work locations") { try store.locations(owner: owner) } ?? []
        confirmed = context.surfacing("read the confirmed days") { try store.confirmedDays(owner: owner) } ?? [:]
        open = context.surfacing("read the running sessions") { try store.openSessions(owner: owner) } ?? []
        week = state.screen == .week ? context.surfacing("read the week") { try weekScreen(owner: owner) } : nil
        dashboard =
            state.screen == .status
            ? context.surfacing("read today's hours") { try statusDashboard(owner: owner) } : nil
        monthScreen =
            state.screen == .month ? context.surfacing("read the month") { try self.monthScreen(owner: owner) } : nil
        let range = state.historyRange.interval(containing: now, in: context.ports.timeZone)
        history =
            state.screen == .history
            ? (context.surfacing("read the sessions") { try store.sessions(owner: owner, in: range) } ?? [])
                .filter { state.historyLocation == nil || $0.location == state.historyLocation }
            : []
    }

    package var homeScreen: (any ScreenModel)? {
        guard let screen = screenContent else { return nil }
        guard state.demo else { return screen }
        return BannerScreen(banners: [UIElement(UIIdentifier.trackDemoBanner, copy.demoBanner)], screen: screen)
    }

    private var screenContent: (any ScreenModel)? {
        if let day = state.explainSubmitFor {
            let screen = SubmitExplanationScreen(day: day, copy: copy)
            return screen
        }
        switch state.screen {
        case .status:
            let cards = locations.map { location in
                let session = open.first { $0.location == location.id }
                return TrackingStatusScreen.Card(
                    location: location, session: session,
                    elapsedMinutes: session.map { max(0, Int(now.timeIntervalSince($0.clockIn) / 60)) } ?? 0)
            }
            let screen = TrackingStatusScreen(
                cards: cards, notice: state.notice, error: state.error, profile: policy.name,
                permissionWarning: permissionWarning, dashboard: dashboard, copy: copy)
            return screen
        case .locations:
            let screen = TrackingLocationsScreen(
                locations: locations, notice: state.notice, error: state.error, copy: copy)
            return screen
        case .week:
            return week
        case .month:
            return monthScreen
        case .history:
            let zone = context.ports.timeZone.identifier
            let names = Dictionary(locations.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let grouped = Dictionary(grouping: history) { TimeFormatting.day($0.clockIn, zone) }
            let days = grouped.keys.sorted(by: >).map { day in
                let sessions = grouped[day]!.sorted { $0.clockIn < $1.clockIn }
                return TrackingHistoryScreen.Day(
                    date: day, sessions: sessions.map { ($0, names[$0.location] ?? copy.removedLocation) },
                    minutes: sessions.compactMap(\.minutes).reduce(0, +), confirmation: confirmed[day],
                    canSubmit: confirmed[day]?.locked != true
                        && (WorkDay.interval(of: day, in: context.ports.timeZone)?.upperBound ?? now) <= now
                        && sessions.allSatisfy { $0.clockOut != nil })
            }
            let screen = TrackingHistoryScreen(
                days: days, timeZone: zone, notice: state.notice, error: state.error, copy: copy)
            return screen
        }
    }

    package var copy: TrackingCopy { TrackingCopy(context.ports.language) }

    /// The permission, when it keeps automatic tracking from working and the warning was not
    /// dismissed in the last week (the seed's banner).
    package var permissionWarning: LocationPermission? {
        let permission = context.ports.locationPermission()
        guard permission != .always else { return nil }
        if let dismissed = state.permissionWarningDismissedAt, now.timeIntervalSince(dismissed) < 7 * 86_400 {
            return nil
        }
        return permission
    }

    package var tabs: [UIElement] { [] }
    package func takeover(now: Date) -> (any ScreenModel)? { nil }
    package var frontScreen: (any ScreenModel)? { nil }
    package var eventShellParts: [any ScreenPart] { [] }
    package var statusElements: [UIElement] { [] }

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

    package func saveState() throws -> Data { try JSONEncoder.outpostDevice.encode(state) }

    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(TrackingState.self, from: data)
    }

    // MARK: - Actions

    package func show(_ screen: TrackingState.Screen) {
        clearTransient()
        leaveOverlays()
        state.screen = screen
    }

    /// Another screen: the picker, the manual form and a pending explanation close (what the
    /// picker has armed stays armed).
    package func leaveOverlays() {
        state.picker.close()
        state.manualFormDay = nil
        state.explainSubmitFor = nil
    }

    package func filterHistory(range: TrackingRange, location: LocationID?) {
        clearTransient()
        state.screen = .history
        state.historyRange = range
        state.historyLocation = location
    }

    /// The sessions of a location (all when nil) in `range` as CSV (RFC 4180, formula-safe):
    /// Date, Day, Clock In, Clock Out, Duration, Method, Status, in `timeZone`.
    /// Throws when the hours cannot be read: an export never stands in for them with an empty file.
    package func csv(location: LocationID?, range: TrackingRange, timeZone: TimeZone) throws -> String {
        // The worker's own hours, also while the demo month is shown.
        guard let owner = worker else { return CSVWriter.document(header: TrackingExport.header, rows: []) }
        let now = context.ports.clock.now()
        let sessions = try store.sessions(owner: owner, in: range.interval(containing: now, in: timeZone))
            .filter { location == nil || $0.location == location }
        let names = Dictionary(
            try store.locations(owner: owner).map { ($0.id, $0.name) },
            uniquingKeysWith: { first, _ in first })
        return TrackingExport.csv(sessions, timeZone: timeZone, names: names, copy: copy)
    }

    package func addLocation(name: String, center: GeoPoint, radius: Double) {
        clearTransient()
        state.screen = .locations
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return fail(.nameMissing) }
        guard WorkLocation.radiusRange.contains(radius) else {
            return fail(.radiusOutOfRange)
        }
        guard (-90...90).contains(center.latitude), (-180...180).contains(center.longitude) else {
            return fail(.notOnEarth)
        }
        do {
            guard let owner else { return fail(.signedOut) }
            try store.saveLocation(
                WorkLocation(id: .random(), name: trimmed, fence: Fence(center: center, radius: radius)), owner: owner)
            state.notice = .locationAdded(trimmed)
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not save the location: \(error)"))
        }
    }

    package func editLocation(_ id: LocationID, name: String?, center: GeoPoint?, radius: Double?) {
        clearTransient()
        state.screen = .locations
        guard var location = locations(id: id, of: owner) else { return fail(.noSuchLocation) }
        // Not while clocked in there: the running session's fence would change under it.
        guard
            let running = owner.flatMap({ owner in
                context.surfacing("read the running sessions") { try store.openSessions(owner: owner) }
            })
        else { return fail(.failed("could not read the running sessions; nothing was changed")) }
        guard !running.contains(where: { $0.location == id }) else { return fail(.openSession(location.name)) }
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return fail(.nameMissing) }
            location.name = trimmed
        }
        if let center { location.fence.center = center }
        if let radius {
            guard WorkLocation.radiusRange.contains(radius) else {
                return fail(.radiusOutOfRange)
            }
            location.fence.radius = radius
        }
        do {
            guard let owner else { return fail(.signedOut) }
            try store.saveLocation(location, owner: owner)
            state.notice = .locationSaved(location.name)
        } catch {
            fail(.failed("could not save the location: \(error)"))
        }
    }

    package func removeLocation(_ id: LocationID) {
        clearTransient()
        state.screen = .locations
        guard let location = locations(id: id, of: owner) else { return fail(.noSuchLocation) }
        do {
            guard let owner else { return fail(.signedOut) }
            try store.removeLocation(id, name: location.name, owner: owner)
            state.notice = .locationRemoved(location.name)
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not remove the location: \(error)"))
        }
    }

    /// A platform boundary event from the simulator (or a phone's region monitor).
    package func boundary(_ kind: GeofenceRecord.Kind, _ id: LocationID, fix: GeoFix?) {
        clearTransient()
        // The region monitor watches the worker's own locations: their real hours.
        guard let location = locations(id: id, of: worker) else { return fail(.noSuchLocation) }
        let time = context.ports.clock.now()
        switch kind {
        case .enter: feed(.enter(id, location.fence, fix: fix), at: time, for: worker)
        case .exit: feed(.exit(id, location.fence, fix: fix), at: time, for: worker)
        default: break
        }
    }

    package func clock(in clockIn: Bool, at id: LocationID) {
        clearTransient()
        state.screen = .status
        guard locations(id: id, of: owner) != nil else { return fail(.noSuchLocation) }
        let outcome = feed(
            clockIn ? .manualClockIn(id) : .manualClockOut(id), at: context.ports.clock.now(), for: owner)
        if let ignored = outcome?.record?.ignored {
            refuse(ignored == .alreadyClockedIn ? .alreadyClockedIn : .notClockedIn)
        }
    }

    package func addManualSession(at id: LocationID, from start: Date, to end: Date) {
        clearTransient()
        state.screen = .history
        guard locations(id: id, of: owner) != nil else { return fail(.noSuchLocation) }
        do {
            guard let owner else { return fail(.signedOut) }
            try store.addManualSession(
                location: id, from: start, to: end, now: context.ports.clock.now(), owner: owner,
                days: Self.touchedDays(in: context.ports.timeZone)(start, end))
            state.notice = .sessionAdded
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not add the session: \(error)"))
        }
    }

    /// The days (`YYYY-MM-DD`, in `zone`) a span from `start` to `end` touches: the ones that
    /// must not be confirmed for it to be added or changed. Pure, so the store may call it
    /// inside its write.
    package nonisolated static func touchedDays(in zone: TimeZone) -> @Sendable (Date, Date) -> [String] {
        { start, end in WorkHours.split(TrackedSpan(start: start, end: end), in: zone).map(\.day) }
    }

    /// Corrects a session's start or end (nil keeps it; seed 003's drag handles). An open
    /// session given an end is clocked out first (the forgotten clock-out: the phone died at
    /// work), so the geofence engine knows the worker left; then its end is corrected.
    package func correctSession(_ id: UUID, start: Date?, end: Date?) {
        clearTransient()
        state.screen = .history
        do {
            guard let owner else { return fail(.signedOut) }
            guard let session = try store.session(id, owner: owner) else { return fail(.noSuchSession) }
            let now = context.ports.clock.now()
            if session.clockOut == nil {
                let name = locations(id: session.location, of: owner)?.name ?? copy.removedLocation
                guard let end else { return fail(.openSession(name)) }
                guard end > (start ?? session.clockIn) else { return fail(.endBeforeStart) }
                guard end <= now else { return fail(.endInFuture) }
                _ = feed(.manualClockOut(session.location), at: now, for: owner)
            }
            let changed = try store.correctSession(
                id, start: start, end: end, now: now, by: owner, owner: owner,
                days: Self.touchedDays(in: context.ports.timeZone))
            state.notice = changed ? .sessionCorrected : .nothingChanged
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not correct the session: \(error)"))
        }
    }

    /// Deletes a finished session on a day not confirmed (kept as a correction: the export and
    /// the day's submission still show it).
    package func deleteSession(_ id: UUID) {
        clearTransient()
        state.screen = .history
        do {
            guard let owner else { return fail(.signedOut) }
            guard let session = try store.session(id, owner: owner) else { return fail(.noSuchSession) }
            guard session.clockOut != nil else {
                return fail(.openSession(locations(id: session.location, of: owner)?.name ?? copy.removedLocation))
            }
            try store.deleteSession(
                id, now: context.ports.clock.now(), by: owner, owner: owner,
                days: Self.touchedDays(in: context.ports.timeZone))
            state.notice = .sessionDeleted
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not delete the session: \(error)"))
        }
    }

    /// Gives a finished session a break (shared out over its days in proportion).
    package func setBreak(_ id: UUID, minutes: Int) {
        clearTransient()
        state.screen = .history
        do {
            guard let owner else { return fail(.signedOut) }
            let zone = context.ports.timeZone
            try store.setBreak(
                id, minutes: minutes,
                days: { session in
                    WorkHours.split(session.span(now: session.clockIn), in: zone).map(\.day)
                }, owner: owner)
            state.notice = .breakSaved(minutes)
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not save the break: \(error)"))
        }
    }

    /// Confirms a day: it is locked and its submission waits in the outbox (sent at once when
    /// online). A confirmed day cannot be changed.
    @discardableResult
    package func confirmDay(_ day: String) -> Bool {
        clearTransient()
        state.screen = .history
        do {
            guard let owner else {
                fail(.signedOut)
                return false
            }
            let names = Dictionary(
                try store.locations(owner: owner).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            try store.confirmDay(
                day, timeZone: context.ports.timeZone, names: names, owner: owner, now: context.ports.clock.now())
            state.notice = .dayConfirmed(day)
            return true
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not confirm \(day): \(error)"))
        }
        return false
    }

    // MARK: - Calendar

    /// The week containing `state.weekOf` (or today): its days' hours from ``WorkHours``, the
    /// plan's shifts and absences, and which days can be submitted.
    private func weekScreen(owner: UserID) throws -> WeekScreen {
        let zone = context.ports.timeZone
        let today = ActivityDate.day(of: now, in: zone)
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let anchor = state.weekOf.flatMap { WorkDay.start(of: $0, in: zone) } ?? now
        let interval = calendar.dateInterval(of: .weekOfYear, for: anchor) ?? DateInterval(start: anchor, duration: 0)
        let first = ActivityDate.day(of: interval.start, in: zone)
        let last = ActivityDate.day(of: interval.end.addingTimeInterval(-1), in: zone)
        let plan = try store.plan(owner: owner)
        let (days, sessions) = try hours(owner: owner, from: first, to: last, plan: plan)
        let openDays = Set(sessions.filter { $0.clockOut == nil }.map { ActivityDate.day(of: $0.clockIn, in: zone) })
        let week = calendar.component(.weekOfYear, from: interval.start)
        return WeekScreen(
            title: copy.weekTitle(week, first, last), templates: plan.templates,
            absenceTemplates: plan.absenceTemplates,
            days: days.enumerated().map { index, hours in
                WeekScreen.Day(
                    hours: hours, weekday: copy.weekday(index), shifts: plan.shifts(on: hours.day),
                    absences: plan.absences(on: hours.day),
                    canSubmit: !hours.confirmed && hours.day < today && hours.grossSeconds > 0
                        && !openDays.contains(hours.day) && confirmed[hours.day]?.locked != true,
                    isToday: hours.day == today, isPast: hours.day < today)
            }, showTracked: state.showTracked, notice: state.notice, error: state.error, copy: copy,
            picker: state.picker.elements(view: .week, plan: plan, manualFormDay: state.manualFormDay, copy: copy))
    }

    /// The month `state.month` (or this one) as 42 cells from the Monday before its 1st, with
    /// the summary of its own days.
    private func monthScreen(owner: UserID) throws -> MonthScreen {
        let zone = context.ports.timeZone
        let today = ActivityDate.day(of: now, in: zone)
        let month = state.month ?? String(today.prefix(7))
        guard let firstOfMonth = WorkDay.start(of: month + "-01", in: zone) else { throw TrackingError.badDay }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let gridStart = calendar.dateInterval(of: .weekOfYear, for: firstOfMonth)?.start ?? firstOfMonth
        let first = ActivityDate.day(of: gridStart, in: zone)
        var last = first
        for _ in 0..<41 { last = WorkHours.next(last, in: zone) ?? last }
        let plan = try store.plan(owner: owner)
        let days = try hours(owner: owner, from: first, to: last, plan: plan).days
        let cells = days.map { hours in
            MonthScreen.Cell(
                hours: hours, inMonth: hours.day.hasPrefix(month), isToday: hours.day == today,
                isPast: hours.day < today,
                shiftColors: plan.shifts(on: hours.day).map(\.color), absences: plan.absences(on: hours.day).map(\.kind)
            )
        }
        return MonthScreen(
            title: copy.monthTitle(month), cells: cells,
            summary: WorkHours.month(cells.filter(\.inMonth).map(\.hours)), notice: state.notice,
            error: state.error, copy: copy,
            picker: state.picker.elements(view: .month, plan: plan, manualFormDay: state.manualFormDay, copy: copy))
    }

    /// The hours of the days `first` to `last` from ``WorkHours``: the sessions that touch
    /// them (one may begin up to two days before and run into them), `plan`'s shifts and
    /// absences, and the confirmed days. One place for the week, the month and the dashboard.
    private func hours(
        owner: UserID, from first: String, to last: String, plan: ShiftPlan
    ) throws
        -> (days: [DayHours], sessions: [TrackedSession])
    {
        let zone = context.ports.timeZone
        let start = WorkDay.start(of: first, in: zone) ?? now
        let end = WorkDay.interval(of: last, in: zone)?.upperBound ?? now
        let sessions = try store.sessions(owner: owner, in: start.addingTimeInterval(-2 * 86_400)..<end)
        let days = WorkHours.days(
            from: first, to: last, sessions: sessions.map { $0.span(now: now) }, planned: plan.shifts.map(\.planned),
            absences: plan.absences.map(\.mark),
            confirmed: Set(confirmed.values.filter(\.countsAsConfirmed).map(\.day)),
            in: zone)
        return (days, sessions)
    }

    /// The last 14 days, today included, and the next shift.
    private func statusDashboard(owner: UserID) throws -> StatusDashboard {
        let zone = context.ports.timeZone
        let today = ActivityDate.day(of: now, in: zone)
        var first = today
        for _ in 0..<13 {
            guard let start = WorkDay.start(of: first, in: zone) else { break }
            first = ActivityDate.day(of: start.addingTimeInterval(-43_200), in: zone)
        }
        let plan = try store.plan(owner: owner)
        let days = try hours(owner: owner, from: first, to: today, plan: plan).days
        return StatusDashboard.make(
            days: days, today: today, accountSince: try store.accountSince(owner: owner, today: today),
            shifts: plan.shifts, now: now, zone: zone, copy: copy)
    }

    /// Shows `month` (`YYYY-MM`; nil: the one shown, or this one), `offset` months on.
    package func showMonth(_ month: String?, offset: Int) {
        clearTransient()
        leaveOverlays()
        state.screen = .month
        let base =
            month ?? state.month
            ?? String(ActivityDate.day(of: context.ports.clock.now(), in: context.ports.timeZone).prefix(7))
        let parts = base.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2 else { return }
        let index = parts[0] * 12 + (parts[1] - 1) + offset
        state.month = String(format: "%04d-%02d", index / 12, index % 12 + 1)
    }

    /// Shows the week `offset` weeks from the one shown (0: this week when `day` is nil).
    package func showWeek(of day: String?, offset: Int) {
        clearTransient()
        leaveOverlays()
        state.screen = .week
        let zone = context.ports.timeZone
        let base = day ?? state.weekOf ?? ActivityDate.day(of: context.ports.clock.now(), in: zone)
        guard offset != 0, let start = WorkDay.start(of: base, in: zone) else {
            state.weekOf = day ?? state.weekOf
            return
        }
        state.weekOf = ActivityDate.day(of: start.addingTimeInterval(Double(offset) * 7 * 86_400 + 43_200), in: zone)
    }

    package func toggleTracked() {
        clearTransient()
        state.showTracked.toggle()
    }

    /// Changes the plan; a refusal is said in the worker's words and stores nothing.
    @discardableResult
    package func changePlan<T>(_ change: (inout ShiftPlan, _ today: String, _ locked: Set<String>) throws -> T) -> T? {
        clearTransient()
        guard let owner else {
            fail(.signedOut)
            return nil
        }
        let today = ActivityDate.day(of: context.ports.clock.now(), in: context.ports.timeZone)
        do {
            let result = try store.changePlan(owner: owner) { plan, locked in try change(&plan, today, locked) }
            state.notice = .planSaved
            return result
        } catch let error as PlanError {
            refuse(.planRefused(error))
        } catch {
            fail(.failed("could not save the plan: \(error)"))
        }
        return nil
    }

    package var plan: ShiftPlan {
        owner.flatMap { owner in context.surfacing("read the shift plan") { try store.plan(owner: owner) } }
            ?? ShiftPlan()
    }

    package func setProfile(_ policy: HysteresisPolicy) {
        clearTransient()
        state.profile = policy.name
        state.notice = .profile(policy.name)
    }

    /// The worker dismissed the permission warning: it comes back in a week.
    package func dismissPermissionWarning() {
        clearTransient()
        state.permissionWarningDismissedAt = context.ports.clock.now()
    }

    private func fail(_ error: TrackingError) {
        refuse(.refused(error))
    }

    /// The action was refused: the screen says why, and so does the shell (``DeviceApp/refusal``).
    package func refuse(_ message: TrackingMessage) {
        state.error = message
        context.refuse(copy.message(message))
    }
}
