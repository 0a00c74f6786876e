import Foundation
import HTTPTypes
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer
@testable import OutpostShell

/// A real server on a loopback port (in-process, with an injected clock) and device homes in a
/// temporary directory: the device engine's tests drive real HTTP end to end.
struct DeviceLab: Sendable {
    let api: TestAPI
    let world: World
    let serverURL: URL
    let root: URL

    static let staffPassword = "staff-password"

    /// Runs `body` with a fresh server (SQLite in memory) seeded with ``World`` and `guests` guests.
    static func run(guests: Int = 3, _ body: @MainActor @Sendable (DeviceLab) async throws -> Void) async throws {
        try await withServer(location: .sqliteInMemory, live: true) { api in
            let port = try #require(api.client.port)
            let world = try await World.make(api, guests: guests)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "outpost-devices-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let lab = DeviceLab(api: api, world: world, serverURL: URL(string: "http://127.0.0.1:\(port)")!, root: root)
            try await body(lab)
        }
    }

    func home(_ name: String) -> URL { root.appendingPathComponent(name) }

    /// Device `name`'s key store (the master key and the records the OS keeps for the app).
    func keyStore(_ name: String) -> FileKeyStore {
        FileKeyStore(url: home(name).appendingPathComponent("device.key"))
    }

    /// Launches (or relaunches) the app of device `name`.
    @MainActor
    func launch(
        _ name: String, online: Bool = true, camera: CameraPermission = .granted,
        platform: PlatformInfo = PlatformInfo(os: .ios, version: "17.5"), clock: WallClock = .system,
        monotonic: MonotonicClock = .system, battery: Int = 100,
        modules: DeviceModules = .eventDay, biometrics: (any Biometrics)? = nil,
        memory: any ProcessMemory = InProcessMemory(), gps: @escaping @Sendable () -> GeoFix? = { nil },
        locationPermission: @escaping @Sendable () -> LocationPermission = { .always }, language: AppLanguage = .en,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        transport: (@Sendable (any Transport) -> any Transport)? = nil, printers: any BadgePrinters = NoBadgePrinters()
    ) throws -> DeviceApp {
        let ports = DevicePorts(
            keyStore: keyStore(name), transport: OfflineTransport(),
            camera: { camera }, platform: platform, clock: clock, monotonic: monotonic, random: { $0.lowerBound },
            online: online, battery: { battery }, biometrics: biometrics, memory: memory, gps: gps,
            locationPermission: locationPermission, language: language, timeZone: timeZone, printers: printers)
        return try DeviceApp.launch(
            home: home(name), ports: ports, modules: modules,
            makeTransport: { url in
                let live = LiveTransport.make(baseURL: url, timeout: 30)
                return transport?(live) ?? live
            }
        ).opened()
    }

    /// Launches device `name` with its live transport wrapped by `wrap`; the box holds the wrapper
    /// once the app makes it (at its first request), for the test to steer or read.
    @MainActor
    func launch<Wrapper: Transport>(
        _ name: String, modules: DeviceModules = .eventDay,
        wrapping wrap: @escaping @Sendable (any Transport) -> Wrapper
    ) throws -> (DeviceApp, LockedBox<Wrapper?>) {
        let box = LockedBox<Wrapper?>(nil)
        let app = try launch(
            name, modules: modules,
            transport: { inner in
                let made = wrap(inner)
                box.value = made
                return made
            })
        return (app, box)
    }

    /// A device signed in as staff member Alex, inside the world's event with its roster synced.
    @MainActor
    func readyDevice(
        _ name: String, email: String = "alex@acme.test", clock: WallClock = .system,
        transport: (@Sendable (any Transport) -> any Transport)? = nil,
        printers: any BadgePrinters = NoBadgePrinters()
    ) async throws -> DeviceApp {
        let app = try launch(name, clock: clock, transport: transport, printers: printers)
        await app.signIn(server: serverURL, email: email, password: Self.staffPassword)
        try #require(app.isSignedIn, "sign-in failed: \(app.tree().elements)")
        await app.openEvent(world.event.id)
        try #require(app.tree().screen == UIIdentifier.eventShell)
        return app
    }

    /// Imports `count` guests ("Guest N", guestN@example.org, access type General) into the
    /// world's event, straight into the store in chunks of the import's own transaction size.
    /// Over HTTP the import yields between chunks of 10 to the rest of the suite on two cores,
    /// and twice in one day a 4,500-row import there outlasted its 300 s timeout; these tests
    /// are about roster sync, not the import (its own tests keep the HTTP path).
    func importGuests(_ count: Int) async throws {
        let organizer = Caller(
            userId: world.organizer.user.id, tenantId: world.organizer.user.tenantId, role: .organizer)
        let guests = (0..<count).map {
            NewGuest(name: "Guest \($0)", email: "guest\($0)@example.org", accessTypeId: world.accessType.id, notes: "")
        }
        for start in stride(from: 0, to: count, by: Store.maxImportChunk) {
            let written = try await api.store.importGuests(
                eventId: world.event.id, guests: Array(guests[start..<min(start + Store.maxImportChunk, count)]),
                caller: organizer)
            try #require(written.imported == min(Store.maxImportChunk, count - start), "import: \(written)")
        }
    }

    /// The signed ticket text of a guest.
    func ticket(_ guest: GuestInfo, event: EventInfo? = nil, as session: Session? = nil) async throws -> String {
        // A fresh sign-in, so tests that move the server clock still get tickets.
        let signedIn = try await api.signIn(email: (session ?? world.organizer).user.email, password: "organizer-pass")
        let response = try await api.request(
            .get, "/v1/events/\((event ?? world.event).id)/guests/\(guest.id)/ticket", token: signedIn.accessToken)
        try #require(response.status == 200, "ticket: \(response.status)")
        return response.text.trimmingCharacters(in: .newlines)
    }

    /// Server-side check-in rows of the world's event: guest id → count.
    func serverCheckIns() async throws -> [GuestID: Int] {
        try await serverCheckIns(per: "COUNT(*)").mapValues { Int($0) }
    }

    /// The server's time of each guest's check-in in the world's event.
    func serverCheckInTimes() async throws -> [GuestID: Date] {
        try await serverCheckIns(per: "MIN(at)").mapValues(Date.init(millisecondsSince1970:))
    }

    /// Server-side check-in rows of the world's event: guest id → `aggregate` (an integer).
    private func serverCheckIns(per aggregate: String) async throws -> [GuestID: Int64] {
        let rows = try await api.store.database.read { connection in
            try await connection.query(
                "SELECT guest_id, \(aggregate) AS n FROM checkins WHERE event_id = ? GROUP BY guest_id",
                [.text(world.event.id.wire)])
        }
        var values: [GuestID: Int64] = [:]
        for row in rows {
            if case .text(let text) = try row.value("guest_id"), let guest = GuestID(wire: text),
                case .int(let value) = try row.value("n")
            {
                values[guest] = value
            }
        }
        return values
    }

    /// Revokes every refresh token family on the server (an administrator ending all sessions).
    func revokeEverySignIn() async throws {
        try await api.store.database.transaction { connection in
            try await connection.execute("UPDATE refresh_tokens SET revoked_at = 1", [])
        }
    }

    /// The event's audit log as the organizer sees it.
    func audit() async throws -> [AuditEntry] {
        try await api.audit(
            try await api.signIn(email: "org@acme.test", password: "organizer-pass"), event: world.event)
    }
}

/// A transport that records every request it passes on.
final class RecordingTransport: Transport, @unchecked Sendable {
    let inner: any Transport
    private let lock = NSLock()
    private var recorded: [TransportRequest] = []

    init(_ inner: any Transport) { self.inner = inner }

    var requests: [TransportRequest] { lock.withLock { recorded } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock { recorded.append(request) }
        return try await inner.send(request)
    }
}

/// Drops requests before they leave and answers after the server applied them, each with a
/// seeded probability.
final class FlakyTransport: Transport, @unchecked Sendable {
    let inner: any Transport
    let dropRequests: Double
    let dropResponses: Double
    private let lock = NSLock()
    private var random: SeededRandom
    private(set) var droppedRequests = 0
    private(set) var droppedResponses = 0

    init(_ inner: any Transport, dropRequests: Double, dropResponses: Double, seed: UInt64) {
        self.inner = inner
        self.dropRequests = dropRequests
        self.dropResponses = dropResponses
        random = SeededRandom(seed: seed)
    }

    private func roll(_ probability: Double) -> Bool {
        lock.withLock { Double.random(in: 0..<1, using: &random) < probability }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if roll(dropRequests) {
            lock.withLock { droppedRequests += 1 }
            throw TransportError.connectionFailed("request dropped")
        }
        let response = try await inner.send(request)
        if roll(dropResponses) {
            lock.withLock { droppedResponses += 1 }
            throw TransportError.timedOut
        }
        return response
    }
}

/// Holds every request while closed (a server that hangs), and lets them through once opened.
final class TransportGate: @unchecked Sendable {
    private let lock = NSLock()
    private var closed = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var heldWatchers: [CheckedContinuation<Void, Never>] = []

    func close() { lock.withLock { closed = true } }

    func open() {
        let waiting = lock.withLock {
            closed = false
            defer { held = [] }
            return held
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Passes at once while open; while closed, waits until opened.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (passNow, watchers): (Bool, [CheckedContinuation<Void, Never>]) = lock.withLock {
                guard closed else { return (true, []) }
                held.append(continuation)
                defer { heldWatchers = [] }
                return (false, heldWatchers)
            }
            for watcher in watchers { watcher.resume() }
            if passNow { continuation.resume() }
        }
    }

    /// Returns once at least one request is being held.
    func waitForHeldRequest() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock {
                if !held.isEmpty { return true }
                heldWatchers.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// A transport behind a ``TransportGate``.
struct GatedTransport: Transport {
    let inner: any Transport
    let gate: TransportGate

    init(_ inner: any Transport, gate: TransportGate) {
        self.inner = inner
        self.gate = gate
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        await gate.pass()
        return try await inner.send(request)
    }
}

/// Never answers (until cancelled): a server that hangs.
struct HangingTransport: Transport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await Task.sleep(for: .seconds(3600))
        throw TransportError.timedOut
    }
}

/// The network drops mid-session: after `allowed` requests whose path starts with `prefix`,
/// every request fails to connect until ``restore()``.
final class DroppingTransport: Transport, @unchecked Sendable {
    let inner: any Transport
    let prefix: String
    private let lock = NSLock()
    private var allowed: Int
    private var dropped = false

    init(_ inner: any Transport, after allowed: Int, of prefix: String) {
        self.inner = inner
        self.allowed = allowed
        self.prefix = prefix
    }

    func restore() {
        lock.withLock {
            dropped = false
            allowed = .max
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let fails = lock.withLock { () -> Bool in
            if dropped { return true }
            guard request.path.hasPrefix(prefix) else { return false }
            if allowed == 0 {
                dropped = true
                return true
            }
            allowed -= 1
            return false
        }
        if fails { throw TransportError.connectionFailed("the network dropped") }
        return try await inner.send(request)
    }
}

extension DeviceApp {
    /// Check-in's own handle on this device's store (the roster, its index, its outbox entries).
    var checkInStore: ModuleStore<CheckInModule> { ModuleStore(store) }
    /// Time tracking's own handle on this device's store.
    var trackingStore: ModuleStore<TrackingModule> { ModuleStore(store) }
}
