import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The check-in module (seed 001): the event's roster, scanning and manual entry, the
/// confirmation screen, and check-ins committed locally with their outbox entry in one
/// transaction. Its feed is the roster (pages after a stored cursor); its entry kind is
/// ``OutboxKind/checkIn``.
@MainActor
package final class CheckInModule: DeviceModule {
    package static let name = "checkin"
    /// The roster's tables (made by the shell's v1 and v3 on stores older than this target,
    /// adopted there), then the roster version the search-index snapshot is checked against.
    package static let migrations = ModuleStore<CheckInModule>.checkInMigrations
    /// The roster goes at sign-out, with the shell's session data.
    package static let sessionTables = [
        "roster_pages", "guests", "access_types", "event_keys", "sync_state", "ticket_blocks", "roster_index_parts",
        "guest_fields",
    ]

    /// What the module may use of the shell.
    package let context: ModuleContext
    package let store: ModuleStore<CheckInModule>
    package var state = CheckInState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<CheckInState>()
    /// Guests per roster page, and per transaction applying one: 10,000 (the server's maximum),
    /// because the blind indexes are random and each page's transaction rewrites index pages all
    /// over the file (100,000 guests applied in 3.6 s in pages of 2,000, 2.5 s in pages of
    /// 10,000). Tests use smaller pages to see several.
    package var rosterPageSize = CheckInModule.defaultRosterPageSize
    package static let defaultRosterPageSize = 10_000

    /// A read of the roster; when it fails, a storage fault on the banner and nil. A damaged
    /// page also forgets the roster's cursor in the store, so the next pull (in this launch or
    /// the next) fetches the whole roster again: every guest lands on a new page, and the
    /// damaged one, pointed to by no row, is deleted.
    func readRoster<T>(_ access: () throws -> T) -> T? {
        context.surfacing("read the roster") {
            do {
                return try access()
            } catch let damaged as RosterPageDamaged {
                try store.forgetCursor(eventId: damaged.eventId)
                throw damaged
            }
        }
    }

    /// What the screens show, rebuilt by ``reload()``; rendering reads only these.
    private var rosterCount = 0
    private var confirming: ConfirmationScreen?
    private var rejected = RejectedCheckInsBanner(entries: [])
    private var resultSyncing = false
    private var suggestions: [LocalGuest] = []
    private var rosterSyncedAt: Date?
    /// The access types (names on the confirmation screen), read with the rest above.
    private var accessTypes: [AccessTypeInfo] = []
    /// What the reload reads from the store only after a write to its tables (``StoreRead``).
    private var syncedRead = StoreRead<Date?>()
    private var accessTypesRead = StoreRead<[AccessTypeInfo]>()
    private var countRead = StoreRead<Int>()
    private var refusedRead = StoreRead<RejectedCheckInsBanner>()
    /// The last guest read (the confirmation screen shows the guest the scan read), and the
    /// event's ticket keys.
    private var guestRead = StoreRead<LocalGuest??>()
    private var keysRead = StoreRead<[TicketKeyID: Curve25519.Signing.PublicKey]>()

    /// The autocomplete index, opened on first search (from its snapshot, or built from the
    /// unsealed roster), and the roster version it was built from.
    private var builtIndex: (version: Int, index: RosterIndex)?
    /// The roster version of the snapshot last written or opened (the index is ahead of it after
    /// it followed a sync or a local write).
    private var snapshotVersion: Int?
    /// What this device's own writes changed on the roster, for the index to follow.
    let localChanges = LocalRosterChanges()
    /// The snapshot being written after a build (the bench and tests await it).
    private(set) var snapshotWrite: Task<Void, Never>?

    package init(context: ModuleContext, store: ModuleStore<CheckInModule>) {
        self.context = context
        // Modules exist only over an open store.
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] {
        var checkIns = CheckInOutbox(store: store) { [weak self] info in self?.state.info = info }
        checkIns.decoded = decodedRequests
        return [checkIns, DoorNamingOutbox(store: store)]
    }

    /// The outbox's requests decoded to be sent, until their answers are stored.
    let decodedRequests = DecodedCheckInRequests()

    // MARK: - Feeds

    /// Pulls roster pages after the stored cursor until there are no more; each page is applied
    /// in one transaction together with its cursor, so a kill loses at most the page in flight.
    package func pull(event: EventInfo) async throws {
        var done = 0
        defer {
            context.reportProgress(nil, feed: "roster")
            // The index followed pages or local writes: its snapshot is written once, merged,
            // for all of them (also when a later page failed: what was applied stays applied).
            if let builtIndex, builtIndex.version != snapshotVersion {
                writeSnapshot(builtIndex.index, eventId: event.id, version: builtIndex.version)
            }
        }
        openIndexToFollow(eventId: event.id)
        while true {
            let line = API.roster.line(
                event.id, query: [("limit", String(rosterPageSize)), ("since", try store.cursor(eventId: event.id))])
            let response = try await context.authorized(
                TransportRequest(line, headers: ["Accept": RosterWire.deviceAccept]))
            let page = try APIClient.decodeRosterPage(response)
            catchUp()
            follow(try store.applyRosterPage(eventId: event.id, page: page, trackChanges: builtIndex != nil))
            done += page.guests.count
            context.reportProgress((done, done + page.remaining), feed: "roster")
            if !page.hasMore { break }
        }
        try await reportToDashboard(event: event)
    }

    /// Tells the server how many check-ins of the event this device still holds (the door
    /// dashboard shows it beside the device's last contact). After the replay and the roster,
    /// so the count is what is left; only an ended session is an error here.
    private func reportToDashboard(event: EventInfo) async throws {
        let body = try OutpostJSON.encode(DeviceReport(pending: try store.pendingCheckIns(eventId: event.id)))
        do {
            _ = try await context.authorized(
                TransportRequest(
                    API.reportDevice.line(event.id, context.deviceId),
                    headers: ["Content-Type": "application/json"], body: body))
        } catch APIClientError.sessionEnded(let code) {
            throw APIClientError.sessionEnded(code: code)
        } catch {
            // The network went between the roster and the report: the next sync reports again.
        }
    }

    // MARK: - Screens

    package func reload() {
        guard let eventId = context.eventId else {
            rosterCount = 0
            confirming = nil
            suggestions = []
            rejected = RejectedCheckInsBanner(entries: [])
            rosterSyncedAt = nil
            return
        }
        // What only a write changes is read again after a write to its tables (a scan writes
        // nothing; a confirm writes the roster and the outbox, not the access types).
        rosterSyncedAt = context.read(&syncedRead, tables: ["sync_state"], scope: eventId) {
            context.surfacing("read when the roster synced") { try store.rosterSyncedAt(eventId: eventId) } ?? nil
        }
        accessTypes = context.read(&accessTypesRead, tables: ["access_types"], scope: eventId) {
            context.surfacing("read the access types") { try store.accessTypes(eventId: eventId) } ?? []
        }
        rosterCount = context.read(&countRead, tables: ["roster_versions"], scope: eventId) {
            context.surfacing("count the roster") { try store.guestCount(eventId: eventId) } ?? 0
        }
        // The refused entries, with their guests' names.
        rejected = context.read(&refusedRead, tables: ["outbox", "guests"], scope: eventId) { refusedEntries() }
        confirming = state.confirmation.flatMap { confirmation in
            guard let read = readGuest(eventId: eventId, id: confirmation.guestId) ?? nil else { return nil }
            let guest = withPeerAdmission(read)
            return ConfirmationScreen(
                guest: guest, accessTypeName: accessTypes.first { $0.id == guest.accessTypeId }?.name ?? "—",
                method: confirmation.method, timeZone: context.currentEvent?.timeZone,
                doorNotes: context.service((any GuestNotesSource).self)?.doorNotes(eventId: eventId, guestId: guest.id)
                    ?? [], block: guest.blockId.flatMap { block(eventId: eventId, id: $0) },
                fields: GuestFieldRules.shown(
                    guest.fields ?? [:],
                    fields: context.surfacing("read the guest fields") { try store.guestFields(eventId: eventId) } ?? []
                ).map { GuestFieldLine(label: $0.label, value: $0.value) })
        }
        // A result whose entry cannot be read still counts as waiting: never "synced" unseen.
        resultSyncing =
            state.result.map { result in
                context.surfacing("read the check-in's entry") {
                    try store.isPending(idempotencyKey: result.idempotencyKey)
                }
                    ?? true
            } ?? false
        suggestions =
            state.query.flatMap { query in
                index.flatMap { index in
                    readRoster { try store.guests(eventId: eventId, ids: index.search(query).map(\.id)) }
                }
            } ?? []
    }

    /// The refused entries of every owner, with their guests' names (rows that cannot be read
    /// are the shell's quarantine banner, not this one).
    private func refusedEntries() -> RejectedCheckInsBanner {
        let refused = context.surfacing("read the refused check-ins") { try store.outbox(state: .rejected, owner: nil) }
        let entries = (refused ?? []).map { entry in
            RejectedCheckInsBanner.Entry(
                guestId: entry.request.guestId,
                // The name is a label only: the entry is listed by its guest id without it.
                guestName: (try? store.guest(eventId: entry.eventId, id: entry.request.guestId))??.name,
                reason: entry.lastError)
        }
        return RejectedCheckInsBanner(entries: entries)
    }

    package var tabs: [UIElement] {
        // The EFx tab is the zone station's (OutpostZones).
        [UIElement(UIIdentifier.tabCheckIn, "Check-In")]
    }

    package func takeover(now: Date) -> (any ScreenModel)? { nil }

    package var frontScreen: (any ScreenModel)? {
        guard state.confirmation != nil else { return nil }
        return confirming
    }

    package var eventShellParts: [any ScreenPart] {
        [
            CheckInTabScreen(
                rosterCount: rosterCount,
                // The camera permission is read on every entry to the check-in tab.
                cameraDenied: context.ports.camera() == .denied,
                settingsURL: context.ports.platform.os == .ios ? "app-settings:" : "package:app.outpost",
                manualEntry: state.manualEntry, query: state.query, suggestions: suggestions, banner: state.banner,
                result: state.result, resultSyncing: resultSyncing, info: state.info, saveError: state.saveError,
                timeZone: context.currentEvent?.timeZone)
        ]
    }

    package var statusElements: [UIElement] { rejected.elements() }

    /// The open event's roster: when it was last brought up to date (the offline indicator).
    package var lastUpdated: Date? { context.showsEvent ? rosterSyncedAt : nil }

    // MARK: - Lifecycle

    package func eventChanged() {
        state.manualEntry = false
        state.query = nil
        state.confirmation = nil
        clearTransient()
        builtIndex = nil
    }

    package func clearTransient() {
        state.banner = nil
        state.result = nil
        state.info = nil
        state.saveError = nil
        context.clearRefusal()
    }

    package func sessionEnded() {
        state = CheckInState()
        builtIndex = nil
    }

    package func saveState() throws -> Data { try encodedState.data(for: state) }

    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(CheckInState.self, from: data)
    }

    // MARK: - Actions

    /// A scanned QR text: verified locally (no network call), then the confirmation screen or
    /// a banner. Wrong-event and forged tickets get banners of identical structure.
    package func scan(_ text: String) {
        guard let (ticket, verified) = verify(text) else { return }
        clearTransient()
        state.confirmation = nil
        switch verified {
        case .success(let payload): present(guestId: GuestID(payload.guestId), method: .qr, ticket: ticket)
        case .failure(.otherEvent): state.banner = .crossEvent
        case .failure: state.banner = .tampered
        }
    }

    /// Verifies scanned text offline against the open event's keys (also the kiosk's check).
    /// What is verified is byte for byte what is sent: the scanner's framing goes first, and the
    /// normalised ticket comes back with the outcome. Nil without an open event and a session.
    package func verify(_ scanned: String) -> (ticket: String, payload: Result<TicketPayload, TicketError>)? {
        guard let event = context.currentEvent, let tenant = context.session?.user.tenantId.uuid else { return nil }
        let eventUUID = event.id.uuid
        let keys = ticketKeys(eventId: event.id)
        let ticket = ScannedText.normalized(scanned)
        return (
            ticket,
            Result { () throws(TicketError) in
                try TicketCodec.verify(ticket, tenantId: tenant, eventId: eventUUID, keys: keys)
            }
        )
    }

    /// Manual entry: autocomplete over the local roster.
    package func lookup(_ query: String) {
        clearTransient()
        state.confirmation = nil
        state.manualEntry = true
        state.query = query
    }

    /// Manual entry by confirmation code (exact, case-insensitive).
    package func checkIn(code: String) {
        guard let eventId = context.eventId else { return }
        clearTransient()
        state.confirmation = nil
        state.manualEntry = true
        guard let found = lookUp(eventId: eventId, .code, code) else {
            return context.refuse(Self.unreadableRoster)
        }
        guard let guest = found.first else {
            state.banner = .noSuchCode
            return context.refuse("No guest has this code.")
        }
        present(guestId: guest.id, method: .manual, ticket: nil)
    }

    /// The guests of the open event whose code or e-mail (`key`) is `value`, compared as the
    /// store's blind index compared them (trimmed, lower-cased): the search index's
    /// candidates, each read by its id and kept when its own value is equal. Nil when the
    /// roster cannot be read or `eventId` is not the open event (the index is of that one).
    package func lookUp(eventId: EventID, _ key: RosterIndex.ExactKey, _ value: String) -> [LocalGuest]? {
        guard eventId == context.eventId, let index else { return nil }
        let wanted = Sealer.normalized(value)
        return readRoster {
            try index.candidates(key, value).compactMap { try store.guest(eventId: eventId, id: $0) }
                .filter { Sealer.normalized($0[keyPath: key.field]) == wanted }
        }
    }

    /// Manual entry by picking a suggestion. (A scan's red screens are decisions about a
    /// ticket, shown as results; a typed code or a picked id that names no guest is a refusal.)
    package func choose(guestId: GuestID) {
        clearTransient()
        present(guestId: guestId, method: .manual, ticket: nil)
        if state.banner == .notInRoster { context.refuse("That guest is not on this event's roster.") }
    }

    private func present(guestId: GuestID, method: CheckInMethod, ticket: String?) {
        state.confirmation = nil
        guard let eventId = context.eventId, let read = readGuest(eventId: eventId, id: guestId) else {
            return context.refuse(Self.unreadableRoster)
        }
        guard let guest = read else {
            state.banner = .notInRoster
            return
        }
        guard guest.status.isAdmissible else {
            state.banner = .notAdmissible
            return
        }
        state.confirmation = Confirmation(
            guestId: guestId, method: method, ticket: ticket, shownCheckedIn: withPeerAdmission(guest).checkIn != nil)
    }

    /// The block `id` of the event, as the roster carried it.
    private func block(eventId: EventID, id: TicketBlockID) -> RosterBlock? {
        context.surfacing("read the ticket blocks") { try store.ticketBlocks(eventId: eventId) }?.first { $0.id == id }
    }

    /// A holder of a block's ticket arrives without one ("I'm with Acme"): the confirmation
    /// screen of the block's next unnamed ticket, found by the partner's name (any case) or the
    /// block's id. Refused with why when the event has no such block or none of its tickets is
    /// left unnamed.
    package func openBlockTicket(_ partnerOrId: String) {
        guard let eventId = context.eventId else { return }
        clearTransient()
        state.confirmation = nil
        let wanted = partnerOrId.trimmingCharacters(in: .whitespaces).lowercased()
        guard
            let blocks = context.surfacing("read the ticket blocks", { try store.ticketBlocks(eventId: eventId) })
        else { return context.refuse(Self.unreadableRoster) }
        guard let block = blocks.first(where: { $0.partner.lowercased() == wanted || $0.id.wire == wanted }) else {
            return context.refuse("This event has no ticket block of \(partnerOrId).")
        }
        switch readRoster({ try store.unnamedTicket(eventId: eventId, blockId: block.id) }) {
        case .some(.some(let ticket)): present(guestId: ticket.id, method: .manual, ticket: nil)
        case .some(.none):
            context.refuse("Every ticket of \(block.partner)'s block is named: find its holder by name or code.")
        case .none: context.refuse(Self.unreadableRoster)
        }
    }

    /// Names a block's unnamed ticket at the door before it is confirmed: refused with why when
    /// the block does not allow it or no name was given; otherwise the name and its outbox
    /// entry are written in one transaction, ahead of the check-in. Nil when nothing stops the
    /// confirm (the guest as it is now).
    private func nameAtDoorIfNeeded(_ guest: LocalGuest, holderName: String?) -> LocalGuest? {
        guard guest.isUnnamedBlockTicket, let blockId = guest.blockId, guest.checkIn == nil else { return guest }
        guard let block = block(eventId: guest.eventId, id: blockId) else { return guest }
        if let refusal = TicketBlockRules.naming(
            by: .door, named: false, admissible: guest.status.isAdmissible, deadline: .distantFuture,
            doorNaming: block.doorNaming, partner: block.partner, now: context.ports.clock.now())
        {
            context.refuse(refusal.sentence)
            return nil
        }
        let name = (holderName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...TicketNaming.maxNameLength).contains(name.count), !name.contains(where: \.isNewline) else {
            context.refuse("Type the holder's name (one line) to name this ticket of \(block.partner)'s block.")
            return nil
        }
        guard let owner = context.userId else { return nil }
        do {
            return try store.nameAtDoor(
                guest,
                naming: DoorNaming(
                    blockId: blockId, guestId: guest.id,
                    naming: TicketNaming(name: name, email: "", deviceId: context.deviceId)),
                owner: owner, now: context.ports.clock.now(), changes: localChanges)
        } catch {
            state.saveError = "Could not save the ticket's name: \(error). Nothing was queued; try again."
            context.refuse(state.saveError!)
            return nil
        }
    }

    /// Confirms the guest on the confirmation screen: the check-in and its outbox entry are
    /// committed locally in one transaction and the screen advances; the caller replays after.
    /// On the already-checked-in screen this re-confirms, never a second check-in. A block's
    /// unnamed ticket is named at the door first (`holderName`), when its block allows it.
    /// Returns false when nothing was on the confirmation screen.
    package func confirm(note: String?, holderName: String? = nil) -> Bool {
        guard let confirmation = state.confirmation, let eventId = context.eventId,
            // The check-in is decided on the guest as the store holds it, not as a screen kept it.
            let read = readGuest(eventId: eventId, id: confirmation.guestId, reuse: false)
        else {
            if state.confirmation != nil {
                // The guest's row could not be read: nothing is queued and the screen stays.
                state.saveError = "Could not read the guest to confirm. Nothing was queued; try again."
                context.refuse(state.saveError!)
                return true
            }
            return false
        }
        guard let unnamed = read.map(withPeerAdmission) else { return false }
        // Another door's admission arrived over the venue mesh while the green card was up: the
        // card now says so, and nothing is committed until staff have looked at it again (a
        // confirm then re-confirms, as on any already-checked-in card).
        if let peer = unnamed.checkIn, read?.checkIn == nil, confirmation.shownCheckedIn == false {
            state.confirmation?.shownCheckedIn = true
            context.refuse(
                "\(unnamed.name) was checked in a moment ago by \(peer.byName); nothing was checked in here: look at the card again."
            )
            return true
        }
        guard let guest = nameAtDoorIfNeeded(unnamed, holderName: holderName) else { return true }
        state.confirmation = nil
        do {
            let entry = try commit(guest: guest, method: confirmation.method, ticket: confirmation.ticket, note: note)
            state.result = ResultCard(guestName: guest.name, idempotencyKey: entry.idempotencyKey)
        } catch {
            state.saveError = "Could not save the check-in of \(guest.name): \(error). Nothing was queued; try again."
            context.refuse(state.saveError!)
        }
        return true
    }

    /// Commits one check-in of `guest` locally (the guest's state and the outbox entry, owned by
    /// the signed-in user, in one transaction) and keeps the search index current. Also the
    /// kiosk's way in: an already checked-in guest is still sent (re-confirm), so the server audits it.
    @discardableResult
    package func commit(
        guest: LocalGuest, method: CheckInMethod, ticket: String?, note: String? = nil
    ) throws -> CheckInEntry {
        guard let session = context.session, let owner = context.userId else {
            throw APIClientError.sessionEnded(code: nil)
        }
        let now = context.ports.clock.now()
        let request = CheckInRequest(
            guestId: guest.id, deviceId: context.deviceId,
            scannedAt: Date(millisecondsSince1970: now.millisecondsSince1970), method: method, ticket: ticket,
            reconfirm: guest.checkIn != nil && method != .kiosk ? true : nil, note: note)
        let entry = try store.confirmCheckIn(
            guest: guest, request: request, byName: session.user.name, owner: owner, now: now
        ) { db in
            try context.journalCheckIn(
                db, eventId: guest.eventId, guestId: guest.id, scannedAt: request.scannedAt,
                reconfirm: guest.checkIn != nil)
        }
        context.announceCheckIn(
            eventId: guest.eventId, guestId: guest.id, ticket: ticket, reconfirm: guest.checkIn != nil)
        return entry
    }

    /// The guest `id` of `eventId`: `.some(nil)` when the roster has no such guest, nil when the
    /// roster could not be read (recorded as a storage fault, shown on the banner).
    /// The last one read is kept while the roster's table is unchanged: the confirmation
    /// screen's reload shows the guest the scan just read (`reuse`; a confirm reads it again).
    private func readGuest(eventId: EventID, id: GuestID, reuse: Bool = true) -> LocalGuest?? {
        let read = { self.readRoster { try self.store.guest(eventId: eventId, id: id) } }
        guard reuse else { return read() }
        return context.read(&guestRead, tables: ["guests"], scope: [eventId.wire, id.wire], read)
    }

    /// The event's ticket keys, kept until their table changes (a roster page brings them).
    /// Unreadable keys verify nothing: the scan shows red and the fault banner says why.
    private func ticketKeys(eventId: EventID) -> [TicketKeyID: Curve25519.Signing.PublicKey] {
        context.read(&keysRead, tables: ["event_keys"], scope: eventId) {
            context.surfacing("read the event's ticket keys") { try store.ticketKeys(eventId: eventId) } ?? [:]
        }
    }

    /// The guest as this door decides on them: one the roster has not checked in but another
    /// door admitted (learnt over the venue mesh, ``PeerAdmissionSource``) is already checked
    /// in, by that door's staff, so confirming re-confirms and never admits twice.
    func withPeerAdmission(_ guest: LocalGuest) -> LocalGuest {
        guard guest.checkIn == nil,
            let peer = context.service((any PeerAdmissionSource).self)?.peerAdmission(
                eventId: guest.eventId, guestId: guest.id)
        else { return guest }
        var admitted = guest
        admitted.checkIn = LocalCheckIn(
            at: peer.at, byName: "\(peer.staff) on \(peer.door)", deviceId: peer.deviceId, pending: true)
        return admitted
    }

    /// What staff are told when the roster could not be read for an action.
    static let unreadableRoster = "The roster could not be read on this device; nothing was checked in."

    /// Leaves the confirmation screen without writing anything.
    package func cancel() {
        clearTransient()
        state.confirmation = nil
    }

    /// Switches between camera and manual entry.
    package func toggleManualEntry() {
        state.manualEntry.toggle()
        state.query = nil
    }

    /// Staff have seen the refused check-ins: they leave the list.
    package func dismissRejected() {
        for entry in context.surfacing("read the refused check-ins", { try store.outbox(state: .rejected, owner: nil) })
            ?? []
        {
            context.surfacing("forget a refused check-in") { try store.forgetRejected(OutboxMachine.EntryID(entry.id)) }
        }
    }

    /// Keeps the built index current with a page the sync applied, when the page's changes are
    /// all the roster's changes since the index was built (the version read in the page's own
    /// transaction says so: one step per guest added or re-keyed). Otherwise, or past
    /// ``rebuildAfterChanges`` changes, the next search builds the index again. (Its snapshot is
    /// then behind; ``pull(event:)`` writes it once after the last page.)
    private func follow(_ applied: ModuleStore<CheckInModule>.RosterPageApplied) {
        guard applied.versionAfter != applied.versionBefore, var built = builtIndex else { return }
        guard built.version == applied.versionBefore, let rekeyed = applied.rekeyed,
            applied.versionAfter - applied.versionBefore == rekeyed.count
        else { return }
        built.index.apply(changed: rekeyed)
        keep(built.index, version: applied.versionAfter)
    }

    /// Follows this device's own committed roster writes (``LocalRosterChanges``), in commit
    /// order, when each one starts at the version the index is at, and writes the snapshot of
    /// the result; otherwise the next search builds the index again.
    private func catchUp() {
        let changes = localChanges.take().filter { $0.eventId == context.eventId }
        guard !changes.isEmpty, var built = builtIndex else { return }
        for change in changes {
            guard built.version == change.versionBefore else {
                builtIndex = nil
                return
            }
            built.index.apply(changed: change.changed, removed: change.removed)
            built.version = change.versionAfter
        }
        keep(built.index, version: built.version)
        // A relaunch opens the index from its snapshot (an offline door may not sync for
        // hours): written in the background, merged, instead of the next launch building it.
        if let builtIndex, let eventId = context.eventId {
            writeSnapshot(builtIndex.index, eventId: eventId, version: builtIndex.version)
        }
    }

    /// The index after it followed changes, unless it holds too many of them to stay fast.
    private func keep(_ index: RosterIndex, version: Int) {
        guard index.changedSinceBuilt <= Self.rebuildAfterChanges, context.eventId != nil else {
            builtIndex = nil
            return
        }
        builtIndex = (version, index)
    }

    /// How many changed guests the index follows before it is built again: each costs every
    /// search a little, and a whole roster pulled again is cheaper built afresh.
    static let rebuildAfterChanges = 2_000

    /// Writes the index's snapshot in the background (its changes folded in there), after the
    /// write before it.
    private func writeSnapshot(_ index: RosterIndex, eventId: EventID, version: Int) {
        let snapshots = store
        let previous = snapshotWrite
        snapshotVersion = version
        snapshotWrite = Task.detached(priority: .utility) {
            await previous?.value
            // A snapshot not written is built again at the next launch; nothing is lost.
            try? snapshots.saveRosterIndexSnapshot(eventId: eventId, version: version, bytes: index.snapshot())
        }
    }

    /// The index from its snapshot when the snapshot is of the roster at `version`.
    private func openSnapshot(eventId: EventID, version: Int) -> RosterIndex? {
        // A snapshot that cannot be read (or is stale) is only a cache: the roster rebuilds it.
        guard let bytes = try? store.rosterIndexSnapshot(eventId: eventId),
            let index = try? RosterIndex(snapshot: bytes)
        else { return nil }
        builtIndex = (version, index)
        snapshotVersion = version
        return index
    }

    /// Before a sync: a device that searched before (it has a snapshot) opens its index now if
    /// it is not open, so the index follows the pages instead of being built after them.
    private func openIndexToFollow(eventId: EventID) {
        guard builtIndex == nil, context.eventId == eventId,
            let version = context.surfacing("read the roster's version", { try store.rosterVersion(eventId: eventId) })
        else { return }
        _ = openSnapshot(eventId: eventId, version: version)
    }

    /// How many times this module built the index from the roster (tests, the bench).
    package private(set) var indexBuilds = 0

    /// The autocomplete index of the open event, current with the roster's version (opened
    /// lazily: launches that never search never read the roster). A launch opens the sealed
    /// snapshot when it matches the roster; otherwise it unseals the roster, builds the index and
    /// writes a new snapshot in the background.
    package var index: RosterIndex? {
        guard let eventId = context.eventId,
            let version = context.surfacing("read the roster's version", { try store.rosterVersion(eventId: eventId) })
        else {
            return nil
        }
        catchUp()
        if let builtIndex, builtIndex.version == version { return builtIndex.index }
        if let index = openSnapshot(eventId: eventId, version: version) { return index }
        guard let (read, index) = readRoster({ try store.rosterIndex(eventId: eventId) }) else { return nil }
        indexBuilds += 1
        builtIndex = (read, index)
        writeSnapshot(index, eventId: eventId, version: read)
        return index
    }
}
