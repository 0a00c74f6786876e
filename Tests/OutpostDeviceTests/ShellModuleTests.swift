import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import Testing

@testable import OutpostDevice

/// A module the shell has never heard of, written the way time tracking and activities will be:
/// its own table (a migration), its own tab, feed, state and outbox kind. Nothing in the shell,
/// check-in or kiosk names it.
@MainActor
final class NotesProbeModule: DeviceModule {
    static let name = "notes"
    static let migrations = [
        DeviceMigration("v1 notes") { db, _ in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, event_id TEXT NOT NULL, text TEXT)")
        }
    ]
    static let tab = "test-notes-tab"
    static let kind = OutboxKind(rawValue: "note")

    unowned let shell: DeviceApp
    let store: DeviceStore
    /// Saved and restored by the shell.
    var drafts: [String] = []
    /// Events whose feed the shell pulled, in order.
    var pulled: [EventID] = []
    private var noteCount = 0

    init(shell: DeviceApp) {
        self.shell = shell
        store = shell.store!
    }

    struct Handler: OutboxEntryHandler {
        let store: DeviceStore
        var kind: OutboxKind { NotesProbeModule.kind }
        var noun: ShellStatus.Noun { ShellStatus.Noun(one: "note", many: "notes") }
        func request(for row: OutboxRow) throws -> TransportRequest {
            // Any route of the real server that answers JSON: the point is the dispatch by kind.
            _ = try store.request(of: row, as: [String: String].self)
            return TransportRequest(method: "GET", path: "/v1/client-policy")
        }
        func accepts(_ response: TransportResponse) -> Bool {
            (try? OutpostJSON.decode(ClientPolicy.self, from: response.body)) != nil
        }
        func store(
            _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
        ) throws -> OutboxNotice? {
            try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now)
            return nil
        }
    }

    var outboxHandlers: [any OutboxEntryHandler] { [Handler(store: store)] }
    func pull(event: EventInfo) async throws { pulled.append(event.id) }
    func reload() {
        noteCount = (try? store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM notes") }) ?? 0
    }
    var tabs: [UIElement] { [UIElement(Self.tab, "Notes", ["count": String(noteCount)])] }
    func takeover(now: Date) -> UITree? { nil }
    var frontScreen: (screen: String, elements: [UIElement])? { nil }
    var eventShellElements: [UIElement] { [] }
    var statusElements: [UIElement] { [] }
    func eventChanged() {}
    func clearTransient() {}
    func sessionEnded() { drafts = [] }
    func saveState() throws -> Data { try JSONEncoder().encode(drafts) }
    func restoreState(_ data: Data) throws { drafts = try JSONDecoder().decode([String].self, from: data) }

    /// A note and its outbox entry, in one transaction.
    func add(_ text: String) throws {
        guard let eventId = shell.eventId, let owner = shell.sessionKeeper.userId else { return }
        try store.queue.write { db in
            try db.execute(sql: "INSERT INTO notes (event_id, text) VALUES (?, ?)", arguments: [eventId.wire, text])
            _ = try store.enqueue(
                db, kind: Self.kind, eventId: eventId, idempotencyKey: UUID().uuidString, request: ["text": text],
                owner: owner, now: Date())
        }
    }
}

@Suite("The device shell hosts modules")
struct ShellModuleTests {
    /// Every SQL statement the app's store connection runs from now on, as GRDB traces it.
    @MainActor
    static func traceStatements(_ app: DeviceApp) -> LockedBox<[String]> {
        let statements = LockedBox<[String]>([])
        app.store!.queue.inDatabase { db in
            db.trace { event in statements.value.append("\(event)") }
        }
        return statements
    }

    static let withNotes = DeviceModules(DeviceModules.eventDay.types + [NotesProbeModule.self])

    @Test(
        "shell-module-migrations: a module added by an update migrates an existing store once, after the shell's, under its name"
    )
    @MainActor
    func moduleMigrations() async throws {
        try await DeviceLab.run { lab in
            let first = lab.launch("a")
            #expect(
                first.openReport?.applied == [
                    DeviceSchema.v1, DeviceSchema.v2, DeviceSchema.v3, DeviceSchema.v4, DeviceSchema.v5,
                    DeviceSchema.v6, "checkin: v1 roster version and pending index",
                ])
            let updated = lab.launch("a", modules: Self.withNotes)
            #expect(updated.openReport?.applied == ["notes: v1 notes"])
            #expect(updated.openReport?.upgraded == true)
            let again = lab.launch("a", modules: Self.withNotes)
            #expect(again.openReport?.applied == [])
            let tables = try again.store!.queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master") }
            #expect(tables.contains("notes"))
            // A fresh install runs the shell's foundation first, then the modules' in tab order.
            let fresh = lab.launch("b", modules: Self.withNotes)
            #expect(fresh.openReport?.applied.last == "notes: v1 notes")
            #expect(fresh.openReport?.applied.count == 8)
        }
    }

    @Test(
        "shell-module-plugs-in: a new module's tab, feed, saved state and outbox kind work without touching check-in or kiosk"
    )
    @MainActor
    func modulePlugsIn() async throws {
        try await DeviceLab.run { lab in
            let app = lab.launch("n", modules: Self.withNotes)
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            await app.openEvent(lab.world.event.id)
            let notes = try #require(app.module(NotesProbeModule.self))
            #expect(notes.pulled == [lab.world.event.id], "the shell pulled the module's feed on entering the event")
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.eventShell)
            // Tabs in module order: check-in's first, then the new module's.
            let tabs = tree.elements.filter { $0.id.hasPrefix("native-shell-tab-") || $0.id == NotesProbeModule.tab }
            #expect(tabs.first?.id == UIIdentifier.tabCheckIn)
            #expect(tabs.last?.id == NotesProbeModule.tab)

            // Its entry goes through the shell's outbox, offline first, then sent by kind.
            app.update { $0.online = false }
            try notes.add("Room 4 needs a chair")
            notes.drafts = ["half a thought"]
            app.commit()
            #expect(app.pendingCount == 1)
            #expect(app.tree().element(NotesProbeModule.tab)?.attributes["count"] == "1")

            // A relaunch restores the module's saved state; the entry is still there.
            let relaunched = lab.launch("n", modules: Self.withNotes)
            let restored = try #require(relaunched.module(NotesProbeModule.self))
            #expect(restored.drafts == ["half a thought"])
            #expect(relaunched.pendingCount == 1)
            await relaunched.sync()
            #expect(relaunched.pendingCount == 0, "the note entry was sent by its module's handler and answered")
            #expect(relaunched.ledger.isEmpty == false)

            // The event-day modules do not know the new one: without it the store still opens
            // and check-in still works (the note kind has no handler there; it waits, never lost).
            let withoutNotes = lab.launch("n")
            #expect(withoutNotes.tree().screen == UIIdentifier.eventShell)
        }
    }

    @Test("shell-tree-reads-no-store: every screen renders from its models without one SQL statement")
    @MainActor
    func treeReadsNoStore() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let guest = lab.world.guests[0]
            _ = try await lab.readyDevice("t")
            let scenarios: [(String, @MainActor (DeviceApp) async -> Void)] = [
                ("event shell", { _ in }),
                ("manual entry with suggestions", { $0.lookup(String(guest.name.prefix(3))) }),
                ("confirmation", { $0.choose(guestId: guest.id) }),
                (
                    "result card, offline, pending",
                    { app in
                        app.update { $0.online = false }
                        app.choose(guestId: guest.id)
                        await app.confirm()
                    }
                ),
                ("event picker", { await $0.showEvents() }),
                ("sign-out warning", { await $0.signOut() }),
            ]
            for (name, act) in scenarios {
                // Each on a fresh launch of the same home, whose store is then closed under it.
                let app = lab.launch("t")
                await act(app)
                // Every SQL statement the store's connection runs from here on is counted.
                let statements = Self.traceStatements(app)
                let tree = app.tree()
                #expect(statements.value == [], "rendering \(name) (\(tree.screen)) read the store")
                #expect(!tree.elements.isEmpty)
            }
        }
    }

    @Test(
        "shell-state-one-transaction: an action keeps the states that changed in one transaction; one that changes nothing writes none"
    )
    @MainActor
    func stateOneTransaction() async throws {
        try await DeviceLab.run(guests: 3) { lab in
            let app = try await lab.readyDevice("s")
            app.update { $0.online = false }
            let statements = Self.traceStatements(app)
            // Write transactions (GRDB begins them IMMEDIATE; reads are DEFERRED).
            func commits() -> Int {
                defer { statements.value = [] }
                return statements.value.filter { $0.hasPrefix("BEGIN IMMEDIATE") }.count
            }
            app.choose(guestId: lab.world.guests[0].id)
            #expect(commits() == 1, "the confirmation screen's state")
            await app.confirm(replayAfter: false)
            #expect(commits() == 2, "the check-in with its outbox entry, then the states")
            app.cancel()
            _ = commits()
            app.cancel()
            #expect(commits() == 0, "nothing changed")
        }
    }

    @Test(
        "shell-state-one-transaction: states skipped as unchanged are still restored after a sign-out, a sign-in and a relaunch"
    )
    @MainActor
    func statesAfterSignOut() async throws {
        try await DeviceLab.run(guests: 3) { lab in
            let guest = lab.world.guests[0]
            let app = try await lab.readyDevice("s")
            app.choose(guestId: guest.id)
            await app.signOut()
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            await app.openEvent(lab.world.event.id)
            app.choose(guestId: guest.id)
            #expect(app.tree().screen == UIIdentifier.confirmationScreen)
            let relaunched = lab.launch("s")
            #expect(relaunched.tree().screen == UIIdentifier.confirmationScreen)
        }
    }

    @Test(
        "shell-reload-reads-outbox-by-index: a screen reload with a long offline queue reads the queue by its state index, never all of it"
    )
    @MainActor
    func reloadReadsOutboxByIndex() async throws {
        try await DeviceLab.run(guests: 30) { lab in
            let app = try await lab.readyDevice("q")
            app.update { $0.online = false }
            for guest in lab.world.guests {
                app.choose(guestId: guest.id)
                await app.confirm()
            }
            #expect(app.pendingCount == 30)
            let statements = Self.traceStatements(app)
            app.cancel()
            let outboxReads = statements.value.filter { $0.contains("FROM outbox") }
            #expect(!outboxReads.isEmpty)
            for sql in outboxReads {
                let plan = try await app.store!.queue.read { db in
                    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql.replacingOccurrences(of: "?", with: "NULL"))
                        .map { $0["detail"] as String }
                }
                #expect(!plan.contains { $0.hasPrefix("SCAN outbox") }, "\(sql): \(plan)")
            }
        }
    }
}
