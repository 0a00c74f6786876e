import Foundation
import OutpostCore
import OutpostProtocol

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `outpost serve` in a child process, seeded over HTTP, loaded from this process.
final class BenchServer: @unchecked Sendable {
    static let email = "bench@outpost.test"
    static let password = "bench-password"

    let process: Process
    let url: URL
    let session: URLSession

    struct Seed {
        var eventId: String
        var guestIds: [String]
        var names: [String]
    }

    struct Ingest {
        var rate: Double
        var latencyP99: Double
        var count: Int
        var errors: Int
    }

    private init(process: Process, url: URL) {
        self.process = process
        self.url = url
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 128
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    static var binary: URL {
        URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
    }

    static func start(directory: URL, sqlite: Bool, postgres: String? = nil) async throws -> BenchServer {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store =
            sqlite
            ? ["--sqlite", directory.appendingPathComponent("outpost.sqlite").path] : ["--postgres", postgres ?? ""]
        let bootstrap = Process()
        bootstrap.executableURL = binary
        bootstrap.arguments =
            ["admin", "bootstrap"] + store + [
                "--tenant", "Bench \(UUID().uuidString.prefix(8))", "--email",
                sqlite ? email : "pg-\(UUID().uuidString.prefix(8))@outpost.test",
                "--password", password, "--name", "Bench", "--bcrypt-cost", "4",
            ]
        let output = Pipe()
        bootstrap.standardOutput = output
        try bootstrap.run()
        bootstrap.waitUntilExit()
        guard bootstrap.terminationStatus == 0 else {
            throw CleanFailure("bench: could not bootstrap the \(sqlite ? "SQLite" : "PostgreSQL") store")
        }
        let port = try freePort()
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve"] + store + ["--port", String(port), "--bcrypt-cost", "4", "--log-level", "error"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = BenchServer(process: process, url: URL(string: "http://127.0.0.1:\(port)")!)
        server.lastEmail = sqlite ? email : nil
        if !sqlite {
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            server.lastEmail = bootstrap.arguments?[bootstrap.arguments!.firstIndex(of: "--email")! + 1]
            _ = printed
        }
        for _ in 0..<200 {
            if (try? await server.session.data(from: server.url.appendingPathComponent("health"))) != nil {
                return server
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw CleanFailure("bench: the server did not start")
    }

    var lastEmail: String?
    var token = ""

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    func request(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]
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

    /// An event with one access type and `guests` imported guests.
    func seed(guests: Int) async throws -> Seed {
        let (signIn, _) = try await request(
            "POST", "/v1/auth/signin",
            body: try OutpostJSON.encode(
                SignInRequest(email: lastEmail ?? Self.email, password: Self.password, deviceId: "bench")))
        token = try OutpostJSON.decode(TokenPair.self, from: signIn).accessToken
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
        var cursor: String?
        repeat {
            let (data, _) = try await request(
                "GET", "/v1/events/\(event.id)/roster?limit=10000" + (cursor.map { "&since=\($0)" } ?? ""))
            let page = try OutpostJSON.decode(RosterPage.self, from: data)
            ids += page.guests.map(\.id)
            names += page.guests.map(\.name)
            cursor = page.hasMore ? page.cursor : nil
        } while cursor != nil
        return Seed(eventId: event.id, guestIds: ids, names: names)
    }

    func tickets(eventId: String, guestIds: [String]) async throws -> [String] {
        var tickets: [String] = []
        for id in guestIds {
            let (data, _) = try await request("GET", "/v1/events/\(eventId)/guests/\(id)/ticket")
            tickets.append(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
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
