import Foundation
import OutpostCore
import OutpostProtocol

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `outpost serve` in a child process, seeded and driven over HTTP from this process (the bench
/// and the soak). The soak SIGKILLs it and starts it again on the same port and store.
final class ServerHandle: @unchecked Sendable {
    static let email = "bench@outpost.test"
    static let password = "bench-password"

    private(set) var process: Process
    let url: URL
    let port: Int
    let session: URLSession
    /// `--sqlite PATH` or `--postgres URL`.
    let storeArguments: [String]
    /// Further `serve` options, kept for restarts (e.g. the soak's `--access-ttl`).
    let options: [String]
    /// Where the server's output goes (appended across restarts); nil discards it.
    let log: URL?

    struct Seed {
        var eventId: String
        var guestIds: [String]
        var names: [String]
        var codes: [String]
    }

    struct Ingest {
        var rate: Double
        var latencyP99: Double
        var count: Int
        var errors: Int
    }

    private init(process: Process, port: Int, storeArguments: [String], options: [String], log: URL?) {
        self.process = process
        self.port = port
        self.storeArguments = storeArguments
        self.options = options
        self.log = log
        url = URL(string: "http://127.0.0.1:\(port)")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 128
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    static var binary: URL {
        URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
    }

    /// Bootstraps a tenant on the store and starts one server on it.
    static func start(directory: URL, sqlite: Bool, postgres: String? = nil) async throws -> ServerHandle {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store =
            sqlite
            ? ["--sqlite", directory.appendingPathComponent("outpost.sqlite").path] : ["--postgres", postgres ?? ""]
        let email = sqlite ? email : "pg-\(UUID().uuidString.prefix(8))@outpost.test"
        try bootstrap(store: store, email: email)
        let server = try await launch(store: store, port: try freePort(), log: nil)
        server.lastEmail = email
        return server
    }

    /// Creates a tenant and its organizer (`outpost admin bootstrap`) with ``password``.
    static func bootstrap(store: [String], email: String) throws {
        let bootstrap = Process()
        bootstrap.executableURL = binary
        bootstrap.arguments =
            ["admin", "bootstrap"] + store + [
                "--tenant", "Bench \(UUID().uuidString.prefix(8))", "--email", email, "--password", password,
                "--name", "Bench", "--bcrypt-cost", "4",
            ]
        bootstrap.standardOutput = FileHandle.nullDevice
        try bootstrap.run()
        bootstrap.waitUntilExit()
        guard bootstrap.terminationStatus == 0 else {
            throw CleanFailure("could not bootstrap the store (\(store.first ?? ""))")
        }
    }

    /// Starts `outpost serve` on `store` at `port` (with `options`) and waits until it answers /health.
    static func launch(store: [String], options: [String] = [], port: Int, log: URL?) async throws -> ServerHandle {
        let server = ServerHandle(
            process: try spawn(store: store, options: options, port: port, log: log), port: port,
            storeArguments: store, options: options, log: log)
        try await server.waitUntilHealthy()
        return server
    }

    private static func spawn(store: [String], options: [String], port: Int, log: URL?) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments =
            ["serve"] + store + options + [
                "--port", String(port), "--bcrypt-cost", "4", "--log-level", log == nil ? "error" : "warning",
            ]
        if let log {
            if !FileManager.default.fileExists(atPath: log.path) {
                FileManager.default.createFile(atPath: log.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: log)
            handle.seekToEndOfFile()
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
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
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Starts the server again on the same port and store.
    func restart() async throws {
        process = try Self.spawn(store: storeArguments, options: options, port: port, log: log)
        try await waitUntilHealthy()
    }

    var lastEmail: String?
    /// The organizer's access token (guarded: ticket downloads run eight at a time).
    var token: String {
        get { tokenLock.withLock { storedToken } }
        set { tokenLock.withLock { storedToken = newValue } }
    }
    private var storedToken = ""
    private let tokenLock = NSLock()

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// One request as the organizer. Access tokens may be short (the soak's `--access-ttl`): a
    /// 401 signs the organizer in again and the request is sent once more.
    func request(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> (Data, Int) {
        let answer = try await send(method, path, body: body, headers: headers)
        guard answer.1 == 401, !path.hasPrefix("/v1/auth/"), !token.isEmpty else { return answer }
        try await signIn()
        return try await send(method, path, body: body, headers: headers)
    }

    private func send(
        _ method: String, _ path: String, body: Data?, headers: [String: String]
    ) async throws -> (Data, Int) {
        var request = URLRequest(url: URL(string: url.absoluteString + path)!)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if !token.isEmpty { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    /// Signs the organizer in (again): later requests carry the new access token.
    func signIn() async throws {
        let (data, status) = try await request(
            "POST", "/v1/auth/signin",
            body: try OutpostJSON.encode(
                SignInRequest(email: lastEmail ?? Self.email, password: Self.password, deviceId: "bench")))
        guard status == 200 else { throw CleanFailure("the organizer could not sign in (\(status))") }
        token = try OutpostJSON.decode(TokenPair.self, from: data).accessToken
    }

    /// A check-in staff account with ``password``, on the staff of `eventId`.
    func addStaff(email: String, eventId: String) async throws {
        let (data, status) = try await request(
            "POST", "/v1/users",
            body: try OutpostJSON.encode(
                CreateUserRequest(email: email, name: "Soak Staff", role: .checkinStaff, password: Self.password)))
        guard status == 201 else { throw CleanFailure("could not create the staff user (\(status))") }
        let user = try OutpostJSON.decode(UserInfo.self, from: data)
        let (_, assigned) = try await request("PUT", "/v1/events/\(eventId)/staff/\(user.id)")
        guard (200..<300).contains(assigned) else { throw CleanFailure("could not add the staff user (\(assigned))") }
    }

    /// An event with one access type and `guests` imported guests.
    func seed(guests: Int) async throws -> Seed {
        try await signIn()
        let now = Date()
        let (eventData, _) = try await request(
            "POST", "/v1/events",
            body: try OutpostJSON.encode(
                CreateEventRequest(name: "Bench", startsAt: now, endsAt: now + 3600, timeZone: "UTC")))
        let event = try OutpostJSON.decode(EventInfo.self, from: eventData)
        _ = try await request(
            "POST", "/v1/events/\(event.id)/access-types",
            body: try OutpostJSON.encode(CreateAccessTypeRequest(name: "General")))
        var csv = "name,email,access_type,notes\n"
        var random = SeededRandom(seed: 42)
        let first = [
            "Åse", "Bjørn", "Zoë", "José", "Mei", "Kwame", "Ingrid", "Priya", "Ólafur", "Noémie", "Tomás", "Yuki",
        ]
        let last = [
            "Nordmann", "Ødegård", "García", "Chen", "Mensah", "Larsen", "Sharma", "Dubois", "Tanaka", "Müller",
        ]
        for index in 0..<guests {
            csv +=
                "\(first.randomElement(using: &random)!) \(last.randomElement(using: &random)!),g\(index)@example.org,General,\n"
        }
        var importRequest = URLRequest(url: URL(string: url.absoluteString + "/v1/events/\(event.id)/guests:import")!)
        importRequest.httpMethod = "POST"
        importRequest.httpBody = Data(csv.utf8)
        importRequest.setValue("text/csv", forHTTPHeaderField: "Content-Type")
        importRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        _ = try await session.data(for: importRequest)
        var ids: [String] = []
        var names: [String] = []
        var codes: [String] = []
        _ = try await downloadRoster(eventId: event.id, limit: 2000) { page in
            ids += page.guests.map(\.id)
            names += page.guests.map(\.name)
            codes += page.guests.map(\.code)
        }
        return Seed(eventId: event.id, guestIds: ids, names: names, codes: codes)
    }

    /// Downloads the whole roster page by page, as a device's first sync does: guests, pages, seconds.
    func downloadRoster(
        eventId: String, limit: Int, onPage: (RosterPage) -> Void = { _ in }
    ) async throws -> (guests: Int, pages: Int, seconds: Double) {
        let start = ContinuousClock.now
        var guests = 0
        var pages = 0
        var cursor: String?
        repeat {
            let (data, status) = try await request(
                "GET", "/v1/events/\(eventId)/roster?limit=\(limit)" + (cursor.map { "&since=\($0)" } ?? ""))
            guard status == 200 else { throw CleanFailure("the roster answered \(status)") }
            let page = try OutpostJSON.decode(RosterPage.self, from: data)
            onPage(page)
            guests += page.guests.count
            pages += 1
            cursor = page.hasMore ? page.cursor : nil
        } while cursor != nil
        return (guests, pages, (ContinuousClock.now - start).seconds)
    }

    /// The ticket text of each guest, in the order given (fetched eight at a time).
    func tickets(eventId: String, guestIds: [String]) async throws -> [String] {
        var tickets = [String](repeating: "", count: guestIds.count)
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            var next = 0
            func launch() {
                let index = next
                next += 1
                group.addTask {
                    let (data, status) = try await self.request(
                        "GET", "/v1/events/\(eventId)/guests/\(guestIds[index])/ticket")
                    guard status == 200 else { throw CleanFailure("a ticket answered \(status)") }
                    return (
                        index, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    )
                }
            }
            for _ in 0..<min(8, guestIds.count) { launch() }
            while let (index, ticket) = try await group.next() {
                tickets[index] = ticket
                if next < guestIds.count { launch() }
            }
        }
        return tickets
    }

    /// Posts one check-in per guest, `concurrency` at a time; throughput and p99 latency.
    func ingest(eventId: String, guestIds: [String], concurrency: Int) async throws -> Ingest {
        let start = ContinuousClock.now
        var latencies: [Double] = []
        var errors = 0
        try await withThrowingTaskGroup(of: (Double, Bool).self) { group in
            var next = 0
            func launch() {
                let id = guestIds[next]
                let millis = Int64(1_795_000_000_000) + Int64(next)
                next += 1
                group.addTask {
                    let body = CheckInRequest(
                        guestId: id, deviceId: "bench", scannedAt: Date(millisecondsSince1970: millis), method: .qr)
                    let sent = ContinuousClock.now
                    let (_, status) = try await self.request(
                        "POST", "/v1/events/\(eventId)/checkins", body: try OutpostJSON.encode(body),
                        headers: ["Idempotency-Key": "bench:\(id):\(millis)"])
                    return ((ContinuousClock.now - sent).seconds, status == 201)
                }
            }
            for _ in 0..<min(concurrency, guestIds.count) { launch() }
            while let (latency, ok) = try await group.next() {
                latencies.append(latency)
                if !ok { errors += 1 }
                if next < guestIds.count { launch() }
            }
        }
        let seconds = (ContinuousClock.now - start).seconds
        let sorted = latencies.sorted()
        let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * 0.99))]
        return Ingest(rate: Double(guestIds.count) / seconds, latencyP99: p99, count: guestIds.count, errors: errors)
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
