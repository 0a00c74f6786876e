import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The lead station (EFx lead retrieval): an exhibitor's device, outside any event's staff. It
/// lands on the exhibitor's booths, scans an attendee's badge or ticket (verified offline with the
/// event's ticket keys, as the door does, but without the roster: the exhibitor never holds the
/// attendees' list) and captures a lead under the ticket's opaque guest id, with a rating, notes
/// and the booth's own questions. Offline as online: the lead and its outbox entry commit
/// together. Edits name the version they were made on; two devices editing at once keep both
/// sides as a conflict until the exhibitor chooses. The attendee's name and e-mail come from the
/// server, only while they share them. The booth's leads export as formula-safe CSV.
@MainActor
package final class LeadsModule: DeviceModule {
    package static let name = "leads"
    package static let migrations = ModuleStore<LeadsModule>.leadMigrations
    package nonisolated static var sessionTables: [String] { ModuleStore<LeadsModule>.leadSessionTables }

    package let context: ModuleContext
    package let store: ModuleStore<LeadsModule>
    package var state = LeadsState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<LeadsState>()

    package init(context: ModuleContext, store: ModuleStore<LeadsModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] { [LeadOutbox(store: store)] }

    package func isHome(for user: UserInfo) -> Bool { user.role == .exhibitor }

    // MARK: - Feeds

    package func pull(event: EventInfo) async throws {}

    /// The exhibitor's booths (with the ticket keys), then each booth's leads.
    package func pullAccount() async throws {
        guard context.session?.user.role == .exhibitor else { return }
        let mine = try APIClient.decode(
            MyBooths.self, try await context.authorized(TransportRequest(API.myBooths.line())))
        state.booths = mine.booths
        for booth in mine.booths {
            let leads = try APIClient.decode(
                LeadList.self, try await context.authorized(TransportRequest(API.leads.line(booth.booth.id))))
            try store.apply(leads.leads)
        }
        state.lastUpdated = context.ports.clock.now()
    }

    package var lastUpdated: Date? { context.showsModule ? state.lastUpdated : nil }

    // MARK: - Screens

    /// The screen and the signed-in exhibitor's conflicts, rebuilt from the store after an
    /// action, a pull or a replay (rendering reads no store).
    private var screen = LeadsScreen(booths: [], chosen: nil, rows: [], conflicts: [], last: nil)
    private var conflicts: [LeadConflictRecord] = []

    package func reload() {
        // A device that is no exhibitor's has nothing here to read.
        guard !state.booths.isEmpty || context.session?.user.role == .exhibitor else { return }
        let booth = state.booth
        let leads =
            booth.flatMap { booth in
                context.surfacing("read the leads") { try store.leads(boothId: booth.booth.id) }
            } ?? []
        let queued =
            context.surfacing("read the leads") { try store.readStatement { try store.queuedLeadIds($0) } } ?? []
        conflicts = context.surfacing("read your conflicts") { try store.conflicts(owner: context.userId) } ?? []
        screen = LeadsScreen(
            booths: state.booths, chosen: booth?.booth.id,
            rows: leads.map { LeadsScreen.Row(lead: $0, syncing: queued.contains($0.id.wire)) }, conflicts: conflicts,
            last: state.last)
    }

    package var homeScreen: (any ScreenModel)? {
        var shown = screen
        shown.last = state.last
        return shown
    }

    package var tabs: [UIElement] { [] }
    package func takeover(now: Date) -> (any ScreenModel)? { nil }
    package var frontScreen: (any ScreenModel)? { nil }
    package var eventShellParts: [any ScreenPart] { [] }
    package var statusElements: [UIElement] { [] }

    // MARK: - Lifecycle

    package func eventChanged() {}
    package func clearTransient() { state.last = nil }

    package func sessionEnded() {
        state = LeadsState()
        conflicts = []
        screen = LeadsScreen(booths: [], chosen: nil, rows: [], conflicts: [], last: nil)
    }

    /// An unresolved conflict is the exhibitor's pending work: named, never dropped at sign-out.
    package func unsent(owner: UserID) -> [String] {
        // The signed-in exhibitor's as of the last reload; another user's read now. Conflicts
        // that cannot be read are pending all the same: the sign-out warns and waits.
        let listed =
            owner == context.userId
            ? conflicts : context.surfacing("read your conflicts", { try store.conflicts(owner: owner) })
        guard let listed else {
            return ["Lead conflicts on this device could not be read: sign out later, or contact support."]
        }
        return listed.map { record in
            "A conflict on the lead of \(record.theirs.contact?.name ?? "an attendee"): keep yours or theirs."
        }
    }

    package func discardUnsent(owner: UserID) throws { try store.discardConflicts(owner: owner) }
    package func erase(user: UserID) throws { try store.discardConflicts(owner: user) }

    package func exportRecords(of user: UserID) throws -> Data? {
        try JSONEncoder.outpostDevice.encode(["conflicts": try store.conflicts(owner: user)])
    }

    package func saveState() throws -> Data { try encodedState.data(for: state) }

    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(LeadsState.self, from: data)
    }

    // MARK: - Actions

    package func choose(_ boothId: BoothID) {
        guard state.booths.contains(where: { $0.booth.id == boothId }) else {
            context.refuse("You are not on that booth: choose one of yours.")
            return
        }
        state.boothId = boothId
        state.last = nil
    }

    /// A scanned badge or ticket: verified offline against the booth's event keys; a new lead
    /// (or the lead this booth already has of the attendee, never a second one).
    package func scan(_ text: String) {
        guard let owner = context.userId, let tenant = context.session?.user.tenantId else { return }
        guard let mine = state.booth else {
            context.refuse("You are on no booth yet: the organizer adds you, then sync.")
            return
        }
        let ticket = ScannedText.normalized(text)
        let payload: TicketPayload
        do {
            payload = try TicketCodec.verify(
                ticket, tenantId: tenant.uuid, eventId: mine.event.id.uuid, keys: Self.keys(mine.keys))
        } catch .otherEvent {
            show(false, "Not a ticket of \(mine.event.name).", nil)
            return
        } catch {
            show(false, "Not a valid ticket: it is damaged or forged.", nil)
            return
        }
        let guestId = GuestID(payload.guestId)
        guard
            let existing = context.surfacing(
                "read the leads", { try store.lead(boothId: mine.booth.id, guestId: guestId) })
        else { return }
        if let existing {
            show(true, "Already a lead: \(existing.attendee).", existing.id)
            return
        }
        let now = context.ports.clock.now()
        let lead = LocalLead(
            id: .random(), boothId: mine.booth.id,
            content: LeadContent(
                guestId: guestId, capturedAt: Date(millisecondsSince1970: now.millisecondsSince1970),
                deviceId: context.deviceId),
            version: 0, expectedVersion: 0, contact: nil, capturedBy: context.session?.user.name ?? "")
        guard context.surfacing("keep the lead", { try store.write(lead, owner: owner, now: now) }) != nil else {
            return
        }
        show(true, "Lead captured: \(lead.attendee) (name and e-mail after sync, if they share them).", lead.id)
    }

    /// Rates, notes and answers a lead (nil: unchanged), over the version this device has.
    package func edit(_ id: LeadID, rating: Int?, notes: String?, answers: [String: String]?) {
        guard let owner = context.userId,
            let found = context.surfacing("read the lead", { try store.lead(id) })
        else { return }
        guard var lead = found, state.booths.contains(where: { $0.booth.id == lead.boothId }) else {
            context.refuse("There is no such lead on this device.")
            return
        }
        if let rating {
            guard (0...5).contains(rating) else {
                context.refuse("A rating is from 0 (none) to 5.")
                return
            }
            lead.content.rating = rating
        }
        if let notes { lead.content.notes = notes }
        if let answers {
            let keys = Set(state.booths.first { $0.booth.id == lead.boothId }?.booth.questions.map(\.key) ?? [])
            guard answers.keys.allSatisfy(keys.contains) else {
                context.refuse("Answer the booth's own questions: \(keys.sorted().joined(separator: ", ")).")
                return
            }
            lead.content.answers.merge(answers) { _, new in new }
        }
        let now = context.ports.clock.now()
        guard context.surfacing("keep the lead", { try store.write(lead, owner: owner, now: now) }) != nil else {
            return
        }
        show(true, "Saved: \(lead.attendee).", lead.id)
    }

    package func resolve(_ id: LeadID, keepMine: Bool) {
        guard let owner = context.userId else { return }
        let now = context.ports.clock.now()
        _ = context.surfacing("resolve the conflict") {
            try store.resolve(id, keepMine: keepMine, owner: owner, now: now)
        }
        state.last = nil
    }

    /// The chosen booth's leads as this device has them, as formula-safe CSV (the server's
    /// columns: what was captured here and not yet synced included).
    package func csv() -> String? {
        guard let mine = state.booth,
            let leads = context.surfacing("read the leads", { try store.leads(boothId: mine.booth.id) })
        else { return nil }
        let format = ISO8601DateFormatter()
        format.timeZone = TimeZone(identifier: mine.event.timeZone) ?? .gmt
        return LeadCSV.document(
            questions: mine.booth.questions,
            rows: leads.map {
                LeadCSV.Row(content: $0.content, contact: $0.contact, capturedBy: $0.capturedBy, version: $0.version)
            }, timestamp: { format.string(from: $0) })
    }

    private func show(_ captured: Bool, _ sentence: String, _ leadId: LeadID?) {
        state.last = LeadsState.Result(captured: captured, sentence: sentence, leadId: leadId)
    }

    /// The event's ticket keys as the verifier takes them (a damaged key verifies nothing).
    static func keys(_ keys: [RosterKey]) -> [TicketKeyID: Curve25519.Signing.PublicKey] {
        var verifying: [TicketKeyID: Curve25519.Signing.PublicKey] = [:]
        for key in keys {
            // A key that does not parse verifies nothing: its tickets answer "unknown key", never capture.
            guard let id = TicketKeyID(hex: key.keyId), let raw = Base64URL.decode(key.publicKey),
                let parsed = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
            else { continue }
            verifying[id] = parsed
        }
        return verifying
    }
}
