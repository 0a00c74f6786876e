import Foundation
import OutpostCore
import OutpostLab
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The headless device as real processes, killed at random points.
@Suite("outpost device as a process")
struct DeviceProcessTests {
    /// A fresh device home signed in as the organizer with `eventId` open: the home and the
    /// arguments every later `outpost device` command takes.
    private static func openDevice(
        on server: RunningServer, event eventId: String
    ) async throws -> (
        home: String, arguments: [String]
    ) {
        let home = try CLI.temporaryDirectory() + "/device"
        let device = ["--home", home, "--json"]
        let signIn = try await CLI.run(
            [
                "device", "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", RunningServer.email,
                "--password", RunningServer.password,
            ] + device)
        try #require(signIn.status == 0, "\(signIn.stderr)")
        let open = try await CLI.run(["device", "open", eventId] + device)
        try #require(open.status == 0, "\(open.stderr)")
        return (home, device)
    }

    @Test(
        "device-cli-keeps-index-snapshot: a command that searched leaves the search index's snapshot behind for the next launch"
    )
    func keepsIndexSnapshot() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        // Enough guests that writing the snapshot takes longer than the process takes to exit.
        _ = try await server.request(
            "POST", "/v1/events/\(session.eventId)/guests:import", token: session.token,
            body: Data(GuestNames.numberedCSV(count: 10_000).utf8), contentType: "text/csv")
        let (home, device) = try await Self.openDevice(on: server, event: session.eventId)
        let lookup = try await CLI.run(["device", "lookup", "Guest 123"] + device)
        #expect(lookup.status == 0)
        #expect(lookup.stdout.contains("Guest 1234"))
        let homeURL = URL(fileURLWithPath: home)
        let (store, _) = try DeviceStore.open(
            home: homeURL, keyStore: FileKeyStore(url: homeURL.appendingPathComponent("device.key")),
            modules: DeviceModules.all.migrations)
        let eventId = try #require(EventID(wire: session.eventId))
        #expect(
            try ModuleStore<CheckInModule>(store).rosterIndexSnapshot(eventId: eventId) != nil,
            "the snapshot outlived the command")
    }

    @Test(
        "force-quit-preserves-queue: SIGKILL `outpost device` at random points during confirm and replay; every confirmed check-in lands exactly once"
    )
    func forceQuitAtRandomPoints() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let guestCount = 40
        _ = try await server.request(
            "POST", "/v1/events/\(session.eventId)/guests:import", token: session.token,
            body: Data(GuestNames.numberedCSV(count: guestCount).utf8), contentType: "text/csv")
        let roster = try await server.json("GET", "/v1/events/\(session.eventId)/roster", token: session.token)
        let guests = try #require(roster["guests"] as? [[String: Any]]).compactMap {
            guest -> (id: String, code: String)? in
            guard let id = guest["id"] as? String, let code = guest["code"] as? String else { return nil }
            return (id, code)
        }
        #expect(guests.count == guestCount)
        let (_, device) = try await Self.openDevice(on: server, event: session.eventId)

        var random = SeededRandom(seed: 0x5EED_0011)
        var kills = 0
        var completed = 0
        // Calibrate the kill window to this machine: how long one whole `device confirm` takes.
        var durations: [Int] = []
        for guest in guests.prefix(3) {
            _ = try await CLI.run(["device", "checkin", "--code", guest.code] + device)
            let started = ContinuousClock.now
            #expect(try await CLI.run(["device", "confirm"] + device).status == 0)
            let elapsed = (ContinuousClock.now - started).components
            durations.append(Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000))
        }
        // The window follows the machine: the rest of the parallel run loads it unevenly, and a
        // window measured under load let every later command finish before its kill.
        var confirms = KillWindow(durations: durations)
        var syncs = KillWindow(durations: durations)
        // Phase 1: confirm (local commit, then replay) killed at random moments within it.
        for (index, guest) in guests.enumerated().dropFirst(3) {
            if index == guestCount / 2 {
                // Phase 2: offline confirms, then replays killed at random moments.
                _ = try await CLI.run(["device", "sim", "network", "off"] + device)
            }
            let found = try await CLI.run(["device", "checkin", "--code", guest.code] + device)
            #expect(found.status == 0)
            if try await confirms.runKilled(["device", "confirm"] + device, using: &random) {
                kills += 1
            } else {
                completed += 1
            }
        }
        _ = try await CLI.run(["device", "sim", "network", "on"] + device)
        // Phase 3: replays killed at random moments, until at least 25 kills have landed in all
        // (how many of the earlier ones landed depends on the machine's speed).
        var syncKills = 0
        for _ in 0..<200 where kills < 25 || syncKills < 5 {
            if try await syncs.runKilled(["device", "sync"] + device, using: &random) {
                kills += 1
                syncKills += 1
            }
        }
        // Let the device finish: sync until nothing is pending.
        var pending = -1
        for _ in 0..<20 {
            let result = try await CLI.run(["device", "sync"] + device)
            pending = try CLI.tree(result)["pending"] as? Int ?? -1
            if pending == 0 { break }
        }
        #expect(pending == 0)
        #expect(kills >= 20, "only \(kills) kills landed")
        // Every check-in the device committed is on the server exactly once, and the server has
        // nothing the device did not commit.
        let serverRows = try await server.checkInRowsByGuest(eventId: session.eventId, token: try await server.signIn())
        #expect(serverRows.values.allSatisfy { $0 == 1 })
        for guest in guests {
            let tree = try CLI.tree(try await CLI.run(["device", "checkin", "--code", guest.code] + device))
            let elements = tree["visible"] as? [String] ?? []
            let locallyCheckedIn = elements.contains("checkin-already-checked-in")
            #expect(
                locallyCheckedIn == (serverRows[guest.id] == 1),
                "guest \(guest.code): device \(locallyCheckedIn), server \(serverRows[guest.id] ?? 0)")
            _ = try await CLI.run(["device", "cancel"] + device)
        }
        print(
            "force-quit-preserves-queue: confirms took \(confirms.durations) ms here when not killed; \(kills) kills, \(completed) confirms ran to the end, "
                + "\(serverRows.count) check-ins on the server"
        )
    }
}

/// When to kill a command: at a random moment within how long it took when it ran to its end
/// (the median of its last five such runs, from 1/10 of it to 11/10), so that the kills keep
/// landing as the machine's load changes.
struct KillWindow {
    var durations: [Int]

    var window: ClosedRange<Int> {
        let recent = durations.suffix(5).sorted()
        let whole = max(20, recent[recent.count / 2])
        return max(1, whole / 10)...(whole * 11 / 10)
    }

    /// Runs the command and kills it at a random moment of the window; true when killed. A run
    /// that ended first is timed into the window (``CLI/runKilled(_:afterMilliseconds:)`` returns
    /// as soon as the command ends).
    mutating func runKilled(_ arguments: [String], using random: inout SeededRandom) async throws -> Bool {
        let started = ContinuousClock.now
        let killed = try await CLI.runKilled(arguments, afterMilliseconds: Int.random(in: window, using: &random))
        if !killed {
            let elapsed = (ContinuousClock.now - started).components
            durations.append(Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000))
        }
        return killed
    }
}

extension CLI {
    /// Starts a command and SIGKILLs it after `milliseconds` unless it ended first; true when killed.
    static func runKilled(_ arguments: [String], afterMilliseconds milliseconds: Int) async throws -> Bool {
        try await LabProcess.blocking { try runKilledBlocking(arguments, afterMilliseconds: milliseconds) }
    }

    private static func runKilledBlocking(_ arguments: [String], afterMilliseconds milliseconds: Int) throws -> Bool {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        if ended.wait(timeout: .now() + .milliseconds(milliseconds)) == .success { return false }
        kill(process.processIdentifier, SIGKILL)
        ended.wait()
        return process.terminationReason == .uncaughtSignal
    }

    /// The UI tree a `--json` command printed on its last line.
    static func tree(_ result: Result) throws -> [String: Any] {
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(
            try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(result.stderr)")
    }
}

extension RunningServer {
    /// Check-in rows per guest, from the audit log's `checked_in` entries (one per row).
    func checkInRowsByGuest(eventId: String, token: String) async throws -> [String: Int] {
        let audit = try await json("GET", "/v1/events/\(eventId)/audit?limit=10000", token: token)
        var rows: [String: Int] = [:]
        for entry in audit["entries"] as? [[String: Any]] ?? [] where entry["kind"] as? String == "checked_in" {
            if let guest = entry["guestId"] as? String { rows[guest, default: 0] += 1 }
        }
        return rows
    }
}
