import Foundation
import OutpostChaos
import OutpostCore
import OutpostProtocol

/// `outpost soak`'s harness: devices as processes, scanning through a fault-injecting proxy
/// (``ChaosProxy``) while they and the servers are SIGKILLed; then every device drains and
/// ``SoakVerdict`` checks that nothing was lost and nothing was counted twice.
package struct Soak {
    package var duration: Double
    package var postgres: String?
    package var instances: Int
    package var devices: Int
    package var guests: Int
    package var seed: UInt64
    package var serverKills: Int
    package var accessTTL: Int
    package var dir: String?
    package var output: String?

    package init(
        duration: Double, postgres: String?, instances: Int, devices: Int, guests: Int, seed: UInt64, serverKills: Int,
        accessTTL: Int, dir: String?, output: String?
    ) {
        self.duration = duration
        self.postgres = postgres
        self.instances = instances
        self.devices = devices
        self.guests = guests
        self.seed = seed
        self.serverKills = serverKills
        self.accessTTL = accessTTL
        self.dir = dir
        self.output = output
    }

    /// The access type the workers add walk-ins to, and its capacity: small enough that the
    /// doors run out while offline, so the lease rules are what keeps them under it.
    package static let walkInType = "Soak Door"
    package static let walkInCapacity = 24

    /// At least 100 device kills in a five-minute run, in proportion for other lengths.
    package var minimumKills: Int { max(5, Int(100 * duration / 300)) }

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

    /// Runs the soak; the verdict says whether it passed (the working directory is kept when not).
    package func run() async throws -> SoakVerdict {
        let work = URL(fileURLWithPath: dir ?? NSTemporaryDirectory() + "outpost-soak-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let say = { (text: String) in FileHandle.standardError.write(Data("soak: \(text)\n".utf8)) }
        say("working in \(work.path)")

        // 1. The store, the servers and the event.
        let store =
            postgres.map { ["--postgres", $0] } ?? ["--sqlite", work.appendingPathComponent("outpost.sqlite").path]
        let email = "soak-\(UUID().uuidString.prefix(8).lowercased())@outpost.test"
        try ServerHandle.bootstrap(store: store, email: email)
        let servers = try await ServerHandle.launch(
            count: instances, store: store, options: ["--access-ttl", String(accessTTL)], logs: work)
        defer { servers.forEach { $0.stop() } }
        let admin = servers[0]
        try await admin.signIn(as: email)
        let seeded = try await admin.seed(guests: guests)
        let sharer = "soak-staff-\(UUID().uuidString.prefix(8).lowercased())@outpost.test"
        try await admin.organizer.addStaff(
            email: sharer, name: "Soak Staff", password: ServerHandle.password, event: seeded.eventId)
        let door = try await admin.organizer.createAccessType(
            event: seeded.eventId,
            CreateAccessTypeRequest(name: Self.walkInType, walkInAllowed: true, walkInCapacity: Self.walkInCapacity))
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
        let walkIns = SoakVerdict.WalkIns(
            reported: soakDevices.reduce(into: Set<String>()) { $0.formUnion($1.walkIns) },
            onServer: try await admin.organizer.walkIns(event: seeded.eventId),
            capacity: try await admin.organizer.walkInSummary(event: seeded.eventId).capacities.first {
                $0.accessTypeId == door.id
            })
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
                userSwitches: soakDevices.map(\.userSwitches).reduce(0, +), accessTTL: accessTTL),
            walkIns: walkIns)

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
            return verdict
        }
        say("passed")
        // A passed run's own temporary directory goes; a named one is the caller's to keep.
        if dir == nil { try? FileManager.default.removeItem(at: work) }
        return verdict
    }
}
