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

/// Storage probes: migrations over a committed v1 store, and encryption at rest.
@Suite("Device storage probes")
struct StorageProbeTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/v1-store")
    static let fixturePending = 12

    /// A copy of the committed v1 store (never the committed files themselves).
    static func copyFixture() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-v1-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: home)
        return home
    }

    @Test("the v1 fixture was written by the v1 code (regenerate with OUTPOST_REGENERATE_DEVICE_FIXTURE=1)")
    func fixtureIsV1() throws {
        if ProcessInfo.processInfo.environment["OUTPOST_REGENERATE_DEVICE_FIXTURE"] == "1" {
            try? FileManager.default.removeItem(at: Self.fixture)
            let keyStore = FileKeyStore(url: Self.fixture.appendingPathComponent("device.key"))
            let (store, _) = try DeviceStore.open(home: Self.fixture, keyStore: keyStore, upTo: DeviceSchema.v1)
            try store.queue.write { db in
                for index in 0..<Self.fixturePending {
                    try LegacyOutboxV1.append(
                        LegacyOutboxV1.Payload(
                            eventId: "0b6a8c1e-2d3f-4a5b-9c7d-ba9876543210",
                            guestId: String(format: "c0ffee00-1234-4abc-8def-%012d", index), deviceId: "dev-fixture-v1",
                            scannedAtMillis: 1_795_000_000_000 + Int64(index) * 1000,
                            method: index.isMultiple(of: 3) ? "manual" : "qr",
                            ticket: nil, note: index == 4 ? "arrived by bus" : nil),
                        db: db, sealer: store.sealer)
                }
            }
            try store.queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
            }
        }
        let applied = try DatabaseQueue(path: Self.fixture.appendingPathComponent("device.sqlite").path).read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
        #expect(applied == [DeviceSchema.v1])
    }

    @Test(
        "app-update-migration and app-update-preserves-queue: the v1 store opens with every pending entry, and the update banner"
    )
    @MainActor
    func appUpdate() async throws {
        let home = try Self.copyFixture()
        defer { try? FileManager.default.removeItem(at: home) }
        let ports = DevicePorts(
            keyStore: FileKeyStore(url: home.appendingPathComponent("device.key")), transport: OfflineTransport())
        let app = try DeviceApp.launch(home: home, ports: ports, modules: .eventDay).opened()
        let tree = app.tree()
        #expect(tree.pending == Self.fixturePending)
        #expect(tree.element(UIIdentifier.appUpdateBanner)?.attributes["pending"] == String(Self.fixturePending))
        let entries = try #require(try app.checkInStore.outbox(owner: nil))
        #expect(entries.count == Self.fixturePending)
        #expect(
            entries.map(\.idempotencyKey).first == "dev-fixture-v1:c0ffee00-1234-4abc-8def-000000000000:1795000000000")
        #expect(
            entries.map(\.request.scannedAt.millisecondsSince1970)
                == (0..<Int64(Self.fixturePending)).map { 1_795_000_000_000 + $0 * 1000 })
        #expect(entries[4].request.note == "arrived by bus")
        #expect(entries[3].request.method == .manual)
        // Shown once: the next launch has no banner, and the entries are still there.
        let again = try DeviceApp.launch(home: home, ports: ports, modules: .eventDay).opened()
        #expect(!again.tree().contains(UIIdentifier.appUpdateBanner))
        #expect(again.tree().pending == Self.fixturePending)
    }

    @Test("app-update-migration-failure: a failing migration shows the error banner and leaves the data intact")
    @MainActor
    func migrationFailure() async throws {
        let home = try Self.copyFixture()
        defer { try? FileManager.default.removeItem(at: home) }
        let ports = DevicePorts(
            keyStore: FileKeyStore(url: home.appendingPathComponent("device.key")), transport: OfflineTransport())
        let failed = DeviceApp.launch(home: home, ports: ports, modules: .eventDay, simulateMigrationFailure: true)
        let tree = failed.tree()
        #expect(tree.screen == UIIdentifier.storageMigrationError)
        #expect(tree.visible == [UIIdentifier.storageMigrationError])
        #expect(tree.element(UIIdentifier.storageMigrationError)?.text.contains("Contact support") == true)
        // Nothing was lost: the failed step rolled back, and a fixed app opens everything.
        #expect(failed.app == nil, "no app runs without its store")
        let fixed = try DeviceApp.launch(home: home, ports: ports, modules: .eventDay).opened()
        #expect(fixed.tree().pending == Self.fixturePending)
        #expect(fixed.tree().screen == UIIdentifier.signIn)
    }

    @Test("local-storage-encrypted-rest: no guest name, e-mail, code, note or token in any file of the device home")
    func encryptedAtRest() async throws {
        try await DeviceLab.run(guests: 4) { lab in
            let app = try await lab.readyDevice("sealed")
            app.update { $0.online = false }
            app.scan(try await lab.ticket(lab.world.guests[0]))
            await app.confirm(note: "SECRET-NOTE-4711")
            app.lookup("guest")
            app.update { $0.online = true }
            await app.sync()
            app.update { $0.online = false }
            app.scan(try await lab.ticket(lab.world.guests[1]))
            await app.confirm(note: "PENDING-NOTE-0815")
            let session = try #require(try app.store.sealedMeta("session", as: SessionState.self))
            var secrets = [
                session.accessToken, session.refreshToken, "SECRET-NOTE-4711", "PENDING-NOTE-0815", "alex@acme.test",
            ]
            for guest in lab.world.guests { secrets += [guest.name, guest.email, guest.code, guest.notes] }
            var files: [URL] = []
            let enumerator = FileManager.default.enumerator(at: lab.home("sealed"), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL { files.append(url) }
            #expect(files.contains { $0.lastPathComponent == "device.sqlite-wal" }, "the WAL is inspected too")
            for file in files {
                guard let bytes = FileManager.default.contents(atPath: file.path) else { continue }
                for secret in secrets {
                    for encoded in [
                        Data(secret.utf8), Data(secret.lowercased().utf8), secret.data(using: .utf16LittleEndian)!,
                    ] {
                        #expect(bytes.range(of: encoded) == nil, "\(file.lastPathComponent) holds \(secret)")
                    }
                }
            }
            let keyFile = lab.home("sealed").appendingPathComponent("device.key")
            let permissions = try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
        }
    }
}
