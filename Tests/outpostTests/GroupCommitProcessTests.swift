import Foundation
import OutpostCore
import OutpostLab
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Group commit against a real `outpost serve` killed with SIGKILL while a group runs and
/// requests wait for it: nothing a client was answered is lost or changed, nothing is doubled,
/// and what was not answered is decided when the client sends it again.
@Suite("Check-in group commit, the server killed")
struct GroupCommitProcessTests {
    /// One request: a single check-in or a batch, as the bytes sent.
    struct Sent: Sendable {
        var path: String
        var body: Data
        var key: String?
        var keys: [String]
        var guests: [String]
    }

    /// A seeded schedule: singles and batches of 2–5 over `guests` (guests repeat), every
    /// seventh request a retry of an earlier one.
    static func schedule(seed: UInt64, count: Int, event: String, guests: [String]) -> [Sent] {
        var random = SeededRandom(seed: seed)
        var sent: [Sent] = []
        for index in 0..<count {
            if index > 6 && index.isMultiple(of: 7), let earlier = sent.randomElement(using: &random) {
                sent.append(earlier)
                continue
            }
            let size = Int.random(in: 0..<10, using: &random) < 6 ? 1 : Int.random(in: 2...5, using: &random)
            var entries: [String] = []
            var keys: [String] = []
            var named: [String] = []
            for _ in 0..<size {
                let guest = guests.randomElement(using: &random)!
                let device = "door-\(Int.random(in: 1...3, using: &random))"
                let millis = 1_795_000_000_000 + Int.random(in: 0..<1_000_000, using: &random)
                entries.append(
                    #"{"guestId":"\#(guest)","deviceId":"\#(device)","scannedAt":"\#(ServerProcessTests.timestamp(millis))","method":"qr"}"#
                )
                keys.append("\(device):\(guest):\(millis)")
                named.append(guest)
            }
            if size == 1 {
                sent.append(
                    Sent(
                        path: "/v1/events/\(event)/checkins", body: Data(entries[0].utf8), key: keys[0], keys: keys,
                        guests: named))
            } else {
                sent.append(
                    Sent(
                        path: "/v1/events/\(event)/checkins:batch",
                        body: Data(#"{"entries":[\#(entries.joined(separator: ","))]}"#.utf8), key: nil, keys: keys,
                        guests: named))
            }
        }
        return sent
    }

    /// Sends `requests` (their indices) all at once, on a session of their own that opens up to
    /// 32 connections (the shared one may hold a loaded suite's requests to few at a time); the
    /// answers that came, by index.
    static func send(
        _ server: RunningServer, token: String, _ requests: [Sent], _ indices: Range<Int>
    ) async -> [Int: (
        Data, Int
    )] {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        let session = URLSession(configuration: configuration)
        return await withTaskGroup(of: (Int, Data, Int)?.self) { group in
            for index in indices {
                let sent = requests[index]
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(sent.path)")!)
                request.httpMethod = "POST"
                request.httpBody = sent.body
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                if let key = sent.key { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
                group.addTask {
                    guard let (data, response) = try? await session.data(for: request) else { return nil }
                    return (index, data, (response as? HTTPURLResponse)?.statusCode ?? 0)
                }
            }
            var answers: [Int: (Data, Int)] = [:]
            for await answer in group { if let answer { answers[answer.0] = (answer.1, answer.2) } }
            return answers
        }
    }

    /// Polls the server's metrics (on connections of its own) until a check-in request waits for
    /// its event's running group, or a group of requests that waited is being decided (more
    /// requests deciding than the two groups an event may run at once), then kills the server:
    /// nil when it saw either, else why not (the traffic ended first, or the metrics did not
    /// answer three times in a row); the server is killed all the same. A request that waited
    /// can be seen in either place: a group of replays alone takes no lock and ends at once,
    /// and the group after it takes every request that waited then. No count of polls bounds
    /// it: while the lock holds, every request waits until the client gives up on it
    /// (`finished`).
    static func killDuringGroup(_ server: RunningServer, finished: @Sendable () async -> Bool) async -> String? {
        let session = URLSession(configuration: .ephemeral)
        let metrics = URL(string: "http://127.0.0.1:\(server.port)/metrics")!
        defer { kill(server.process.processIdentifier, SIGKILL) }
        var polls = 0
        var failures: [String] = []
        while true {
            guard await !finished() else { return "every request ended before one waited for a group (\(polls) polls)" }
            polls += 1
            let data: Data
            do {
                (data, _) = try await session.data(from: metrics)
                failures = []
            } catch {
                failures.append("\(error)")
                guard failures.count < 3 else { return "the metrics did not answer: \(failures)" }
                continue
            }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            func gauge(_ name: String) -> Double {
                lines.first { $0.hasPrefix(name + " ") }?.split(separator: " ").last.flatMap { Double($0) } ?? 0
            }
            if gauge("outpost_checkin_group_waiting") >= 1 || gauge("outpost_checkin_group_deciding") > 2 { return nil }
        }
    }

    /// Another client of the server's store holding a lock that every check-in's transaction
    /// needs, until ``release()``: psql with `LOCK TABLE events IN EXCLUSIVE MODE` in an open
    /// transaction (the settle's update of the event's counter waits), or Python's sqlite3 in
    /// `BEGIN IMMEDIATE` (the writer waits, up to the server's busy timeout of 10 s).
    final class StoreLock {
        let process: Process
        let input = Pipe()
        let output = Pipe()

        init(_ server: RunningServer) throws {
            process = Process()
            if let postgres = server.postgres {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
                process.arguments = ["-X", "-q", "-At", postgres]
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
                process.arguments = [
                    "-c",
                    "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.execute('BEGIN IMMEDIATE')\nprint('locked', flush=True)\nsys.stdin.read()",
                    server.databasePath,
                ]
            }
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            if server.postgres != nil {
                input.fileHandleForWriting.write(
                    Data("BEGIN;\nLOCK TABLE events IN EXCLUSIVE MODE;\nSELECT 'locked';\n".utf8))
            }
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains("locked") {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
                seen += chunk
            }
        }

        /// Ends the other client (its transaction rolls back).
        func release() {
            try? input.fileHandleForWriting.close()  // the other end reads to its end and exits
            process.waitUntilExit()
        }
    }

    /// Whether a task's work ended.
    actor Flag {
        private(set) var isSet = false
        func set() { isSet = true }
    }

    /// One column of a query over the server's store: sqlite3 through Python for the file,
    /// psql for PostgreSQL.
    static func column(_ server: RunningServer, _ sql: String) async throws -> [String] {
        let result: CLI.Result
        if let postgres = server.postgres {
            result = try await CLI.run(["-At", postgres, "-c", sql], executable: URL(fileURLWithPath: "/usr/bin/psql"))
        } else {
            result = try await CLI.run(
                [
                    "-c",
                    "import sqlite3, sys\nfor row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(row[0])",
                    server.databasePath, sql,
                ], executable: URL(fileURLWithPath: "/usr/bin/python3"))
        }
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// A fresh database in the test cluster, or nil when there is none (the case is skipped).
    static func freshPostgres() async throws -> String? {
        guard let admin = ProcessInfo.processInfo.environment["OUTPOST_TEST_POSTGRES_URL"], !admin.isEmpty else {
            return nil
        }
        let name = "outpost_kill_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let created = try await CLI.run(
            ["-q", admin, "-c", "CREATE DATABASE \(name)"], executable: URL(fileURLWithPath: "/usr/bin/psql"))
        try #require(created.status == 0, "\(created.stderr)")
        var components = try #require(URLComponents(string: admin))
        components.path = "/" + name
        return try #require(components.string)
    }

    @Test(
        "checkin-group-commit-killed: concurrent singles and batches in groups, the server SIGKILLed mid-traffic; after a restart every answered request replays byte for byte, the rest are decided once, one row per guest, one audit entry per key, the feed gap-free",
        arguments: ["sqlite", "postgres"])
    func killedMidGroup(store: String) async throws {
        var postgres: String?
        if store == "postgres" {
            guard let url = try await Self.freshPostgres() else {
                print("PostgreSQL case skipped: OUTPOST_TEST_POSTGRES_URL is not set.")
                try Test.cancel("OUTPOST_TEST_POSTGRES_URL is not set")
            }
            postgres = url
        }
        do {
            try await killedMidGroup(postgres: postgres)
        } catch {
            await Self.drop(postgres)
            throw error
        }
        await Self.drop(postgres)
    }

    /// Drops the test's database (its 25 MB matter on a shared disk); a failure is printed only.
    static func drop(_ postgres: String?) async {
        guard let postgres, let admin = ProcessInfo.processInfo.environment["OUTPOST_TEST_POSTGRES_URL"],
            let name = URLComponents(string: postgres)?.path.dropFirst()
        else { return }
        let dropped = try? await CLI.run(
            ["-q", admin, "-c", "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"],
            executable: URL(fileURLWithPath: "/usr/bin/psql"))
        if dropped?.status != 0 { print("the test database \(name) was not dropped: \(dropped?.stderr ?? "")") }
    }

    func killedMidGroup(postgres: String?) async throws {
        let server = try await RunningServer.start(postgres: postgres)
        let session = try await server.organizerSetUp()
        _ = try await server.request(
            "POST", "/v1/events/\(session.eventId)/guests:import", token: session.token,
            body: Data(GuestNames.numberedCSV(count: 30).utf8), contentType: "text/csv")
        let roster = try await server.json("GET", "/v1/events/\(session.eventId)/roster", token: session.token)
        let guests = try #require(roster["guests"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        try #require(guests.count == 30)
        let requests = Self.schedule(seed: 37, count: 120, event: session.eventId, guests: guests)
        // The first 40 all answered; then, with another client holding a lock every check-in's
        // transaction needs, the other 80 at once, and the server killed as soon as one of them
        // waits for the group that runs (and cannot finish).
        var first = await Self.send(server, token: session.token, requests, 0..<40)
        #expect(first.count == 40)
        let lock = try StoreLock(server)
        let finished = Flag()
        let token = session.token
        let rest = Task {
            let answers = await Self.send(server, token: token, requests, 40..<120)
            await finished.set()
            return answers
        }
        let notSeen = await Self.killDuringGroup(server, finished: { await finished.isSet })
        let late = await rest.value
        lock.release()
        server.process.waitUntilExit()
        #expect(notSeen == nil, "the server was killed while a group ran and a request waited for it: \(notSeen ?? "")")
        first.merge(late) { old, _ in old }
        #expect(first.count < requests.count, "some requests were in flight at the kill (answered: \(first.count))")
        let again = try await RunningServer.start(reusing: server)
        defer { again.stop() }
        let newToken = try await again.signIn()
        for (index, request) in requests.enumerated() {
            let (data, status) = try await again.request(
                "POST", request.path, token: newToken, body: request.body,
                headers: request.key.map { ["Idempotency-Key": $0] } ?? [:])
            #expect(status == 200 || status == 201, "\(String(decoding: data, as: UTF8.self))")
            if let (before, beforeStatus) = first[index] {
                #expect(
                    data == before && status == beforeStatus, "request \(index) answered differently after the kill")
            }
        }
        let keys = Set(requests.flatMap(\.keys))
        let named = Set(requests.flatMap(\.guests))
        let kinds = try await Self.column(
            again, "SELECT kind FROM audit_log WHERE kind IN ('checked_in', 'already_checked_in') ORDER BY seq")
        #expect(kinds.count == keys.count, "one audit entry per key")
        #expect(kinds.filter { $0 == "checked_in" }.count == named.count, "one check-in per guest")
        #expect(try await Self.column(again, "SELECT COUNT(*) FROM checkins") == ["\(named.count)"])
        let seqs = try await Self.column(
            again, "SELECT seq FROM audit_log WHERE kind IN ('checked_in', 'already_checked_in') ORDER BY seq"
        ).compactMap { Int($0) }
        #expect(seqs.count == keys.count && Set(seqs).count == seqs.count, "one sequence number per entry")
        #expect(seqs.last.map { $0 - seqs.count + 1 } == seqs.first, "no gap: \(seqs)")
        await #expect(
            try Self.column(
                again,
                """
                SELECT COUNT(*) FROM guests g JOIN audit_log l ON l.guest_id = g.id AND l.kind = 'checked_in'
                WHERE g.seq <> l.seq
                """) == ["0"], "each checked-in guest carries its check-in's sequence number")
    }
}
