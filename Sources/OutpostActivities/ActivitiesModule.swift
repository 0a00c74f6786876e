import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The peer mentors' module (seed 004): a mentor's contacts and activities, outside any event.
/// Registering, editing and deleting an activity is the same flow online and offline: the
/// local write and its outbox entry commit together, and the shell's outbox sends them in
/// order when it can. Its feeds are the mentor's contacts (non-sensitive fields only) and
/// activities; sensitive contact fields are fetched for one screen and held in memory only.
@MainActor
package final class ActivitiesModule: DeviceModule {
    package static let name = "activities"
    package static let migrations = ModuleStore<ActivitiesModule>.activitiesMigrations

    /// What the module may use of the shell.
    package let context: ModuleContext
    private let store: ModuleStore<ActivitiesModule>
    package var state = ActivitiesState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<ActivitiesState>()
    /// The sensitive fields of the contact on screen, as the server revealed them: in memory
    /// only, never saved, gone with the next action, a lock or the process.
    private var revealed: (contact: ContactID, fields: ContactSensitive)?

    private var contacts: [Contact] = []
    private var activitiesScreen = ActivitiesScreen(rows: [], conflicts: [], failures: [])

    package init(context: ModuleContext, store: ModuleStore<ActivitiesModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] {
        [
            ActivityOutbox(store: store) { [weak self] id in
                self?.state.synced.insert(id)
                // "…it will sync when you're online" is no longer true once it has.
                self?.state.saved = nil
            }
        ]
    }

    package func isHome(for user: UserInfo) -> Bool { user.role == .mentor }

    // MARK: - Feeds

    package func pull(event: EventInfo) async throws {}

    /// The mentor's contacts and activities (small lists: fetched whole).
    package func pullAccount() async throws {
        guard let role = context.session?.user.role, role == .mentor || role == .organizer else { return }
        let contactList = try APIClient.decode(
            ContactList.self, try await context.authorized(TransportRequest(API.listContacts.line())))
        let activityList = try APIClient.decode(
            ActivityList.self, try await context.authorized(TransportRequest(API.listActivities.line())))
        try store.replaceContacts(contactList.contacts)
        try store.applyServerActivities(activityList.activities)
        state.lastUpdated = context.ports.clock.now()
    }

    package var lastUpdated: Date? { context.showsModule ? state.lastUpdated : nil }

    // MARK: - Screens

    package func reload() {
        contacts = context.surfacing("read your contacts") { try store.contacts() } ?? []
        // A contact's last visit counts what was recorded on this device and not yet synced
        // (the server's date knows only what it has).
        var latest: [ContactID: String] = [:]
        for activity in context.surfacing("read your activities", { try store.activities() }) ?? []
        where !activity.deleted {
            latest[activity.content.contactId] = max(latest[activity.content.contactId] ?? "", activity.content.date)
        }
        for index in contacts.indices {
            if let local = latest[contacts[index].id], local > (contacts[index].lastVisit ?? "") {
                contacts[index].lastVisit = local
            }
        }
        let names = Dictionary(contacts.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let queued = context.surfacing("read your activities") { try store.activitiesWithQueuedWrites() } ?? []
        let local = context.surfacing("read your activities") { try store.activities() } ?? []
        let localNames = Dictionary(
            local.compactMap { activity in activity.contactName.map { (activity.id, $0) } },
            uniquingKeysWith: { first, _ in first })
        let rows = local.filter { !$0.deleted }
            .sorted { ($0.content.date, $0.updatedAt) > ($1.content.date, $1.updatedAt) }
            .map { activity in
                ActivitiesScreen.Row(
                    activity: activity,
                    contactName: names[activity.content.contactId] ?? activity.contactName ?? "a contact",
                    syncing: queued.contains(activity.id))
            }
        let conflicts = (context.surfacing("read your conflicts") { try store.conflicts(owner: context.userId) } ?? [])
            .map { record in
                (record, names[record.theirs.contactId] ?? localNames[record.activityId] ?? "a contact")
            }
        let failures = (context.surfacing("read the refused entries") { try store.refusedActivityEntries() } ?? [])
            .map { entry in
                ActivitiesScreen.Failure(
                    activityId: entry.request?.activityId,
                    reason: Self.refusalWords(
                        entry.row.lastError,
                        contact: entry.request.flatMap { request in
                            request.write.flatMap { names[$0.contactId] } ?? localNames[request.activityId]
                        }))
            }
        activitiesScreen = ActivitiesScreen(
            rows: rows, saved: state.saved, conflicts: conflicts, failures: failures,
            error: state.error)
    }

    package static func refusalWords(_ code: String?, contact: String?) -> String {
        switch code.map(APIErrorCode.init) {
        case .notFound?: "\(contact ?? "the contact") is no longer assigned to you, or the activity is gone"
        case .invalidRequest?: "the server did not accept its details"
        case .forbidden?: "your role may not register activities"
        default: "refused (\(code ?? "unknown"))"
        }
    }

    package var homeScreen: (any ScreenModel)? {
        switch state.screen {
        case .activities:
            return activitiesScreen
        case .contacts:
            let screen = ContactsScreen(contacts: contacts, error: state.error)
            return screen
        case .contact:
            guard let id = state.contactId, let contact = contacts.first(where: { $0.id == id }) else {
                let screen = ContactsScreen(contacts: contacts)
                return screen
            }
            let screen = ContactDetailScreen(
                contact: contact, revealed: revealed?.contact == id ? revealed?.fields : nil,
                online: context.ports.online, lastUpdated: state.lastUpdated, error: state.error)
            return screen
        }
    }

    package var tabs: [UIElement] { [] }
    package func takeover(now: Date) -> (any ScreenModel)? { nil }
    package var frontScreen: (any ScreenModel)? { nil }
    package var eventShellParts: [any ScreenPart] { [] }
    package var statusElements: [UIElement] { ActivitiesScreen.syncNotice(state.synced.count) }

    // MARK: - Lifecycle

    package func eventChanged() {}

    package func clearTransient() {
        state.saved = nil
        state.error = nil
        state.synced = []
        revealed = nil
        context.clearRefusal()
    }

    /// The action was refused: the screen says why, and so does the shell (``DeviceApp/refusal``).
    package func refuse(_ sentence: String) {
        state.error = sentence
        context.refuse(sentence)
    }

    package func sessionEnded() {
        state = ActivitiesState()
        revealed = nil
        context.surfacing("forget the signed-out activities") { try store.clearActivities() }
    }

    /// An unresolved conflict is the mentor's pending work: named, never dropped at sign-out.
    package func unsent(owner: UserID) -> [String] {
        let names = Dictionary(contacts.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        // Conflicts that cannot be read are pending all the same: the sign-out warns and waits.
        guard let conflicts = context.surfacing("read your conflicts", { try store.conflicts(owner: owner) }) else {
            return ["Conflicts on this device could not be read: sign out later, or contact support."]
        }
        return conflicts.map { record in
            let content = record.mine ?? record.theirs.content
            let name = names[content.contactId] ?? "a contact"
            return "A conflict on your \(content.type.rawValue) with \(name) on \(content.date): keep yours or theirs."
        }
    }

    package func discardUnsent(owner: UserID) throws { try store.discardConflicts(owner: owner) }

    /// The mentor's unresolved conflicts, both versions (the activities themselves are the
    /// server's, in its export; what waits to be sent is in the export's outbox).
    package func exportRecords(of user: UserID) throws -> Data? {
        try JSONEncoder.outpostDevice.encode(["conflicts": try store.conflicts(owner: user)])
    }

    package func erase(user: UserID) throws { try store.discardConflicts(owner: user) }

    package func saveState() throws -> Data { try encodedState.data(for: state) }

    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(ActivitiesState.self, from: data)
    }

    // MARK: - Actions

    package func show(_ screen: ActivitiesState.Screen, contact: ContactID? = nil) {
        clearTransient()
        state.screen = screen
        state.contactId = contact
        if screen == .contact, let contact, !contacts.contains(where: { $0.id == contact }) {
            state.screen = .contacts
            refuse("That contact is not among yours.")
        }
    }

    /// Registers an activity: committed locally with its outbox entry in one transaction (the
    /// same online or offline). Only for one of the mentor's contacts, with a valid day and length.
    package func register(_ content: ActivityContent) -> Bool {
        clearTransient()
        state.screen = .activities
        guard validate(content) else { return false }
        let activity = LocalActivity(
            id: .random(), content: content, contactName: contacts.first { $0.id == content.contactId }?.name,
            now: context.ports.clock.now())
        return save(
            activity,
            request: ActivityOutboxRequest(
                activityId: activity.id, write: ActivityWrite(content: content, baseVersion: 0)),
            saved: "\(content.type.label.capitalizedFirst) saved")
    }

    /// Edits an activity: the write names the version it was made on (the last the device knows
    /// of, counting its own queued writes).
    package func edit(_ id: ActivityID, _ change: (inout ActivityContent) -> Void) -> Bool {
        clearTransient()
        state.screen = .activities
        guard var activity = context.surfacing("read the activity", { try store.activity(id) }).flatMap({ $0 }),
            !activity.deleted
        else {
            refuse("That activity is not on this device.")
            return false
        }
        let before = activity.content
        change(&activity.content)
        guard activity.content != before else {
            state.saved = "Nothing changed; nothing to sync"
            return false
        }
        guard validate(activity.content) else { return false }
        activity.contactName = contacts.first { $0.id == activity.content.contactId }?.name ?? activity.contactName
        let request = ActivityOutboxRequest(
            activityId: id, write: ActivityWrite(content: activity.content, baseVersion: activity.expectedVersion))
        activity.expectedVersion += 1
        activity.updatedAt = context.ports.clock.now()
        return save(activity, request: request, saved: "Changes saved")
    }

    package func delete(_ id: ActivityID) -> Bool {
        clearTransient()
        state.screen = .activities
        guard var activity = context.surfacing("read the activity", { try store.activity(id) }).flatMap({ $0 }),
            !activity.deleted
        else {
            refuse("That activity is not on this device.")
            return false
        }
        // A delete names a version; an activity the server has not seen yet is deleted once its
        // create (version 1) lands.
        let base = max(activity.expectedVersion, 1)
        let request = ActivityOutboxRequest(activityId: id, write: nil, deleteBaseVersion: base)
        activity.deleted = true
        activity.expectedVersion = base + 1
        return save(activity, request: request, saved: "Activity deleted")
    }

    /// Resolves a conflict: `keepMine` sends the mentor's version on top of the server's;
    /// otherwise the server's version replaces the mentor's on this device.
    package func resolve(_ id: ActivityID, keepMine: Bool) -> Bool {
        clearTransient()
        state.screen = .activities
        guard let owner = context.userId,
            let record = (context.surfacing("read your conflicts") { try store.conflicts(owner: owner) } ?? [])
                .first(where: { $0.activityId == id })
        else {
            refuse("There is no conflict on that activity.")
            return false
        }
        let theirs = record.theirs
        var local: LocalActivity? = theirs.deleted ? nil : LocalActivity(server: theirs)
        var request: ActivityOutboxRequest?
        if keepMine {
            if let mine = record.mine {
                var kept = LocalActivity(server: theirs)
                kept.content = mine
                kept.deleted = false
                kept.expectedVersion = theirs.version + 1
                local = kept
                request = ActivityOutboxRequest(
                    activityId: id, write: ActivityWrite(content: mine, baseVersion: theirs.version))
            } else if !theirs.deleted {
                var gone = LocalActivity(server: theirs)
                gone.deleted = true
                gone.expectedVersion = theirs.version + 1
                local = gone
                request = ActivityOutboxRequest(activityId: id, write: nil, deleteBaseVersion: theirs.version)
            }
        }
        do {
            try store.resolveConflict(id, local: local, request: request, owner: owner, now: context.ports.clock.now())
            state.saved = keepMine ? "Your version will be sent" : "The server's version is kept"
            return request != nil
        } catch {
            refuse("Could not save your choice: \(error). Nothing changed; try again.")
            return false
        }
    }

    /// The mentor has seen the refused entries: they leave the list (their local copies go).
    package func dismissFailures() {
        clearTransient()
        for entry in context.surfacing("read the refused entries", { try store.refusedActivityEntries() }) ?? [] {
            context.surfacing("forget a refused entry") { try store.forgetRejected(entry.row.id) }
        }
    }

    /// Reveals the sensitive fields of the contact on screen: needs the network; the answer is
    /// held in memory for this screen only. Offline the screen says so, calmly.
    package func reveal() async {
        guard state.screen == .contact, let id = state.contactId else { return }
        revealed = nil
        state.error = nil
        guard context.ports.online else { return }
        do {
            let response = try await context.authorized(
                TransportRequest(API.revealContact.line(id)))
            revealed = (id, try APIClient.decode(ContactSensitive.self, response))
        } catch APIClientError.transport {
            refuse("Couldn't reach the server; encrypted content requires a connection.")
        } catch APIClientError.http(404, _) {
            refuse("This contact is no longer assigned to you.")
        } catch {
            context.handle(error)
            if case APIClientError.sessionEnded = error { return }
            refuse("The contact details could not be shown (\(error)).")
        }
    }

    // MARK: - Helpers

    private func validate(_ content: ActivityContent) -> Bool {
        if !contacts.contains(where: { $0.id == content.contactId }) {
            refuse("Choose one of your contacts.")
        } else if !ActivityDate.isValid(content.date) {
            refuse("The date must be a day like 2026-11-24.")
        } else if ActivityDate.isAfterTomorrow(content.date, now: context.ports.clock.now(), in: context.ports.timeZone)
        {
            refuse("The date is in the future; record an activity once it has happened.")
        } else if !(1...1440).contains(content.durationMinutes) {
            refuse("The duration must be between 1 and 1440 minutes.")
        } else if content.notes.count > 4000 {
            refuse("Notes can be at most 4000 characters.")
        } else {
            return true
        }
        return false
    }

    private func save(_ activity: LocalActivity, request: ActivityOutboxRequest, saved: String) -> Bool {
        guard let owner = context.userId else { return false }
        do {
            try store.saveActivity(activity, request: request, owner: owner, now: context.ports.clock.now())
            state.saved = context.ports.online ? saved : "\(saved); it will sync when you're online"
            return true
        } catch {
            refuse("Could not save: \(error). Nothing was queued; try again.")
            return false
        }
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
