import Foundation
import OutpostLab
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server as a process: it drains in-flight requests on SIGTERM and loses nothing it
/// answered when killed outright.
@Suite("outpost serve as a process")
struct ServerProcessTests {
    @Test("SIGTERM lets an in-flight request finish, then the server exits 0")
    func gracefulDrain() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let csv = Array(GuestNames.numberedCSV(count: 200).utf8)
        let head =
            "POST /v1/events/\(session.eventId)/guests:import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: Bearer \(session.token)\r\nContent-Type: text/csv\r\nContent-Length: \(csv.count)\r\n\r\n"
        let socket = try RawSocket(port: server.port)
        try socket.send(Array(head.utf8) + csv.prefix(csv.count / 2))
        // The import is now in flight: the server counts it (and the metrics request itself).
        try await server.waitForMetric("outpost_http_requests_in_flight 2.0")
        kill(server.process.processIdentifier, SIGTERM)
        try socket.send(Array(csv.dropFirst(csv.count / 2)))
        let response = String(decoding: try socket.receiveAll(), as: UTF8.self)
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response.prefix(200))")
        #expect(response.contains(#""imported":200"#))
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        // The imported guests are there after a restart.
        let again = try await RunningServer.start(reusing: server)
        defer { again.stop() }
        let token = try await again.signIn()
        let roster = try await again.json("GET", "/v1/events/\(session.eventId)/roster", token: token)
        #expect((roster["guests"] as? [Any])?.count == 200)
    }

    @Test("a truncated request is a 400, applies nothing, and is no server error")
    func truncatedRequest() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let body = Array(#"{"name":"General admission for everyone who comes early"}"#.utf8)
        let head =
            "POST /v1/events/\(session.eventId)/access-types HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: Bearer \(session.token)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        let socket = try RawSocket(port: server.port)
        try socket.send(Array(head.utf8) + body.prefix(body.count / 2))
        shutdown(socket.fd, Int32(SHUT_WR))
        let response = String(decoding: try socket.receiveAll(), as: UTF8.self)
        #expect(response.isEmpty || response.hasPrefix("HTTP/1.1 400"), "\(response.prefix(300))")
        let (metrics, _) = try await server.request("GET", "/metrics")
        #expect(!String(decoding: metrics, as: UTF8.self).contains("status=\"500\""))
        let event = try await server.json("GET", "/v1/events/\(session.eventId)/roster", token: session.token)
        let types = (event["accessTypes"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(types == ["General"], "the truncated request must not have created an access type")
    }

    @Test("a known path with an undeclared method is 405 with Allow")
    func methodNotAllowed() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/v1/events")!)
        request.httpMethod = "DELETE"
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 405)
        #expect(http.value(forHTTPHeaderField: "Allow") == "GET, POST")
        #expect(String(decoding: data, as: UTF8.self).contains("method_not_allowed"))
        let (_, unknown) = try await server.request("DELETE", "/v1/nothing-here")
        #expect(unknown == 404)
        let (_, withId) = try await server.request("TRACE", "/v1/events/\(UUID().uuidString.lowercased())/audit")
        #expect(withId == 405)
    }

    @Test("SIGKILL loses no answered check-in; replays after restart answer byte for byte")
    func killedServerKeepsAnswers() async throws {
        let server = try await RunningServer.start()
        let session = try await server.organizerSetUp()
        _ = try await server.request(
            "POST", "/v1/events/\(session.eventId)/guests:import", token: session.token,
            body: Data(GuestNames.numberedCSV(count: 20).utf8), contentType: "text/csv")
        let roster = try await server.json("GET", "/v1/events/\(session.eventId)/roster", token: session.token)
        let guestIds = try #require(roster["guests"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(guestIds.count == 20)
        var answers: [String: Data] = [:]
        for (index, guest) in guestIds.enumerated() {
            let millis = 1_795_000_000_000 + index
            let body =
                #"{"guestId":"\#(guest)","deviceId":"door-1","scannedAt":"\#(Self.timestamp(millis))","method":"qr"}"#
            let (data, status) = try await server.request(
                "POST", "/v1/events/\(session.eventId)/checkins", token: session.token, body: Data(body.utf8),
                headers: ["Idempotency-Key": "door-1:\(guest):\(millis)"])
            #expect(status == 201)
            answers[guest] = data
        }
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
        let again = try await RunningServer.start(reusing: server)
        defer { again.stop() }
        let token = try await again.signIn()
        for (index, guest) in guestIds.enumerated() {
            let millis = 1_795_000_000_000 + index
            let body =
                #"{"guestId":"\#(guest)","deviceId":"door-1","scannedAt":"\#(Self.timestamp(millis))","method":"qr"}"#
            let (data, status) = try await again.request(
                "POST", "/v1/events/\(session.eventId)/checkins", token: token, body: Data(body.utf8),
                headers: ["Idempotency-Key": "door-1:\(guest):\(millis)"])
            #expect(status == 201)
            #expect(data == answers[guest])
        }
        let stats = try await again.json("GET", "/v1/events/\(session.eventId)/stats", token: token)
        #expect(stats["checkedIn"] as? Int == 20)
    }

    static func timestamp(_ millis: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }
}

/// An `outpost serve` process on a temporary SQLite store and a free port.
final class RunningServer: @unchecked Sendable {
    let process: Process
    let port: Int
    let directory: String
    static let email = "organizer@acme.test"
    static let password = "correct horse battery"

    /// The PostgreSQL database the server keeps its data in, or nil: the SQLite file.
    let postgres: String?

    private init(process: Process, port: Int, directory: String, postgres: String?) {
        self.process = process
        self.port = port
        self.directory = directory
        self.postgres = postgres
    }

    var databasePath: String { directory + "/outpost.sqlite" }

    /// The store options of `serve` and `admin`: the SQLite file, or the PostgreSQL database.
    var storeArguments: [String] { postgres.map { ["--postgres", $0] } ?? ["--sqlite", databasePath] }

    /// Starts `outpost serve` with `options` added. Over HTTPS (`--tls-cert`) readiness is the
    /// port accepting connections (migrations run before it listens); else `/health` answering.
    /// `postgres` names a database to keep the data in instead of a SQLite file.
    static func start(
        reusing previous: RunningServer? = nil, options: [String] = [], postgres: String? = nil
    ) async throws -> RunningServer {
        let directory = try previous?.directory ?? CLI.temporaryDirectory()
        let postgres = previous?.postgres ?? postgres
        let store = postgres.map { ["--postgres", $0] } ?? ["--sqlite", directory + "/outpost.sqlite"]
        var attempt = 0
        while true {
            attempt += 1
            // Below the ephemeral range: an outgoing connection of the tests running beside this
            // one cannot take the port between its drawing and the server's bind (a lead test
            // once waited 120 s on a server that had exited at once, its port in use).
            let port = try ServerHandle.returningPort()
            let process = try CLI.start(["serve"] + store + ["--port", String(port), "--bcrypt-cost", "4"] + options)
            let server = RunningServer(process: process, port: port, directory: directory, postgres: postgres)
            if options.contains("--tls-cert") {
                try await CLI.waitForListening(port: port)
                return server
            }
            do {
                _ = try await HealthCheck.wait(
                    for: URL(string: "http://127.0.0.1:\(port)")!, while: { process.isRunning })
                return server
            } catch  where !process.isRunning && attempt < 3 {
                continue
            }
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    struct OrganizerSession {
        var token: String
        var eventId: String
    }

    /// Bootstraps an organizer, signs in, creates an event with the access type "General".
    func organizerSetUp() async throws -> OrganizerSession {
        let bootstrap = try await CLI.run(
            [
                "admin", "bootstrap",
            ] + storeArguments + [
                "--tenant", "Acme", "--email", Self.email, "--password",
                Self.password, "--name", "Olivia", "--bcrypt-cost", "4",
            ])
        try #require(bootstrap.status == 0, "\(bootstrap.stderr)")
        let token = try await signIn()
        let event = try await json(
            "POST", "/v1/events", token: token,
            body:
                #"{"name":"Gala","startsAt":"2026-12-12T17:00:00.000Z","endsAt":"2026-12-12T23:00:00.000Z","timeZone":"UTC"}"#
        )
        let eventId = try #require(event["id"] as? String)
        _ = try await json("POST", "/v1/events/\(eventId)/access-types", token: token, body: #"{"name":"General"}"#)
        return OrganizerSession(token: token, eventId: eventId)
    }

    func signIn() async throws -> String {
        let answer = try await json(
            "POST", "/v1/auth/signin",
            body: #"{"email":"\#(Self.email)","password":"\#(Self.password)","deviceId":"laptop"}"#)
        return try #require(answer["accessToken"] as? String)
    }

    func request(
        _ method: String, _ path: String, token: String? = nil, body: Data? = nil,
        contentType: String = "application/json",
        headers: [String: String] = [:]
    ) async throws -> (Data, Int) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    func json(_ method: String, _ path: String, token: String? = nil, body: String? = nil) async throws -> [String: Any]
    {
        let (data, _) = try await request(method, path, token: token, body: body.map { Data($0.utf8) })
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Polls /metrics until a line appears (each poll is a real request).
    func waitForMetric(_ line: String) async throws {
        for _ in 0..<400 {
            let (data, _) = try await request("GET", "/metrics")
            if String(decoding: data, as: UTF8.self).split(separator: "\n").contains(where: { $0 == line }) { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("metric line never appeared: \(line)")
    }
}

/// A blocking TCP client for sending a request in pieces.
struct RawSocket {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 30, tv_usec: 0)  // a bound, never reached when things work
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// Whether the server has sent something (or closed) right now, without waiting.
    var hasAnswer: Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Reads what has arrived up to the end of the first response head and its short body, or
    /// until the server closes.
    func receiveResponse() throws -> String {
        let output = receive { output in
            let text = String(decoding: output, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n"), let length = Self.contentLength(text[..<end.lowerBound])
            else { return false }
            return output.count >= text.utf8.distance(from: text.startIndex, to: end.upperBound) + length
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Reads until `done` says so or the server closes the connection.
    private func receive(until done: ([UInt8]) -> Bool = { _ in false }) -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            output += buffer[0..<count]
            if done(output) { break }
        }
        return output
    }

    private static func contentLength(_ head: Substring) -> Int? {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard sent > 0 else { throw POSIXError(.EPIPE) }
            offset += sent
        }
    }

    /// Reads until the server closes the connection.
    func receiveAll() throws -> [UInt8] {
        let output = receive()
        close(fd)
        return output
    }
}
