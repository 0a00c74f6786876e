import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// `outpost serve` in a child process, seeded and driven over HTTP from this process (the bench
/// and the soak). The soak SIGKILLs it and starts it again on the same port and store.
package final class ServerHandle: @unchecked Sendable {
    package static let email = "bench@outpost.test"
    package static let password = "bench-password"

    private var process: Process
    package let url: URL
    package let port: Int
    /// `--sqlite PATH` or `--postgres URL`.
    package let storeArguments: [String]
    /// Further `serve` options, kept for restarts (e.g. the soak's `--access-ttl`).
    package let options: [String]
    /// Where the server's output goes (appended across restarts); nil discards it.
    package let log: URL?
    /// The organizer this handle seeds and reads as (set by ``start(directory:sqlite:postgres:)``
    /// and ``signIn(as:)``).
    package private(set) var organizer: LabClient

    private init(process: Process, port: Int, storeArguments: [String], options: [String], log: URL?) {
        self.process = process
        self.port = port
        self.storeArguments = storeArguments
        self.options = options
        self.log = log
        url = URL(string: "http://127.0.0.1:\(port)")!
        organizer = LabClient(transport: Self.transport(url))
    }

    /// The transport the lab drives a server with: many connections (the ingest load runs up
    /// to 64 at once), generous timeouts (seeding 100,000 guests is one import of 100,000 rows,
    /// which took longer than 60 s on a slower 2-core machine, 2026-11-25).
    package static func transport(_ url: URL) -> any Transport {
        LiveTransport.make(baseURL: url, timeout: 300, connections: 128)
    }

    /// Bootstraps a tenant on the store and starts one server on it, signed in as its organizer.
    package static func start(
        directory: URL, sqlite: Bool, postgres: String? = nil, options: [String] = []
    ) async throws -> ServerHandle {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store =
            sqlite
            ? ["--sqlite", directory.appendingPathComponent("outpost.sqlite").path] : ["--postgres", postgres ?? ""]
        let email = sqlite ? email : "pg-\(UUID().uuidString.prefix(8))@outpost.test"
        try bootstrap(store: store, email: email)
        let server = try await launch(store: store, options: options, port: try freePort(), log: nil)
        try await server.signIn(as: email)
        return server
    }

    /// Creates a tenant and its organizer (`outpost admin bootstrap`) with ``password``.
    package static func bootstrap(store: [String], email: String) throws {
        let (_, status) = try LabProcess.run(
            ["admin", "bootstrap"] + store + [
                "--tenant", "Bench \(UUID().uuidString.prefix(8))", "--email", email, "--password", password,
                "--name", "Bench", "--bcrypt-cost", "4",
            ])
        guard status == 0 else { throw CleanFailure("could not bootstrap the store (\(store.first ?? ""))") }
    }

    /// Starts `outpost serve` on `store` at `port` (with `options`) and waits until it answers /health.
    package static func launch(
        store: [String], options: [String] = [], port: Int, log: URL?
    ) async throws
        -> ServerHandle
    {
        let server = ServerHandle(
            process: try spawn(store: store, options: options, port: port, log: log), port: port,
            storeArguments: store, options: options, log: log)
        try await server.waitUntilHealthy()
        return server
    }

    /// Starts `count` servers on one `store` (with `options`), each on a free port and logging to
    /// `server-N.log` in `logs`; stops the ones started if one fails to.
    package static func launch(
        count: Int, store: [String], options: [String] = [], logs: URL
    ) async throws -> [ServerHandle] {
        var servers: [ServerHandle] = []
        do {
            for index in 0..<count {
                servers.append(
                    try await launch(
                        store: store, options: options, port: try freePort(),
                        log: logs.appendingPathComponent("server-\(index).log")))
            }
        } catch {
            servers.forEach { $0.stop() }
            throw error
        }
        return servers
    }

    private static func spawn(store: [String], options: [String], port: Int, log: URL?) throws -> Process {
        try LabProcess.start(
            ["serve"] + store + options + [
                "--port", String(port), "--bcrypt-cost", "4", "--log-level", log == nil ? "error" : "warning",
            ], output: log.map(LabProcess.Output.append) ?? .discard)
    }

    private func waitUntilHealthy() async throws {
        let process = process
        do {
            try await HealthCheck.wait(for: url, while: { process.isRunning })
        } catch let failure as HealthCheck.NotHealthy {
            throw CleanFailure("\(failure)")
        }
    }

    /// SIGKILLs the server (no drain, no clean shutdown) and waits for it to be gone.
    package func kill() {
        LabProcess.kill(process)
    }

    /// Starts the server again on the same port and store.
    package func restart() async throws {
        process = try Self.spawn(store: storeArguments, options: options, port: port, log: log)
        try await waitUntilHealthy()
    }

    package func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Signs `email` (with ``password``) in as the organizer this handle acts for.
    package func signIn(as email: String) async throws {
        organizer = try await LabClient.signedIn(
            transport: Self.transport(url), LabClient.Credentials(email: email, password: Self.password))
    }

    /// An event with one access type and `guests` imported guests, as the organizer.
    package func seed(guests: Int) async throws -> Seeder.Seed {
        let now = Date()
        return try await Seeder(client: organizer).seed(
            Seeder.Plan(
                event: CreateEventRequest(name: "Bench", startsAt: now, endsAt: now + 3600, timeZone: "UTC"),
                accessTypes: [CreateAccessTypeRequest(name: "General")], guests: guests))
    }

    /// A port nothing listens on now.
    /// A free port for a service that must come back on the same one (a relay that was down):
    /// drawn below the ephemeral range (Linux's starts at 32768), so no server asking for port 0
    /// and no outgoing connection takes it while the service is away. Free when drawn.
    package static func returningPort() throws -> Int {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let port = Int.random(in: 20_000..<32_768, using: &generator)
            if isFree(port) { return port }
        }
        return try freePort()
    }

    /// Whether a listening socket could bind `port` on loopback now.
    static func isFree(_ port: Int) -> Bool { bindLoopback(port: port) != nil }

    package static func freePort() throws -> Int {
        guard let port = bindLoopback(port: 0) else { throw CleanFailure("no free loopback port") }
        return port
    }

    /// Binds a socket to `port` on loopback (0: one the system picks), closes it, and returns the
    /// port it had; nil when the bind failed.
    private static func bindLoopback(port: Int) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { return nil }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
