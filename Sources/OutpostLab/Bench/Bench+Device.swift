import Foundation
import GRDB
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// The device's paths at one roster size: sync, scan, confirm, search and cold open, each beside
/// its floor, and how big the device got (peak memory, store on disk).
extension Bench {
    /// One size's figures, its row of the scale table, and the device it left (for the drain).
    struct DeviceRun {
        var figures: [BenchFigure]
        var row: ScaleRow
        var app: DeviceApp
        var seeded: Seeder.Seed
        /// Guests of `seeded` the run checked in (the drain takes the next ones).
        var used: Int
    }

    /// One line of "how the cost grows".
    struct ScaleRow: Codable {
        var guests: Int
        var syncSeconds: Double
        var rowsPerSecond: Double
        var syncRatio: Double
        var coldOpenMs: Double
        var coldOpenRatio: Double
        var scanP99Ms: Double
        var confirmP99Ms: Double
        var autocompleteP99Ms: Double
        /// Peak resident memory the bench process grew by while the size ran (the device's,
        /// over what the seeded roster already held).
        var peakRSSMiB: Double
        /// The device's store on disk: the database, its WAL and shared memory.
        var storeMiB: Double
    }

    @MainActor
    func measureDevice(guests: Int, server: ServerHandle, floors: BenchFloors, work: URL) async throws -> DeviceRun {
        let samples = quick || check ? 200 : 1000
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var figures: [BenchFigure] = []
        func report(_ figure: BenchFigure) {
            figures.append(figure)
            FileHandle.standardError.write(Data("  \(figure.name): \(Self.describe(figure))\n".utf8))
        }
        let seeded = try await server.seed(guests: guests)
        FileHandle.standardError.write(Data("seeded \(guests) guests on \(server.url)\n".utf8))
        let residentBefore = ResidentMemory.resetPeak()

        // 1. Roster sync into a fresh sealed device store, against a plain SQLite insert.
        // Each floor the faster of two runs, taken in turns: the first insert of a run was up to
        // a fifth slower than the second (a cold file system), which made the sealed floor the
        // faster of the two.
        var insertSeconds = Double.infinity
        var sealedInsertSeconds = Double.infinity
        for round in 0..<2 {
            insertSeconds = min(
                insertSeconds,
                try BenchFloors.plainInsertSeconds(
                    rows: guests, at: work.appendingPathComponent("floor-\(round).sqlite")))
            sealedInsertSeconds = min(
                sealedInsertSeconds,
                try BenchFloors.plainInsertSeconds(
                    rows: guests, at: work.appendingPathComponent("floor-sealed-\(round).sqlite"),
                    sealingPages: RosterPageCoding.capacity))
        }
        let home = work.appendingPathComponent("device")
        let app = try DeviceApp.launch(home: home, ports: Self.ports(home), modules: .eventDay).opened()
        await app.signIn(server: server.url, email: ServerHandle.email, password: ServerHandle.password)
        let syncStart = ContinuousClock.now
        await app.openEvent(seeded.eventId)
        let syncSeconds = (ContinuousClock.now - syncStart).seconds
        let synced = app.tree().element(UIIdentifier.rosterList)?.attributes["count"] ?? "?"
        let rate = Double(guests) / syncSeconds
        let floorRate = Double(guests) / insertSeconds
        report(
            BenchFigure(
                name: "roster sync (rows/s), \(guests) guests", median: rate, p99: rate, unit: "rows/s",
                floorName: "plain SQLite insert, one transaction", floor: floorRate, ratio: floorRate / rate,
                note: "\(synced) rows synced in \(String(format: "%.2f", syncSeconds)) s (the whole open: every feed)"))
        // The roster's feed alone (the event's other feeds, the organizer's notes among them,
        // are in the figure above), beside both floors: a plain insert, and a plain insert that
        // also seals a page of rows at a time as the device does.
        let rosterSeconds = app.feedSeconds[CheckInModule.name] ?? .nan
        let rosterRate = Double(guests) / rosterSeconds
        report(
            BenchFigure(
                name: "roster feed alone (rows/s), \(guests) guests", median: rosterRate, p99: rosterRate,
                unit: "rows/s", floorName: "plain SQLite insert, one transaction", floor: floorRate,
                ratio: floorRate / rosterRate,
                note: "\(String(format: "%.2f", rosterSeconds)) s of the open's \(String(format: "%.2f", syncSeconds))")
        )
        let sealedFloorRate = Double(guests) / sealedInsertSeconds
        report(
            BenchFigure(
                name: "roster feed alone against sealed pages (rows/s), \(guests) guests", median: rosterRate,
                p99: rosterRate, unit: "rows/s",
                floorName: "plain SQLite insert + one AES-GCM per \(RosterPageCoding.capacity) rows",
                floor: sealedFloorRate, ratio: sealedFloorRate / rosterRate))

        // 2. Scan to decision (verify, look up, decide, show), against one Ed25519 verification.
        let tickets = try await server.organizer.tickets(
            event: seeded.eventId, guests: Array(seeded.guestIds.prefix(samples)))
        var scan = Samples()
        for ticket in tickets {
            scan.time { app.scan(ticket) }
            app.cancel()
        }
        report(
            BenchFigure(
                name: "scan to decision, \(guests) guests", median: scan.median * 1000, p99: scan.p99 * 1000,
                unit: "ms",
                floorName: "one Ed25519 verification", floor: floors.ed25519Verify * 1000,
                ratio: scan.median / floors.ed25519Verify))

        // 3. Confirm: the durable local commit of check-in and outbox entry.
        app.update { $0.online = false }
        var confirm = Samples()
        for ticket in tickets {
            app.scan(ticket)
            let start = ContinuousClock.now
            await app.confirm(replayAfter: false)
            confirm.seconds.append((ContinuousClock.now - start).seconds)
        }
        report(
            BenchFigure(
                name: "confirm (local commit), \(guests) guests", median: confirm.median * 1000,
                p99: confirm.p99 * 1000, unit: "ms", floorName: "one durable SQLite transaction",
                floor: floors.durableTransaction * 1000, ratio: confirm.median / floors.durableTransaction))

        // 4. Autocomplete over the whole roster (the first search builds the index, as every
        // search after a sync that changed the roster does).
        let buildStart = ContinuousClock.now
        let index = try Self.requireIndexImpl(app)
        let buildSeconds = (ContinuousClock.now - buildStart).seconds
        // Building the index starts writing its sealed snapshot on another thread; on two cores
        // that write took the floor's and the first samples' CPU and moved both from run to run.
        await app.indexSnapshotWritten()
        let searchFloor = BenchFloors.binarySearchSeconds(names: seeded.names)
        var autocompleteP99 = 0.0
        for length in 1...3 {
            var search = Samples()
            var random = SeededRandom(seed: UInt64(length))
            for _ in 0..<samples {
                let name = seeded.names.randomElement(using: &random) ?? "a"
                let prefix = String(name.prefix(length))
                search.time { _ = index.search(prefix) }
            }
            autocompleteP99 = max(autocompleteP99, search.p99 * 1000)
            report(
                BenchFigure(
                    name: "autocomplete, \(length)-character prefix, \(guests) guests", median: search.median * 1000,
                    p99: search.p99 * 1000, unit: "ms", floorName: "one binary search over the sorted names",
                    floor: searchFloor * 1000, ratio: search.median / searchFloor))
        }

        // 5. Cold open to interactive: open, migrations, the search index, a first search, the
        // first tree. The build above wrote the index's snapshot; a launch opens it.
        await app.indexSnapshotWritten()
        let snapshotBytes = try Self.snapshotBytes(home: home, eventId: seeded.eventId)
        let openFloor = try BenchFloors.aesGCMOpenSeconds(bytes: snapshotBytes)
        var open = Samples()
        for _ in 0..<(quick || check ? 3 : 5) {
            try open.time {
                let cold = try DeviceApp.launch(home: home, ports: Self.ports(home, online: false), modules: .eventDay)
                    .opened()
                cold.lookup("a")
                _ = cold.tree()
            }
        }
        report(
            BenchFigure(
                name: "cold open to interactive, \(guests) guests", median: open.median * 1000, p99: open.p99 * 1000,
                unit: "ms", floorName: "AES-GCM open of the index snapshot's \(snapshotBytes / 1024) KiB",
                floor: openFloor * 1000, ratio: open.median / openFloor))
        report(
            BenchFigure(
                name: "index built from the roster (the first search after a change), \(guests) guests",
                median: buildSeconds * 1000, p99: buildSeconds * 1000, unit: "ms",
                floorName: "AES-GCM open of the index snapshot's \(snapshotBytes / 1024) KiB", floor: openFloor * 1000,
                ratio: buildSeconds / openFloor, note: "one sample"))

        // The first search after a walk-in at the door (a local roster write): the index follows
        // it instead of being built again as above. Each sample adds one walk-in through the
        // check-in desk, as the walk-in module does, and times the search that finds them; its
        // floor is the same search again on the index that already holds them.
        let desk = try await Self.requireCheckIn(app)
        let accessType = try await Self.requireGuest(desk, eventId: seeded.eventId, id: seeded.guestIds[0]).accessTypeId
        var followed = Samples()
        var again = Samples()
        for number in 0..<(quick || check ? 5 : 10) {
            let name = "Walkin Bench\(number)"
            let walkIn = LocalGuest(
                id: .random(), eventId: seeded.eventId, accessTypeId: accessType, name: name,
                email: "walkin\(number)@example.org", code: "WALKIN\(number)", notes: "", status: .confirmed,
                checkIn: nil)
            try await MainActor.run { try desk.store.queue.write { db in try desk.write(db, guest: walkIn) } }
            var found: [RosterIndex.Match] = []
            followed.time { found = app.index?.search(name) ?? [] }
            guard found.first?.id == walkIn.id else { throw CleanFailure("the search did not find the walk-in") }
            again.time { found = app.index?.search(name) ?? [] }
        }
        report(
            BenchFigure(
                name: "first search after a walk-in (the index follows it), \(guests) guests",
                median: followed.median * 1000, p99: followed.p99 * 1000, unit: "ms",
                floorName: "the same search on the index that holds it", floor: again.median * 1000,
                ratio: followed.median / again.median,
                note: "building the index again took \(Int(buildSeconds * 1000)) ms"))
        // Following a walk-in writes the snapshot again in the background; the child opens it.
        await app.indexSnapshotWritten()

        // The same cold open in a process of its own: its peak memory is the device's alone.
        let child = try Self.childOpen(home: home)
        let childGrowth = child.peakMiB - child.residentBeforeMiB
        // Its floor is the snapshot itself: an index read in place holds no more than its bytes.
        let snapshotMiB = Double(snapshotBytes) / 1_048_576
        report(
            BenchFigure(
                name: "cold open in a child process, peak RSS growth, \(guests) guests", median: childGrowth,
                p99: childGrowth, unit: "MiB", floorName: "the index snapshot's size", floor: snapshotMiB,
                ratio: childGrowth / snapshotMiB,
                note: "\(Int(childGrowth * 1_048_576 / Double(max(guests, 1)))) bytes per guest; "
                    + "the whole process \(Int(child.peakMiB)) MiB at its peak, with the store's pages SQLite maps"))
        let ownGrowth = child.anonymousAfterMiB - child.anonymousBeforeMiB
        report(
            BenchFigure(
                name: "cold open in a child process, own memory growth, \(guests) guests", median: ownGrowth,
                p99: ownGrowth, unit: "MiB", floorName: "the index snapshot's size", floor: snapshotMiB,
                ratio: ownGrowth / snapshotMiB,
                note: "\(child.anonymousBytesPerGuest) bytes per guest (RssAnon: not the files it maps)"))
        let peak = ResidentMemory.peakMiB() - residentBefore
        let store = Self.directoryMiB(home)
        report(
            BenchFigure(
                name: "device size, \(guests) guests", median: store, p99: store, unit: "MiB on disk",
                note: "peak RSS +\(Int(peak)) MiB over the seeded roster; "
                    + (try Self.storeParts(home: home).map { "\($0.name) \(String(format: "%.1f", $0.mib))" }
                        .joined(separator: ", ")) + " MiB; the log "
                    + String(format: "%.1f", Self.fileMiB(home.appendingPathComponent("device.sqlite-wal")))
                    + " MiB"))
        let row = ScaleRow(
            guests: guests, syncSeconds: syncSeconds, rowsPerSecond: rate, syncRatio: floorRate / rate,
            coldOpenMs: open.median * 1000, coldOpenRatio: open.median / openFloor, scanP99Ms: scan.p99 * 1000,
            confirmP99Ms: confirm.p99 * 1000, autocompleteP99Ms: autocompleteP99, peakRSSMiB: peak, storeMiB: store)
        return DeviceRun(figures: figures, row: row, app: app, seeded: seeded, used: samples)
    }

    /// The outbox drain of the last size's device, then server ingest from this process (the
    /// load generator) to `outpost serve` in another.
    @MainActor
    func measureDrainAndIngest(after run: DeviceRun, server: ServerHandle, work: URL) async throws -> [BenchFigure] {
        var figures: [BenchFigure] = []
        func report(_ figure: BenchFigure) {
            figures.append(figure)
            FileHandle.standardError.write(Data("  \(figure.name): \(Self.describe(figure))\n".utf8))
        }
        let app = run.app
        let queued = quick ? 2_000 : 10_000
        for guestId in run.seeded.guestIds.dropFirst(run.used).prefix(queued) {
            app.choose(guestId: guestId)
            await app.confirm(replayAfter: false)
        }
        let pending = app.pendingCount
        app.update { $0.online = true }
        let drainStart = ContinuousClock.now
        await app.sync()
        let drainSeconds = (ContinuousClock.now - drainStart).seconds
        report(
            BenchFigure(
                name: "outbox drain (\(pending) queued)", median: Double(pending) / drainSeconds,
                p99: Double(pending) / drainSeconds, unit: "check-ins/s", note: "\(app.pendingCount) left"))

        for (label, ingestServer) in try await Self.ingestServers(
            work: work, postgres: postgres, postgresPool: postgresPool, sqlite: server)
        {
            let count = quick ? 600 : 3_000
            // The device's roster serves when enough of it is left unchecked (a small --sizes run
            // has too few: then a fresh event, as on PostgreSQL).
            let reuse = ingestServer === server && run.seeded.guestIds.count >= run.used + queued + 4 * count
            let ingestSeed = reuse ? run.seeded : try await ingestServer.seed(guests: quick ? 3_000 : 20_000)
            var offset = reuse ? run.used + queued : 0
            for concurrency in [1, 8, 64] {
                let ids = Array(ingestSeed.guestIds.dropFirst(offset).prefix(count))
                offset += count
                let result = try await IngestLoad.run(
                    ingestServer.organizer, event: ingestSeed.eventId, guestIds: ids, concurrency: concurrency)
                report(
                    BenchFigure(
                        name: "server ingest \(label), concurrency \(concurrency)", median: result.rate,
                        p99: result.latencyP99 * 1000, unit: "check-ins/s (p99 column: ms latency)",
                        note: "\(result.count) requests, \(result.errors) errors"))
            }
            // As doors drain their queues after a reconnect: 8 at once, batches of 100.
            let batched = try await IngestLoad.runBatches(
                ingestServer.organizer, event: ingestSeed.eventId,
                guestIds: Array(ingestSeed.guestIds.dropFirst(offset).prefix(count)), size: 100, concurrency: 8)
            report(
                BenchFigure(
                    name: "server ingest \(label), batches of 100, 8 at once", median: batched.rate,
                    p99: batched.latencyP99 * 1000, unit: "check-ins/s (p99 column: ms per batch)",
                    note: "\(batched.count) check-ins, \(batched.errors) not created"))
            if ingestServer !== server { ingestServer.stop() }
        }
        // The same levels with a transaction per request (`serve --no-group-commit`), beside
        // group commit in the same run: what grouping the concurrent check-ins gives.
        for (label, postgres) in [("SQLite", nil)] + (postgres.map { [("PostgreSQL", $0)] } ?? []) {
            let count = quick ? 600 : 3_000
            let ungrouped = try await ServerHandle.start(
                directory: work.appendingPathComponent("ungrouped-\(label)"), sqlite: postgres == nil,
                postgres: postgres,
                options: ["--no-group-commit"]
                    + (postgres == nil ? [] : poolOptions))
            defer { ungrouped.stop() }
            let seed = try await ungrouped.seed(guests: 3 * count)
            for (level, concurrency) in [8, 64].enumerated() {
                let result = try await IngestLoad.run(
                    ungrouped.organizer, event: seed.eventId,
                    guestIds: Array(seed.guestIds.dropFirst(level * count).prefix(count)), concurrency: concurrency)
                report(
                    BenchFigure(
                        name: "server ingest \(label), concurrency \(concurrency), no group commit",
                        median: result.rate,
                        p99: result.latencyP99 * 1000, unit: "check-ins/s (p99 column: ms latency)",
                        note: "\(result.count) requests, \(result.errors) errors"))
            }
            let batched = try await IngestLoad.runBatches(
                ungrouped.organizer, event: seed.eventId,
                guestIds: Array(seed.guestIds.dropFirst(2 * count).prefix(count)),
                size: 100, concurrency: 8)
            report(
                BenchFigure(
                    name: "server ingest \(label), batches of 100, 8 at once, no group commit", median: batched.rate,
                    p99: batched.latencyP99 * 1000, unit: "check-ins/s (p99 column: ms per batch)",
                    note: "\(batched.count) check-ins, \(batched.errors) not created"))
        }
        return figures
    }

    /// The sealed size of the event's search-index snapshot in the device's store.
    static func snapshotBytes(home: URL, eventId: EventID) throws -> Int {
        let queue = try DatabaseQueue(path: home.appendingPathComponent("device.sqlite").path)
        return try queue.read { db in
            try Int.fetchOne(
                db, sql: "SELECT SUM(length(sealed)) FROM roster_index_parts WHERE event_id = ?",
                arguments: [eventId.wire])
        } ?? 0
    }

    /// Where the store's bytes are: each table and index with its pages (SQLite's `dbstat`), the
    /// largest first, the ones under 1 % of the file left out.
    static func storeParts(home: URL) throws -> [(name: String, mib: Double)] {
        let queue = try DatabaseQueue(path: home.appendingPathComponent("device.sqlite").path)
        return try queue.read { db in
            let parts = try Row.fetchAll(
                db, sql: "SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC"
            ).map { (name: $0["name"] as String, mib: Double($0["bytes"] as Int) / 1_048_576) }
            let total = parts.reduce(0) { $0 + $1.mib }
            return parts.filter { $0.mib >= total / 100 }
        }
    }

    /// One file's size in MiB (0 when there is none).
    static func fileMiB(_ file: URL) -> Double {
        Double((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) / 1_048_576
    }

    /// The size of every file under `directory`, in MiB.
    static func directoryMiB(_ directory: URL) -> Double {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey])
        var bytes = 0
        while let file = files?.nextObject() as? URL {
            bytes += (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return Double(bytes) / 1_048_576
    }

    static func scaleTable(_ rows: [ScaleRow]) -> String {
        var lines = [
            "How the cost grows (ratios: × the floor measured in the same run)",
            "| guests | sync s | rows/s (× insert floor) | cold open ms (× AES-GCM floor) | scan p99 ms | confirm p99 ms | autocomplete p99 ms | peak RSS MiB | store MiB |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            lines.append(
                String(
                    format: "| %d | %.2f | %.0f (%.1f×) | %.1f (%.1f×) | %.3f | %.3f | %.3f | %.0f | %.1f |",
                    row.guests,
                    row.syncSeconds, row.rowsPerSecond, row.syncRatio, row.coldOpenMs, row.coldOpenRatio,
                    row.scanP99Ms, row.confirmP99Ms, row.autocompleteP99Ms, row.peakRSSMiB, row.storeMiB))
        }
        return lines.joined(separator: "\n")
    }
}
