import Foundation
import OutpostCheckIn
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The walk-in module (seed 000's Walk-Ins tab): staff add a guest who is not on the roster, for
/// an access type that admits walk-ins, and check them in in the same step, offline like every
/// check-in (one outbox entry creates the guest and the check-in on the server). An access type
/// with a capacity admits offline only through places the server leased this device
/// (``WalkInLeasePolicy``): asked for while online, taken one per walk-in in the walk-in's own
/// transaction, sealed at expiry or when the door closes. Declares check-in (the roster).
@MainActor
package final class WalkInModule: DeviceModule {
    package static let name = "walkin"
    package static let migrations = ModuleStore<WalkInModule>.walkInMigrations

    package let context: ModuleContext
    package let store: ModuleStore<WalkInModule>
    package var state = WalkInState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<WalkInState>()
    /// Check-in's interface: the roster's access types and rows.
    private var desk: (any CheckInDesk)? { context.service((any CheckInDesk).self) }

    /// What the screens show, rebuilt by ``reload()``.
    private var choices: [WalkInChoice] = []
    private var leases: [LocalLease] = []
    private var shift: WalkInShift?
    /// The places, the access types walk-ins may use and the shift, as read until their tables
    /// change (``StoreRead``): a check-in at the door writes none of them.
    private var leasesRead = StoreRead<[LocalLease]>()
    private var typesRead = StoreRead<[AccessTypeInfo]>()
    private var shiftRead = StoreRead<WalkInShift?>()
    private var resultSyncing = false

    package init(context: ModuleContext, store: ModuleStore<WalkInModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] {
        [WalkInOutbox(store: store, desk: desk), WalkInSealOutbox(store: store)]
    }

    // MARK: - Feeds

    /// Seals what expired, then tops up the places of each access type with a capacity (the
    /// roster came first: the access types are current).
    package func pull(event: EventInfo) async throws {
        sealExpired()
        for type in desk?.accessTypes(eventId: event.id) ?? [] where type.walkInAllowed && type.walkInCapacity != nil {
            try await topUp(event: event.id, type: type.id)
        }
    }

    /// Asks the server for places of `type` when this device holds none or is down to a third
    /// (``WalkInLeasePolicy/wantsRefill(granted:left:)``). Only an ended session is an error: a
    /// full pool or no network leave the places as they are.
    func topUp(event: EventID, type: AccessTypeID) async throws {
        let now = context.ports.clock.now()
        let open = (context.surfacing("read the walk-in places") { try store.leases(eventId: event) } ?? [])
            .filter { $0.lease.accessTypeId == type && $0.usable(at: now) }
        let left = open.map(\.left).reduce(0, +)
        let granted = open.map(\.lease.granted).max() ?? 0
        guard open.isEmpty || WalkInLeasePolicy.wantsRefill(granted: granted, left: left),
            open.count < WalkInLeasePolicy.maxOpenPerDevice
        else { return }
        let response: TransportResponse
        do {
            response = try await context.authorized(
                TransportRequest(
                    API.leaseWalkIns.line(event), headers: ["Content-Type": "application/json"],
                    body: try OutpostJSON.encode(WalkInLeaseRequest(deviceId: context.deviceId, accessTypeId: type))))
        } catch APIClientError.sessionEnded(let code) {
            throw APIClientError.sessionEnded(code: code)
        } catch {
            return  // offline: the places held are what this door admits
        }
        // A full pool (409) or a page that is not a lease leaves the places as they are.
        guard response.status == 201, let lease = try? OutpostJSON.decode(WalkInLease.self, from: response.body)
        else { return }
        context.surfacing("keep the walk-in places") {
            try store.keep(lease, eventId: event, localNow: context.ports.clock.now())
        }
    }

    /// Leases whose time is up take no more places: sealed, their seals queued.
    func sealExpired() {
        guard let eventId = context.eventId, let owner = context.userId else { return }
        let now = context.ports.clock.now()
        context.surfacing("seal the walk-in places that expired") {
            try store.seal(eventId: eventId, owner: owner, now: now) { now >= $0.expiresLocally }
        }
    }

    // MARK: - Screens

    package func reload() {
        guard let eventId = context.eventId else {
            choices = []
            leases = []
            shift = nil
            return
        }
        let now = context.ports.clock.now()
        leases = context.read(&leasesRead, tables: ["walkin_leases"], scope: eventId) {
            context.surfacing("read the walk-in places") { try store.leases(eventId: eventId) } ?? []
        }
        let types = context.read(&typesRead, tables: ["access_types"], scope: eventId) {
            (desk?.accessTypes(eventId: eventId) ?? []).filter(\.walkInAllowed)
        }
        // Unreadable walk-ins are no summary (the fault banner says why), never "0 walk-ins".
        shift = context.read(&shiftRead, tables: ["walkins"], scope: eventId) {
            context.surfacing("read this device's walk-ins") { try shift(eventId: eventId) }
        }
        // Places left depend on the clock (a lease expires): counted at every reload.
        choices = types.map { type in
            WalkInChoice(
                accessType: type,
                placesLeft: type.walkInCapacity == nil
                    ? nil
                    : leases.filter { $0.lease.accessTypeId == type.id && $0.usable(at: now) }.map(\.left).reduce(0, +))
        }
        resultSyncing =
            state.result.map { result in
                context.surfacing("read the walk-in's entry") {
                    try store.isPending(idempotencyKey: result.idempotencyKey)
                }
                    ?? true
            } ?? false
    }

    package var tabs: [UIElement] {
        choices.isEmpty ? [] : [UIElement(UIIdentifier.tabWalkIn, "Walk-Ins")]
    }

    package func takeover(now: Date) -> (any ScreenModel)? { nil }

    package var frontScreen: (any ScreenModel)? {
        if let draft = state.form {
            return WalkInFormScreen(
                draft: draft, choices: choices, shift: shift, error: state.error, online: context.ports.online)
        }
        if state.summaryShown, let shift { return WalkInSummaryScreen(shift: shift) }
        return nil
    }

    package var eventShellParts: [any ScreenPart] {
        state.result.map { [WalkInResultCard(result: $0, syncing: resultSyncing)] } ?? []
    }

    package var statusElements: [UIElement] { [] }

    /// This device's walk-ins of `eventId` by method and currency; throws when they cannot be read.
    package func shift(eventId: EventID) throws -> WalkInShift {
        let mine = try store.walkIns(eventId: eventId).filter { $0.deviceId == context.deviceId }
        return WalkInShift.of(mine.map { ($0.deviceId, $0.payment) }).first
            ?? WalkInShift(deviceId: context.deviceId, walkIns: 0, totals: [])
    }

    /// The access types the form offers.
    package var choicesForForm: [WalkInChoice] { choices }

    /// This device's walk-ins of the open event by method: the end-of-shift summary.
    package var currentShift: WalkInShift? { shift }

    /// The places this device holds per access type of the open event (nil: no limit).
    package var placesLeft: [AccessTypeID: Int?] {
        Dictionary(choices.map { ($0.accessType.id, $0.placesLeft) }) { first, _ in first }
    }

    // MARK: - Lifecycle

    package func eventChanged() {
        state = WalkInState()
    }

    package func clearTransient() {
        state.result = nil
        state.error = nil
        context.clearRefusal()
    }

    package func sessionEnded() { state = WalkInState() }

    package func saveState() throws -> Data { try encodedState.data(for: state) }

    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(WalkInState.self, from: data)
    }

    package func appeared(now: Date) { sealExpired() }

    // MARK: - Actions

    /// Opens the Walk-Ins form (only where an access type admits walk-ins).
    package func open() {
        sealExpired()
        guard !choices.isEmpty else {
            return context.refuse("No access type of this event admits walk-ins.")
        }
        clearTransient()
        state.summaryShown = false
        state.form = state.form ?? WalkInDraft(accessTypeId: choices.first?.accessType.id)
    }

    package func update(_ change: (inout WalkInDraft) -> Void) {
        guard state.form != nil else { return }
        change(&state.form!)
        state.error = nil
    }

    package func cancel() {
        state.form = nil
        state.error = nil
    }

    package func showSummary(_ shown: Bool) {
        clearTransient()
        state.form = nil
        state.summaryShown = shown
    }

    /// What blocks the form's walk-in, in one sentence (nil: it can be added).
    func problem(_ draft: WalkInDraft, _ choice: WalkInChoice?) -> String? {
        if draft.name.trimmingCharacters(in: .whitespaces).isEmpty { return "Type the walk-in's name." }
        if draft.name.count > WalkInRequest.maxTextLength { return "The name is too long." }
        let email = draft.email.trimmingCharacters(in: .whitespaces)
        if !email.isEmpty, !(email.contains("@") && email.contains(".")) {
            return "'\(email)' is not an e-mail address."
        }
        guard choice != nil else { return "Choose an access type that admits walk-ins." }
        if !draft.amount.isEmpty {
            guard WalkInPayment.minor(parsing: draft.amount) != nil else {
                return "'\(draft.amount)' is not an amount (like 12.50)."
            }
            guard WalkInPayment(amountMinor: 0, currency: draft.currency, method: draft.method).isWellFormed else {
                return "'\(draft.currency)' is not a currency (like EUR)."
            }
        }
        return nil
    }

    /// Adds the form's walk-in and checks them in (the caller tops up the places first when
    /// online and replays after). Returns true when it was queued.
    package func add() -> Bool {
        guard let draft = state.form, let eventId = context.eventId else { return false }
        clearTransient()
        sealExpired()
        let choice = choices.first { $0.accessType.id == draft.accessTypeId } ?? choices.first
        if let problem = problem(draft, choice) {
            state.error = problem
            context.refuse(problem)
            return false
        }
        guard let choice, let session = context.session, let owner = context.userId else { return false }
        let now = context.ports.clock.now()
        let name = draft.name.trimmingCharacters(in: .whitespaces)
        let email = draft.email.trimmingCharacters(in: .whitespaces)
        let request = WalkInRequest(
            guestId: .random(), deviceId: context.deviceId, accessTypeId: choice.accessType.id, name: name,
            email: email.isEmpty ? nil : email,
            payment: WalkInPayment.minor(parsing: draft.amount).map {
                WalkInPayment(amountMinor: $0, currency: draft.currency, method: draft.method)
            },
            addedAt: Date(millisecondsSince1970: now.millisecondsSince1970), slot: nil)
        let guest = LocalGuest(
            id: request.guestId, eventId: eventId, accessTypeId: choice.accessType.id, name: name, email: email,
            code: "", notes: "", status: .confirmed,
            checkIn: LocalCheckIn(
                at: request.addedAt, byName: session.user.name, deviceId: context.deviceId, pending: true))
        let queued = context.surfacing("add the walk-in") {
            try store.admit(
                request, eventId: eventId, limited: choice.accessType.walkInCapacity != nil, owner: owner, now: now
            ) { db in try desk?.write(db, guest: guest) }
        }
        guard let queued else {
            state.error = "Could not save the walk-in. Nothing was added; try again."
            context.refuse(state.error!)
            return false
        }
        guard let added = queued else {
            state.error =
                context.ports.online
                ? "No walk-in places of \(choice.accessType.name) are left."
                : "No walk-in places of \(choice.accessType.name) are left on this device: connect to get more."
            context.refuse(state.error!)
            return false
        }
        state.form = nil
        // A walk-in is a check-in like any other for those who act on one (a badge printed).
        context.announceCheckIn(eventId: eventId, guestId: guest.id, ticket: nil, reconfirm: false)
        let left = choice.placesLeft.map { _ in
            (context.surfacing("read the walk-in places") { try store.leases(eventId: eventId) } ?? [])
                .filter { $0.lease.accessTypeId == choice.accessType.id && $0.usable(at: now) }.map(\.left)
                .reduce(0, +)
        }
        state.result = WalkInResult(
            guestName: name, accessTypeName: choice.accessType.name, placesLeft: left,
            idempotencyKey: added.idempotencyKey.description)
        return true
    }

    /// The door closes (end of shift): every open lease of the event is sealed, its unused places
    /// go back to the pool when the seal is sent.
    package func closeDoor() -> Int {
        guard let eventId = context.eventId, let owner = context.userId else { return 0 }
        let now = context.ports.clock.now()
        return context.surfacing("return the walk-in places") {
            try store.seal(eventId: eventId, owner: owner, now: now) { _ in true }
        } ?? 0
    }

    /// The access type the form would add to, when it has a capacity (the caller tops it up).
    package var formTypeWithCapacity: AccessTypeID? {
        guard let draft = state.form,
            let choice = choices.first(where: { $0.accessType.id == draft.accessTypeId }) ?? choices.first,
            choice.accessType.walkInCapacity != nil
        else { return nil }
        return choice.accessType.id
    }
}
