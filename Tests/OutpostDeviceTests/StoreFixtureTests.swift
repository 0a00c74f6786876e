import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// Device stores as earlier code wrote them, committed under `Fixtures/`, opened by today's
/// code: every row is kept. The v1 store was written by the v1 code; the stores of v2 to v6 by
/// the code of their day migrating that v1 store up to them; `stores/2026-11-26-all-modules` by
/// the app of 2026-11-26 (the shell and its four modules in one target) on a live server: a
/// mentor's pending activity, a worker's location, a door's roster with one check-in answered and
/// one pending. Regenerate (with that code, never today's) with OUTPOST_REGENERATE_DEVICE_FIXTURES=1.
@Suite("Device stores of every earlier schema")
struct StoreFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")
    static let stores = fixtures.appendingPathComponent("stores")
    static var regenerating: Bool { ProcessInfo.processInfo.environment["OUTPOST_REGENERATE_DEVICE_FIXTURES"] == "1" }

    /// The shell's foundation migrations a store can have stopped at, each a fixture folder.
    static let shellVersions: [(folder: String, identifier: String)] = [
        ("v2", "v2 outbox columns and stored answers"), ("v3", "v3 plaintext local-pending flag on guests"),
        ("v4", "v4 outbox entries have an owner and a kind"), ("v5", "v5 outbox entries without an event"),
        ("v6", "v6 outbox state index"),
    ]
    static let allModules = "2026-11-26-all-modules"

    /// Every committed store, oldest first.
    static var all: [URL] {
        [fixtures.appendingPathComponent("v1-store")]
            + shellVersions.map { stores.appendingPathComponent($0.folder) }
            + [stores.appendingPathComponent(allModules)]
    }

    /// One table as a snapshot sees it: its columns, its rows as text, its rows' primary keys.
    struct Table {
        var columns: [String]
        var rows: Set<String>
        var keys: Set<String>
    }

    /// Every table of the store (GRDB's own aside).
    static func snapshot(_ db: Database) throws -> [String: Table] {
        let tables = try String.fetchAll(
            db,
            sql:
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'"
        )
        var result: [String: Table] = [:]
        for table in tables {
            let columns = try db.columns(in: table).map(\.name).sorted()
            let key = try db.primaryKey(table).columns
            var rows: Set<String> = []
            var keys: Set<String> = []
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") {
                rows.insert(columns.map { "\($0)=\(rendered(row[$0]))" }.joined(separator: "|"))
                keys.insert(key.map { rendered(row[$0]) }.joined(separator: "|"))
            }
            result[table] = Table(columns: columns, rows: rows, keys: keys)
        }
        return result
    }

    /// A value as the snapshot compares it. Sixteen bytes read as the id they are, in its text:
    /// a migration that keeps ids in their 16 bytes keeps the same ids.
    static func rendered(_ value: DatabaseValue) -> String {
        if case .blob(let bytes) = value.storage, let uuid = UUID(bytes: bytes) {
            return "\(uuid.lowercasedString.databaseValue)"
        }
        return "\(value)"
    }

    /// Tables of state the app saves again at every launch (sealed anew, so the bytes differ):
    /// their rows stay by key, not byte for byte.
    static let resavedState: Set<String> = ["meta", "track_engines"]

    /// ``snapshot(_:)`` of `queue`, read synchronously.
    static func snapshot(of queue: DatabaseQueue) throws -> [String: Table] {
        try queue.read(snapshot)
    }

    static func copy(_ fixture: URL) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-fixture-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: home)
        return home
    }

    /// The store file as one file: the write-ahead log folded in, the journal off.
    static func fold(_ queue: DatabaseQueue) throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        }
    }

    @Test(
        "device-migration-every-fixture: each committed store of an earlier schema opens with today's shell and modules, every row of every table kept"
    )
    @MainActor
    func everyFixture() async throws {
        if Self.regenerating { try await Self.regenerate() }
        for fixture in Self.all {
            let home = try Self.copy(fixture)
            defer { try? FileManager.default.removeItem(at: home) }
            let before = try Self.snapshot(of: DatabaseQueue(path: home.appendingPathComponent("device.sqlite").path))
            let pendingBefore = before["outbox"]?.rows.count ?? 0
            #expect(pendingBefore > 0, "\(fixture.lastPathComponent) holds entries to keep")
            let launched = DeviceApp.launch(
                home: home,
                ports: DevicePorts(
                    keyStore: FileKeyStore(url: home.appendingPathComponent("device.key")),
                    transport: OfflineTransport(),
                    online: false),
                modules: .all)
            let app = try launched.opened()
            let store = app.store
            let after = try Self.snapshot(of: store.queue)
            for (table, old) in before {
                let new = try #require(after[table], "\(fixture.lastPathComponent): table \(table) is gone")
                let name = "\(fixture.lastPathComponent): \(table)"
                if new.columns == old.columns {
                    #expect(old.keys.isSubset(of: new.keys), "\(name) lost rows")
                    if !Self.resavedState.contains(table) {
                        #expect(old.rows.isSubset(of: new.rows), "\(name) changed rows")
                    }
                } else {
                    // A migration reshaped the table (v2's outbox): the rows are carried, not dropped.
                    #expect(new.rows.count >= old.rows.count, "\(name) lost rows")
                }
            }
            #expect(try ModuleStore<CheckInModule>(store).outbox(state: .pending, owner: nil).count <= pendingBefore)
            #expect(try store.outboxRows().count == pendingBefore, "\(fixture.lastPathComponent): the outbox")
        }
    }

    @Test(
        "device-migration-every-fixture: the fixtures are what their code wrote (every shell version, then all modules)"
    )
    func fixturesAreTheirVersions() throws {
        for (index, fixture) in Self.all.enumerated() {
            let applied = try DatabaseQueue(path: fixture.appendingPathComponent("device.sqlite").path).read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
            switch index {
            case 0: #expect(applied == ["v1"])
            case 1...Self.shellVersions.count:
                #expect(applied == ["v1"] + Self.shellVersions.prefix(index).map(\.identifier))
            default:
                #expect(applied.count > 6 + 10, "every module's migrations: \(applied)")
                #expect(applied.contains("checkin: v1 roster version and pending index"))
            }
        }
    }

    /// Writes the fixtures with the code under test: run it only with the code whose stores
    /// they stand for.
    @MainActor
    static func regenerate() async throws {
        try? FileManager.default.removeItem(at: stores)
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        for version in shellVersions {
            let home = stores.appendingPathComponent(version.folder)
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("v1-store"), to: home)
            let (store, _) = try DeviceStore.open(
                home: home, keyStore: FileKeyStore(url: home.appendingPathComponent("device.key")),
                upTo: version.identifier)
            try fold(store.queue)
        }
        try await DeviceLab.run(guests: 4) { lab in
            let name = allModules
            // A peer mentor's activity, registered offline (pending, owned by her).
            let mentor = try await MentorSetUp.make(lab)
            let phone = try lab.launch(name, modules: .all)
            await phone.signIn(server: lab.serverURL, email: "mia@acme.test", password: DeviceLab.staffPassword)
            try #require(phone.isSignedIn)
            phone.update { $0.online = false }
            await mentor.register(phone, mentor.ingrid, notes: "Tea and the photo album", minutes: 50)
            // A care worker's work location.
            _ = try await lab.api.createUser(
                lab.world.organizer, email: "wanda@acme.test", role: .worker, name: "Wanda")
            phone.update { $0.online = true }
            await phone.signIn(server: lab.serverURL, email: "wanda@acme.test", password: DeviceLab.staffPassword)
            try #require(phone.isSignedIn)
            phone.addWorkLocation(name: "Care home Nord", latitude: 52.52, longitude: 13.405, radius: 100)
            // The door: the roster, one check-in answered, one pending.
            await phone.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            await phone.openEvent(lab.world.event.id)
            try #require(phone.tree().screen == UIIdentifier.eventShell)
            phone.choose(guestId: lab.world.guests[0].id)
            await phone.confirm()
            phone.update { $0.online = false }
            phone.choose(guestId: lab.world.guests[1].id)
            await phone.confirm(note: "arrived by bus")
            try fold(phone.store.queue)
            let home = lab.home(name)
            try FileManager.default.copyItem(at: home, to: stores.appendingPathComponent(name))
        }
        for leftover in ["device.sqlite-wal", "device.sqlite-shm"] {
            for folder in shellVersions.map(\.folder) + [allModules] {
                try? FileManager.default.removeItem(
                    at: stores.appendingPathComponent(folder).appendingPathComponent(leftover))
            }
        }
    }
}
