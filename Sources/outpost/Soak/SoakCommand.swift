import ArgumentParser
import Foundation
import OutpostChaos
import OutpostCore
import OutpostLab
import OutpostProtocol

/// `outpost soak`: devices as processes, scanning through a fault-injecting proxy while they and
/// the server are SIGKILLed; then every device drains and the soak checks that nothing was lost
/// and nothing was counted twice.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Scan through a faulty network while devices and servers are killed; check nothing is lost.",
        discussion: """
            Starts `outpost serve` (--instances of them on one store), a chaos proxy in front \
            (30% of requests and 30% of responses dropped, 10% duplicated, 5% reset, some \
            truncated and delayed), and --devices `outpost soak-worker` processes that scan random \
            guests, often the same guest at nearly the same time. Workers are SIGKILLed at random \
            and restarted, the servers are SIGKILLed and restarted, the network is switched off \
            and on. At the end the faults stop, every device drains its outbox, and the checks \
            are printed as a table. Exit status 1 when any check fails.

            Also: access tokens last --access-ttl seconds, so every device refreshes many times \
            (and some refresh answers are lost); 5% of requests get a captive portal's HTML page \
            (200, 302 or 403); a third of the scans carry a scanner's prefix or suffix; device 0 \
            is shared by two staff who take turns with sign-out --keep; and after the faulty \
            phase one pending outbox row per device is damaged on disk (it must be quarantined \
            and shown, and every other entry must still land).
            """
    )

    @Option(help: "How long the faulty phase runs, in minutes.")
    var minutes: Double = 5

    @Option(help: "How long the faulty phase runs, in seconds (overrides --minutes).")
    var seconds: Double?

    @Option(help: ArgumentHelp("The PostgreSQL database to use (it is written to).", valueName: "url"))
    var postgres: String?

    @Option(help: "How many server instances share the store behind the proxy.")
    var instances = 1

    @Option(help: "How many device processes scan at once.")
    var devices = 4

    @Option(help: "How many guests the event has.")
    var guests = 2000

    @Option(help: "Seed of every random choice (faults, kills, scans).")
    var seed: UInt64 = 2026

    @Option(help: "How many times the server is SIGKILLed and restarted.")
    var serverKills = 2

    @Option(
        name: .customLong("access-ttl"),
        help: "Seconds an access token lasts on the soak's servers (short, so every device refreshes many times).")
    var accessTTL = 10

    @Option(
        help: ArgumentHelp("Working directory (logs, device homes); default a new temporary one.", valueName: "dir"))
    var dir: String?

    @Option(help: ArgumentHelp("Write the checks and figures as JSON to this file.", valueName: "path"))
    var output: String?

    func validate() throws {
        guard (1...4).contains(instances) else { throw ValidationError("--instances is 1 to 4.") }
        guard (1...16).contains(devices) else { throw ValidationError("--devices is 1 to 16.") }
        guard guests >= 10 else { throw ValidationError("--guests must be at least 10.") }
        guard duration >= 5 else { throw ValidationError("the faulty phase must last at least 5 seconds.") }
        guard serverKills >= 0 else { throw ValidationError("--server-kills cannot be negative.") }
        guard accessTTL >= 5 else { throw ValidationError("--access-ttl must be at least 5 seconds.") }
    }

    var duration: Double { seconds ?? minutes * 60 }

    /// At least 100 device kills in a five-minute run, in proportion for other lengths.
    var minimumKills: Int { max(5, Int(100 * duration / 300)) }

    struct Document: Codable {
        var timestamp: String
        var seconds: Double
        var store: String
        var instances: Int
        var devices: Int
        var guests: Int
        var seed: UInt64
        var passed: Bool
        var rows: [SoakVerdict.Row]
        var problems: [String]
        var proxy: ChaosStats
    }

    func run() async throws {
        let work = URL(fileURLWithPath: dir ?? NSTemporaryDirectory() + "outpost-soak-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let say = { (text: String) in FileHandle.standardError.write(Data("soak: \(text)\n".utf8)) }
        say("working in \(work.path)")

        // 1. The store, the servers and the event.
        let store =
            postgres.map { ["--postgres", $0] } ?? ["--sqlite", work.appendingPathComponent("outpost.sqlite").path]
        let email = "soak-\(UUID().uuidString.prefix(8).lowercased())@outpost.test"
        try ServerHandle.bootstrap(store: store, email: email)
        var servers: [ServerHandle] = []
        defer { servers.forEach { $0.stop() } }
        for index in 0..<instances {
            servers.append(
                try await ServerHandle.launch(
                    store: store, options: ["--access-ttl", String(accessTTL)], port: try ServerHandle.freePort(),
                    log: work.appendingPathComponent("server-\(index).log")))
        }
        let admin = servers[0]
        try await admin.signIn(as: email)
        let seeded = try await admin.seed(guests: guests)
        let sharer = "soak-staff-\(UUID().uuidString.prefix(8).lowercased())@outpost.test"
        try await admin.organizer.addStaff(
            email: sharer, name: "Soak Staff", password: ServerHandle.password, event: seeded.eventId)
        let tickets = try await admin.organizer.tickets(event: seeded.eventId, guests: seeded.guestIds)
        let ticketFile = work.appendingPathComponent("tickets.txt")
        try tickets.joined(separator: "\n").write(to: ticketFile, atomically: true, encoding: .utf8)
        say("\(guests) guests on \(instances) server instance(s), \(postgres == nil ? "SQLite" : "PostgreSQL")")

        // 2. The proxy, passing everything through while the devices sign in.
        let proxy = try await ChaosProxy.bind(
            upstreams: servers.map { .init(port: $0.port) }, faults: .none, seed: seed)
        let proxyTask = Task { await proxy.run() }
        defer { proxyTask.cancel() }
        var soakDevices: [SoakDevice] = []
        let server = "http://127.0.0.1:\(proxy.port)"
        for index in 0..<devices {
            // Device 0 is shared: two staff take turns on it, signing out with --keep.
            let device = SoakDevice(
                index: index, home: work.appendingPathComponent("device-\(index)"), tickets: ticketFile,
                log: work.appendingPathComponent("device-\(index).log"), hotSeed: seed,
                users: index == 0 ? [email, sharer] : [email])
            guard try device.signIn(user: 0, server: server, eventId: seeded.eventId) else {
                throw CleanFailure("device \(index) could not sign in and open the event")
            }
            soakDevices.append(device)
        }

        // 3. The faulty phase.
        proxy.faults = .soak
        var random = SeededRandom(seed: seed)
        for device in soakDevices { try device.start(seed: seed &+ UInt64(device.index)) }
        let started = ContinuousClock.now
        let phase = Duration.milliseconds(Int(duration * 1000))
        let serverKillTimes = (0..<serverKills).map { phase * Double($0 + 1) / Double(serverKills + 1) }
        var nextServerKill = 0
        var nextOffline = Duration.seconds(Double.random(in: 4...12, using: &random))
        var kills = 0
        var serverKillCount = 0
        var offlinePeriods = 0
        var queue = SoakQueueMeter()
        var nextSample = Duration.zero
        // The phase lasts its duration and until every scheduled server kill and the minimum of
        // device kills happened: slow iterations (a shared device's user switch under faults, a
        // server's restart in a debug build on a busy machine, each can take seconds) must not
        // leave a short run with fewer kills than it promises (up to three times the duration; a
        // run whose kills keep missing still fails its verdict).
        while ContinuousClock.now - started < phase || nextServerKill < serverKillTimes.count
            || (kills < minimumKills && ContinuousClock.now - started < phase * 3)
        {
            try await Task.sleep(for: .milliseconds(Int.random(in: 400...2400, using: &random)))
            let elapsed = ContinuousClock.now - started
            if elapsed >= nextSample {
                let confirmed = soakDevices.reduce(into: Set<String>()) { $0.formUnion($1.confirmed) }
                await queue.sample(at: Int(elapsed.seconds), confirmed: confirmed) { since in
                    try await admin.organizer.auditPage(event: seeded.eventId, since: since)
                }
                nextSample = elapsed + .seconds(5)
            }
            let device = soakDevices[Int.random(in: 0..<soakDevices.count, using: &random)]
            if device.kill() { kills += 1 }
            if device.users.count > 1, Bool.random(using: &random) {
                guard try device.switchUser(server: server, eventId: seeded.eventId) else {
                    throw CleanFailure("device \(device.index): the other user could not sign in")
                }
            }
            try device.start(seed: random.next())
            if nextServerKill < serverKillTimes.count, elapsed >= serverKillTimes[nextServerKill] {
                let server = servers[nextServerKill % servers.count]
                server.kill()
                serverKillCount += 1
                nextServerKill += 1
                try await server.restart()
                say("server \(server.port) SIGKILLed and restarted at \(Int(elapsed.seconds)) s")
            }
            if elapsed >= nextOffline {
                proxy.offline = true
                offlinePeriods += 1
                try await Task.sleep(for: .milliseconds(Int.random(in: 1000...3000, using: &random)))
                proxy.offline = false
                nextOffline = elapsed + .seconds(Double.random(in: 15...40, using: &random))
            }
        }
        for device in soakDevices where device.kill() { kills += 1 }
        for device in soakDevices { device.finishReading() }
        say("faulty phase over: \(kills) device kills, \(serverKillCount) server kills; draining")

        // 4. One pending row per device is damaged on disk; faults off; every device drains
        // (every user of a shared one); the server's view.
        var damaged: [Int: String] = [:]
        for device in soakDevices { damaged[device.index] = try device.damageOutboxEntry() }
        let requestsWhileFaulty = proxy.stats.requests
        proxy.faults = .none
        proxy.offline = false
        var verdictDevices: [SoakVerdict.Device] = []
        for device in soakDevices {
            let report = try device.drain(server: server, eventId: seeded.eventId)
            verdictDevices.append(
                .init(
                    deviceId: report.deviceId, confirmed: device.confirmed, report: report,
                    damaged: damaged[device.index].map { [$0] } ?? [], shared: device.users.count > 1))
        }
        // The organizer's token has long expired (short access tokens): the client signs in again.
        let audit = try await admin.organizer.audit(event: seeded.eventId)
        var roster: Set<GuestID> = []
        try await admin.organizer.roster(event: seeded.eventId, limit: 2000) { page in
            for guest in page.guests where guest.checkIn != nil { roster.insert(guest.id) }
        }
        let stats = proxy.stats
        let verdict = SoakVerdict(
            devices: verdictDevices, audit: audit, rosterCheckedIn: roster, proxy: stats,
            requestsWhileFaulty: requestsWhileFaulty, kills: kills,
            minimumKills: minimumKills, serverKills: serverKillCount, minimumServerKills: serverKills,
            networkOffPeriods: offlinePeriods,
            unexpectedExits: soakDevices.flatMap(\.unexpectedExits),
            platformCrashes: soakDevices.flatMap(\.platformCrashes), queue: queue.samples,
            client: .init(
                suffixedScans: soakDevices.map(\.suffixedScans).reduce(0, +),
                userSwitches: soakDevices.map(\.userSwitches).reduce(0, +), accessTTL: accessTTL))

        print(
            "Outpost soak · \(Int(duration)) s · \(postgres == nil ? "SQLite" : "PostgreSQL") · \(instances) instance(s) · "
                + "\(devices) devices · \(guests) guests · seed \(seed)")
        print(verdict.table)
        for problem in verdict.problems.prefix(40) { say("problem: \(problem)") }
        if let output {
            let document = Document(
                timestamp: ISO8601DateFormatter().string(from: Date()), seconds: duration,
                store: postgres == nil ? "sqlite" : "postgres", instances: instances, devices: devices, guests: guests,
                seed: seed, passed: verdict.passed, rows: verdict.rows, problems: verdict.problems, proxy: stats)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(document).write(to: URL(fileURLWithPath: output))
        }
        guard verdict.passed else {
            say("FAILED; logs and device homes kept in \(work.path)")
            throw ExitCode(1)
        }
        say("passed")
        if dir == nil { try? FileManager.default.removeItem(at: work) }
    }
}
