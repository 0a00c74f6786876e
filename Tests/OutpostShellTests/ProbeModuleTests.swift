import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Logging
import OutpostCore
import OutpostProtocol
import OutpostServer
import Testing

@testable import OutpostShell

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

    let context: ModuleContext
    let store: ModuleStore<NotesProbeModule>
    /// Saved and restored by the shell.
    var drafts: [String] = []
    /// Events whose feed the shell pulled, in order.
    var pulled: [EventID] = []
    private var noteCount = 0

    init(context: ModuleContext, store: ModuleStore<NotesProbeModule>) {
        self.context = context
        self.store = store
    }

    struct Handler: OutboxEntryHandler {
        let store: ModuleStore<NotesProbeModule>
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
    func takeover(now: Date) -> (any ScreenModel)? { nil }
    var frontScreen: (any ScreenModel)? { nil }
    var eventShellParts: [any ScreenPart] { [] }
    var statusElements: [UIElement] { [] }
    func eventChanged() {}
    func clearTransient() {}
    func sessionEnded() { drafts = [] }
    func saveState() throws -> Data { try JSONEncoder().encode(drafts) }
    func restoreState(_ data: Data) throws { drafts = try JSONDecoder().decode([String].self, from: data) }

    /// A note and its outbox entry, in one transaction.
    func add(_ text: String) throws {
        guard let eventId = context.eventId, let owner = context.userId else { return }
        try store.queue.write { db in
            try db.execute(sql: "INSERT INTO notes (event_id, text) VALUES (?, ?)", arguments: [eventId.wire, text])
            _ = try store.enqueue(
                db, kind: Self.kind, eventId: eventId, idempotencyKey: UUID().uuidString, request: ["text": text],
                owner: owner, now: Date())
        }
    }
}

/// A real server on a loopback port and an organizer with one event, made without any device
/// module or the lab's client: this target depends on the shell and the server only.
struct ShellLab: Sendable {
    let serverURL: URL
    let event: EventInfo
    let root: URL

    static let email = "olivia@acme.test"
    static let password = "organizer-pass"

    static func run(_ body: @MainActor @Sendable (ShellLab) async throws -> Void) async throws {
        var logger = Logger(label: "outpost-shell-test")
        logger.logLevel = .warning
        let configuration = ServerConfiguration(store: .sqliteInMemory, port: 0, bcryptCost: 4)
        let parts = try OutpostServer.makeParts(configuration, logger: logger)
        let app = try OutpostServer.buildApplication(configuration, parts: parts, logger: logger)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let serverURL = URL(string: "http://127.0.0.1:\(port)")!
            _ = try await OutpostServer.bootstrap(
                store: parts.store, tenant: "Acme", email: email, password: password, name: "Olivia", bcryptCost: 4)
            // The organizer makes the event through the shell's own client.
            let client = APIClient(transport: LiveTransport.make(baseURL: serverURL))
            let pair = try await client.signIn(email: email, password: password, deviceId: "laptop")
            let created = try await LiveTransport.make(baseURL: serverURL).send(
                TransportRequest(
                    method: "POST", path: "/v1/events",
                    headers: ["Content-Type": "application/json", "Authorization": "Bearer \(pair.accessToken)"],
                    body: Data(
                        #"{"name":"Gala","startsAt":"2026-12-12T17:00:00.000Z","endsAt":"2026-12-12T23:00:00.000Z","timeZone":"UTC"}"#
                            .utf8)))
            let event = try APIClient.decode(EventInfo.self, created)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "outpost-shell-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            try await body(ShellLab(serverURL: serverURL, event: event, root: root))
        }
    }

    /// Launches (or relaunches) device `name` with `modules`.
    @MainActor
    func launch(_ name: String, modules: DeviceModules, online: Bool = true) throws -> DeviceApp {
        let home = root.appendingPathComponent(name)
        let ports = DevicePorts(
            keyStore: FileKeyStore(url: home.appendingPathComponent("device.key")), transport: OfflineTransport(),
            camera: { .granted }, platform: PlatformInfo(os: .ios, version: "17.5"), clock: .system,
            monotonic: .system, random: { $0.lowerBound }, online: online, battery: { 100 }, biometrics: nil,
            memory: InProcessMemory(), gps: { nil }, locationPermission: { .always }, language: .en,
            timeZone: TimeZone(identifier: "UTC")!)
        return try DeviceApp.launch(home: home, ports: ports, modules: modules).opened()
    }

    /// Device `name` with only the notes probe, signed in as Olivia and inside the lab's event.
    @MainActor
    func notesDevice(_ name: String) async throws -> DeviceApp {
        let app = try launch(name, modules: ProbeModuleTests.notesOnly)
        await app.signIn(server: serverURL, email: Self.email, password: Self.password)
        await app.openEvent(event.id)
        return app
    }
}

@Suite("The shell hosts a module it never heard of (this target imports no module)")
struct ProbeModuleTests {
    static let notesOnly = DeviceModules([NotesProbeModule.self])

    @Test(
        "shell-module-migrations: a module added by an update migrates an existing store once, after the shell's, under its name"
    )
    @MainActor
    func moduleMigrations() async throws {
        try await ShellLab.run { lab in
            let first = try lab.launch("a", modules: DeviceModules([]))
            #expect(
                first.openReport.applied == [
                    DeviceSchema.v1, DeviceSchema.v2, DeviceSchema.v3, DeviceSchema.v4, DeviceSchema.v5,
                    DeviceSchema.v6, DeviceSchema.v7, DeviceSchema.v8,
                ])
            let updated = try lab.launch("a", modules: Self.notesOnly)
            #expect(updated.openReport.applied == ["notes: v1 notes"])
            #expect(updated.openReport.upgraded == true)
            let again = try lab.launch("a", modules: Self.notesOnly)
            #expect(again.openReport.applied == [])
            let tables = try again.store.queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master") }
            #expect(tables.contains("notes"))
            // A fresh install runs the shell's foundation first, then the module's.
            let fresh = try lab.launch("b", modules: Self.notesOnly)
            #expect(fresh.openReport.applied.last == "notes: v1 notes")
            #expect(fresh.openReport.applied.count == 9)
        }
    }

    @Test(
        "shell-module-plugs-in: a module's tab, feed, saved state and outbox kind work in a shell that names no module"
    )
    @MainActor
    func modulePlugsIn() async throws {
        try await ShellLab.run { lab in
            let app = try await lab.notesDevice("n")
            let notes = try #require(app.module(NotesProbeModule.self))
            #expect(notes.pulled == [lab.event.id], "the shell pulled the module's feed on entering the event")
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.eventShell)
            #expect(tree.element(NotesProbeModule.tab) != nil, "the module's tab is in the event shell")

            // Its entry goes through the shell's outbox, offline first, then sent by kind.
            app.update { $0.online = false }
            try notes.add("Room 4 needs a chair")
            notes.drafts = ["half a thought"]
            app.commit()
            #expect(app.pendingCount == 1)
            #expect(app.tree().element(NotesProbeModule.tab)?.attributes["count"] == "1")
            // The shell's words name the module's things: "1 note", never check-ins.
            let waiting = app.tree().elements.map(\.text).joined(separator: " ")
            #expect(waiting.contains("1 note waiting to sync") && !waiting.contains("check-in"), "\(waiting)")

            // A relaunch restores the module's saved state; the entry is still there.
            let relaunched = try lab.launch("n", modules: Self.notesOnly)
            let restored = try #require(relaunched.module(NotesProbeModule.self))
            #expect(restored.drafts == ["half a thought"])
            #expect(relaunched.pendingCount == 1)
            await relaunched.sync()
            #expect(relaunched.pendingCount == 0, "the note entry was sent by its module's handler and answered")

            // A shell without the module still opens the store; the note entry waits, never lost.
            let withoutNotes = try lab.launch("n", modules: DeviceModules([]))
            #expect(withoutNotes.tree().screen == UIIdentifier.eventShell)

            // A sign-out with a note waiting warns in the module's words.
            let again = try lab.launch("n", modules: Self.notesOnly)
            again.update { $0.online = false }
            try #require(again.module(NotesProbeModule.self)).add("Wheelchair at row 1")
            again.commit()
            await again.signOut()
            let warning = again.tree()
            let words = warning.elements.map(\.text).joined(separator: " ") + " " + (again.refusal ?? "")
            #expect(warning.screen == UIIdentifier.signOutPendingWarning)
            #expect(words.contains("1 note") && !words.contains("check-in"), "\(words)")
            await again.signOut(.wait)
            let still = again.tree().elements.map(\.text).joined(separator: " ")
            #expect(still.contains("Still waiting: the notes could not be sent yet."), "\(still)")
            #expect(!still.contains("check-in"), "\(still)")
        }
    }
}
