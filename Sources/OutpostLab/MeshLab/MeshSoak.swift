import Foundation
import OutpostCore
import OutpostProtocol

/// `outpost mesh-soak`: doors as real `outpost device mesh` processes, each in its own network
/// namespace on a LAN the run makes (``NetworkLab``), the server out of their reach once they
/// synced. A seeded schedule scans tickets at the doors (often one guest at several doors at
/// once), cuts pairs of doors apart and heals them, isolates doors, and kills doors and starts
/// them again. Then everything heals, the doors converge, the server comes back and each door
/// syncs; ``MeshChecker`` classes every admission, and the verdict's table says whether the
/// guarantee held (violations 0), every door ended with every entry, and the server has every
/// admitted guest checked in.
package struct MeshSoak {
    package var duration: Double
    package var doors: Int
    package var guests: Int
    package var seed: UInt64
    package var discover: Bool
    /// Each door joins this many doors before it (a relay mesh, as a venue past about 20 doors
    /// runs); nil: every door joins every other (or DNS-SD finds them all).
    package var joins: Int?
    package var dir: String?

    package init(
        duration: Double, doors: Int, guests: Int, seed: UInt64, discover: Bool, joins: Int? = nil, dir: String?
    ) {
        self.duration = duration
        self.doors = doors
        self.guests = guests
        self.seed = seed
        self.discover = discover
        self.joins = joins
        self.dir = dir
    }

    /// The pairs of doors that join each other: every pair, or each door and the `joins` before it.
    static func links(doors: Int, joins: Int?) -> Set<[Int]> {
        var links: Set<[Int]> = []
        for door in 0..<doors {
            for earlier in max(0, door - (joins ?? doors))..<door { links.insert([earlier, door]) }
        }
        return links
    }

    /// The propagation bound the checker holds the mesh to (Δ: 1 s unless the run says, as a
    /// relay of many hops on a small machine may need), and the settling time of a path.
    package var bound = 1.0
    package static let settle = 5.0

    /// What the run saw, and its verdict.
    package struct Verdict: Sendable {
        package var rows: [(name: String, value: String, passed: Bool)] = []
        package var passed: Bool { rows.allSatisfy(\.passed) }

        mutating func add(_ name: String, _ value: String, _ passed: Bool = true) {
            rows.append((name, value, passed))
        }

        package var table: String {
            let width = rows.map(\.name.count).max() ?? 0
            return rows.map { row in
                row.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + (row.passed ? "ok    " : "FAILED")
                    + "  " + row.value
            }.joined(separator: "\n")
        }
    }

    /// What happened, as the harness recorded it (seconds on the lab's clock).
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var admissions: [MeshChecker.Admission] = []
        private(set) var denials = 0
        private(set) var lateDenials = 0
        private(set) var unanswered = 0
        private(set) var history: [MeshChecker.Topology] = []

        func admitted(_ admission: MeshChecker.Admission) { lock.withLock { admissions.append(admission) } }
        func denied() { lock.withLock { denials += 1 } }
        func deniedAtConfirm() { lock.withLock { lateDenials += 1 } }
        func lost() { lock.withLock { unanswered += 1 } }
        func topology(_ topology: MeshChecker.Topology) { lock.withLock { history.append(topology) } }
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    package func run() async throws -> Verdict {
        let work = URL(
            fileURLWithPath: dir ?? NSTemporaryDirectory() + "outpost-mesh-soak-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let say = { (text: String) in FileHandle.standardError.write(Data("mesh-soak: \(text)\n".utf8)) }
        say("working in \(work.path)")
        let lab = try NetworkLab(doors: doors, scratch: work)
        defer { lab.tearDown() }

        // 1. The server in the lab's own namespace (the doors reach it at 10.77.0.100), an event.
        let store = ["--sqlite", work.appendingPathComponent("outpost.sqlite").path]
        let email = "mesh-\(UUID().uuidString.prefix(8).lowercased())@outpost.test"
        try ServerHandle.bootstrap(store: store, email: email)
        let server = try await ServerHandle.launch(
            store: store, options: ["--host", "0.0.0.0"], port: try ServerHandle.freePort(),
            log: work.appendingPathComponent("server.log"))
        defer { server.stop() }
        try await server.signIn(as: email)
        let seeded = try await server.seed(guests: guests)
        let tickets = try await server.organizer.tickets(event: seeded.eventId, guests: seeded.guestIds)
        let serverURL = "http://\(NetworkLab.serverAddress):\(server.port)"

        // 2. The doors: signed in, the event open and synced (their certificates), in their
        // namespaces; each door its own staff member (one account signing in at 50 doors at once
        // is what the sign-in throttle is there to stop).
        var staff: [String] = []
        for door in 0..<doors {
            let staffEmail = "door-\(door + 1)-\(email)"
            try await server.organizer.addStaff(
                email: staffEmail, name: "Door \(door + 1) staff", password: ServerHandle.password,
                event: seeded.eventId)
            staff.append(staffEmail)
        }
        let accounts = staff
        var started = ContinuousClock.now
        let labDoors = (0..<doors).map {
            MeshLabDoor(
                index: $0, home: work.appendingPathComponent("door-\($0 + 1)"),
                log: work.appendingPathComponent("door-\($0 + 1).log"), lab: lab)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for door in labDoors {
                group.addTask {
                    try await LabProcess.blocking {
                        try door.prepare(
                            server: serverURL, email: accounts[door.index], password: ServerHandle.password,
                            eventId: seeded.eventId)
                    }
                }
            }
            try await group.waitForAll()
        }
        say("\(doors) doors signed in and synced in \(Int((ContinuousClock.now - started).seconds)) s")
        try lab.setServer(up: false)
        if discover {
            for door in 0..<doors { try lab.startAvahi(door: door) }
        }
        let links = Self.links(doors: doors, joins: discover ? nil : joins)
        let joins = { (door: Int) -> [String] in
            discover
                ? []
                : links.filter { $0[1] == door }.map { "\(NetworkLab.address(door: $0[0])):\(7311)" }.sorted()
        }
        /// How many peers each door has once all are joined.
        let degree = (0..<doors).map { door in links.filter { $0.contains(door) }.count }
        let graph = self.joins == nil || discover ? nil : links
        for door in labDoors { try door.start(joins: joins(door.index), discover: discover) }
        let record = Record()
        let origin = Self.now()
        var up = Set(0..<doors)
        var cuts: Set<[Int]> = []
        record.topology(.init(at: Self.now(), up: up, cuts: cuts, links: graph))

        // 3. Until every door has every other for a peer (discovery or the joins).
        started = ContinuousClock.now
        var meshed = false
        while ContinuousClock.now - started < .seconds(60) {
            var all = true
            for door in labDoors where (await door.send("peers"))?.peers?.count != degree[door.index] { all = false }
            if all {
                meshed = true
                break
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        let meshTime = (ContinuousClock.now - started).seconds
        var verdict = Verdict()
        verdict.add(
            "meshed",
            graph == nil
                ? String(format: "every door had %d peers after %.1f s", doors - 1, meshTime)
                : String(
                    format:
                        "every door had its %d to %d peers (each joins the %d before it; entries relay) after %.1f s",
                    degree.min() ?? 0, degree.max() ?? 0, self.joins ?? 0, meshTime),
            meshed)
        guard meshed else {
            for door in labDoors { door.stop() }
            return verdict
        }

        // 4. The schedule: each door scans on its own; the harness changes the LAN and kills doors.
        let bytesBefore = try (0..<doors).map { try lab.bytes(door: $0) }
        let scheduleStart = ContinuousClock.now
        let phaseEnd = ContinuousClock.now + .milliseconds(Int(duration * 1000))
        var partitions = 0
        var kills = 0
        var isolations = 0
        let scanners = labDoors.map { door in
            let hotSeed = seed
            let seed = seed &+ UInt64(door.index) &* 7919
            return Task {
                var random = SeededRandom(seed: seed)
                while ContinuousClock.now < phaseEnd {
                    // Past 4 doors each scans less often: the event's rate stays that of 4 doors
                    // (a venue's 50 doors at peak scan about as often as 4 busy ones).
                    let pace = max(1, doors / 4)
                    try? await Task.sleep(
                        for: .milliseconds(Int.random(in: 60 * pace...240 * pace, using: &random)))
                    // Half the scans are of the guest every door picks in the same 300 ms slot (a
                    // screenshot shared in a group chat, shown at several doors at once).
                    let ticket: String
                    if Bool.random(using: &random) {
                        var slot = SeededRandom(seed: hotSeed ^ UInt64(Date().timeIntervalSince1970 * 1000 / 300))
                        ticket = tickets[Int(slot.next() % UInt64(tickets.count))]
                    } else {
                        ticket = tickets.randomElement(using: &random)!
                    }
                    await Self.scan(ticket, at: door, record: record)
                }
            }
        }
        var random = SeededRandom(seed: seed ^ 0x5eed)
        while ContinuousClock.now < phaseEnd {
            try await Task.sleep(for: .milliseconds(Int.random(in: 1500...4000, using: &random)))
            guard ContinuousClock.now < phaseEnd else { break }
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                let a = Int.random(in: 0..<doors, using: &random)
                let b = (a + Int.random(in: 1..<doors, using: &random)) % doors
                try lab.cut(a, b)
                cuts.insert([a, b].sorted())
                partitions += 1
            case 4..<6:
                try lab.healCuts()
                cuts = []
                for door in 0..<doors where !up.contains(door) && labDoors[door].isRunning {
                    try lab.setDoor(door, up: true)
                    up.insert(door)
                }
            case 6..<8:
                let door = Int.random(in: 0..<doors, using: &random)
                if up.contains(door) {
                    try lab.setDoor(door, up: false)
                    up.remove(door)
                    isolations += 1
                }
            default:
                let door = Int.random(in: 0..<doors, using: &random)
                if labDoors[door].isRunning {
                    up.remove(door)
                    record.topology(.init(at: Self.now(), up: up, cuts: cuts, links: graph))
                    labDoors[door].kill()
                    kills += 1
                    try await Task.sleep(for: .milliseconds(Int.random(in: 500...2000, using: &random)))
                    try labDoors[door].start(joins: joins(door), discover: discover)
                    try lab.setDoor(door, up: true)
                    up.insert(door)
                }
            }
            record.topology(.init(at: Self.now(), up: up, cuts: cuts, links: graph))
        }
        for scanner in scanners { await scanner.value }
        let scheduleSeconds = (ContinuousClock.now - scheduleStart).seconds
        let perDoor = try (0..<doors).map { Double(try lab.bytes(door: $0) - bytesBefore[$0]) / scheduleSeconds }
            .sorted()
        say("schedule over: \(record.admissions.count) admissions, \(record.denials) denials; healing")

        // 5. Everything heals; every door ends with every entry.
        try lab.healCuts()
        for door in 0..<doors { try lab.setDoor(door, up: true) }
        record.topology(.init(at: Self.now(), up: Set(0..<doors), cuts: [], links: graph))
        started = ContinuousClock.now
        var counts: [Int] = []
        var converged = false
        while ContinuousClock.now - started < .seconds(60) {
            counts = []
            for door in labDoors { counts.append((await door.send("status"))?.entries ?? -1) }
            if Set(counts).count == 1, counts[0] >= record.admissions.count {
                converged = true
                break
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        let convergence = (ContinuousClock.now - started).seconds

        // 6. The last door goes dark for good (a flat battery) before the server comes back: its
        // admissions reach the server only through the others (custody). Every other door syncs
        // until nothing waits.
        let dark = doors - 1
        labDoors[dark].kill()
        try lab.setServer(up: true)
        var pending: [Int] = []
        for door in labDoors where door.index != dark {
            var left = -1
            for _ in 0..<10 {
                left = (await door.send("sync", timeout: .seconds(60)))?.pending ?? -1
                if left == 0 { break }
            }
            pending.append(left)
        }
        for door in labDoors { door.stop() }
        var checkedIn: Set<GuestID> = []
        try await server.organizer.roster(event: seeded.eventId, limit: 1000) { page in
            for guest in page.guests where guest.checkIn != nil { checkedIn.insert(guest.id) }
        }
        let admittedGuests = Set(
            record.admissions.compactMap { admission in
                tickets.firstIndex(of: admission.ticket).map { seeded.guestIds[$0] }
            })

        // The run's history as the checker reads it, kept in the working directory for a look
        // afterwards (every admission with its door and times, every change of the LAN).
        struct History: Encodable {
            var origin: Double
            var admissions: [MeshChecker.Admission]
            var topology: [MeshChecker.Topology]
        }
        try? JSONEncoder().encode(History(origin: origin, admissions: record.admissions, topology: record.history))
            .write(to: work.appendingPathComponent("history.json"))

        // 7. The verdict.
        let checker = MeshChecker(bound: bound, settle: Self.settle)
        let classes = checker.classify(record.admissions, history: record.history)
        let needed = checker.neededBound(record.admissions, history: record.history)
        func count(_ kind: MeshChecker.Class) -> Int { classes.filter { $0.1 == kind }.count }
        verdict.add(
            "schedule",
            String(
                format: "%.0f s, %d doors, %d guests, seed %llu, %@", duration, doors, guests, seed,
                discover ? "DNS-SD discovery (Avahi)" : "static joins"))
        verdict.add(
            "scans",
            "\(record.admissions.count + record.denials + record.lateDenials + record.unanswered) (\(record.admissions.count) admitted, \(record.denials) already checked in, \(record.lateDenials) refused at confirm as a peer's admission arrived, \(record.unanswered) cut short by a kill)",
            record.admissions.count > 0)
        verdict.add(
            "faults",
            "\(partitions) pair cuts, \(isolations) doors isolated, \(kills) doors killed; the server out of reach throughout"
        )
        verdict.add("first admissions", "\(count(.first))")
        verdict.add("races within bound", "\(count(.race)) (Δ = \(bound) s; both kept)")
        verdict.add(
            "partition duplicates", "\(count(.partitioned)) (doors apart, or their path under \(Self.settle) s old)")
        let violations = classes.filter { $0.1 == .violation }.map(\.0)
        verdict.add(
            "violations",
            "\(violations.count)"
                + (violations.isEmpty
                    ? ""
                    : ": "
                        + violations.prefix(5).map {
                            "ticket …\($0.ticket.suffix(6)) at door \($0.door + 1) at +\(String(format: "%.2f", $0.started - origin)) s"
                        }.joined(separator: "; ")
                        + String(format: " (Δ = %.2f s would have held)", needed)),
            violations.isEmpty)
        verdict.add(
            "converged",
            String(
                format: "every door holds %@ entries after %.1f s (admitted %d)",
                counts.map(String.init).joined(separator: "/"), convergence, record.admissions.count),
            converged)
        verdict.add(
            "outboxes drained", "pending \(pending.map(String.init).joined(separator: "/")) (door \(dark + 1) dark)",
            pending.allSatisfy { $0 == 0 })
        let darkGuests = Set(
            record.admissions.filter { $0.door == dark }.compactMap { admission in
                tickets.firstIndex(of: admission.ticket).map { seeded.guestIds[$0] }
            })
        verdict.add(
            "custody",
            "door \(dark + 1) never came back: \(darkGuests.intersection(checkedIn).count) of its \(darkGuests.count) admitted guests reached the server through the other doors",
            darkGuests.isSubset(of: checkedIn))
        let kilobytes = { (value: Double) in String(format: "%.1f KB/s", value / 1000) }
        verdict.add(
            "bandwidth per door",
            "median \(kilobytes(perDoor[perDoor.count / 2])), most \(kilobytes(perDoor.last ?? 0)) (both ways on its link, DNS-SD included) at \(String(format: "%.1f", Double(record.admissions.count) / scheduleSeconds)) admissions/s in the event"
        )
        verdict.add(
            "server has every admission",
            "\(admittedGuests.subtracting(checkedIn).count) of \(admittedGuests.count) admitted guests missing",
            admittedGuests.isSubset(of: checkedIn))
        return verdict
    }

    /// One scan at `door`: the ticket; then "already checked in" (here or at a peer) is a
    /// denial, a confirmation card is confirmed.
    static func scan(_ ticket: String, at door: MeshLabDoor, record: Record) async {
        let started = now()
        guard let answer = await door.send("scan \(ticket)") else { return record.lost() }
        guard answer.confirming == true else { return }
        if answer.alreadyCheckedIn != nil {
            _ = await door.send("cancel")
            return record.denied()
        }
        guard let confirmed = await door.send("confirm") else { return record.lost() }
        if confirmed.confirmed == nil, confirmed.alreadyCheckedIn != nil {
            // A peer's admission arrived while the card was up: the door refused the confirm.
            _ = await door.send("cancel")
            return record.deniedAtConfirm()
        }
        guard confirmed.confirmed != nil, let at = confirmed.at else { return }
        record.admitted(.init(ticket: ticket, door: door.index, started: started, committed: Double(at) / 1000))
    }
}
