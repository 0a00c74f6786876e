import ArgumentParser
import Crypto
import Foundation
import GRDB
import Logging
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `outpost bench`: measured figures, each beside a floor measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Outpost's paths (sync, scan, confirm, search, open, drain, ingest) against floors.",
        discussion: """
            Prints a table and writes JSON (--output). --quick runs in about a minute with 10,000 \
            guests; the default run uses 100,000. Server ingest runs against `outpost serve` in a \
            separate process on SQLite, and on PostgreSQL too when --postgres is given. Nothing \
            here fails on time: these are figures, not assertions.
            """
    )

    @Flag(help: "A one-minute run (10,000 guests, fewer samples).")
    var quick = false

    @Option(help: ArgumentHelp("Write the results as JSON to this file.", valueName: "path"))
    var output = "bench-results.json"

    @Option(help: ArgumentHelp("Also measure ingest on this PostgreSQL database (it is written to).", valueName: "url"))
    var postgres: String?

    @Option(
        help: ArgumentHelp(
            "Compare side by side with a peer instead of measuring the device paths (only: pretix).",
            valueName: "name"))
    var peer: String?

    @Option(
        name: .customLong("peer-dir"),
        help: ArgumentHelp(
            "The peer's scripts (default $OUTPOST_PRETIX_DIR, else ../shared/peers/pretix; a read-only folder is copied to .build-peer/pretix).",
            valueName: "dir"))
    var peerDirectory: String?

    func validate() throws {
        if let peer, peer != "pretix" { throw ValidationError("The only peer is pretix.") }
    }

    @MainActor
    func run() async throws {
        if peer != nil {
            try await comparePretix()
            return
        }
        let guests = quick ? 10_000 : 100_000
        let samples = quick ? 200 : 1000
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var figures: [BenchFigure] = []
        func report(_ figure: BenchFigure) {
            figures.append(figure)
            FileHandle.standardError.write(Data("  \(figure.name): \(Self.describe(figure))\n".utf8))
        }

        let server = try await ServerHandle.start(directory: work.appendingPathComponent("server"), sqlite: true)
        defer { server.stop() }
        let seeded = try await server.seed(guests: guests)
        FileHandle.standardError.write(Data("seeded \(guests) guests on \(server.url)\n".utf8))

        // 1. Roster sync into a fresh sealed device store, against a plain SQLite insert.
        let floorInsert = try Self.plainInsert(rows: guests, at: work.appendingPathComponent("floor.sqlite"))
        let home = work.appendingPathComponent("device")
        let app = DeviceApp.launch(home: home, ports: Self.ports(home))
        await app.signIn(server: server.url, email: ServerHandle.email, password: ServerHandle.password)
        let syncStart = ContinuousClock.now
        await app.openEvent(seeded.eventId)
        let syncSeconds = (ContinuousClock.now - syncStart).seconds
        let synced = app.tree().element(UIIdentifier.rosterList)?.attributes["count"] ?? "?"
        report(
            BenchFigure(
                name: "roster sync \(guests) guests (rows/s)", median: Double(guests) / syncSeconds,
                p99: Double(guests) / syncSeconds,
                unit: "rows/s", floorName: "plain SQLite insert, one transaction", floor: Double(guests) / floorInsert,
                ratio: (Double(guests) / floorInsert) / (Double(guests) / syncSeconds),
                note: "\(synced) rows synced; peak RSS \(Int(peakResidentMiB())) MiB"))

        // 2. Scan to decision (verify, look up, decide, show), against raw Ed25519 verification.
        let tickets = try await server.organizer.tickets(
            event: seeded.eventId, guests: Array(seeded.guestIds.prefix(samples)))
        var scan = Samples()
        for ticket in tickets {
            scan.time { app.scan(ticket) }
            app.cancel()
        }
        let verifyFloor = Self.ed25519VerifySeconds()
        report(
            BenchFigure(
                name: "scan to decision", median: scan.median * 1000, p99: scan.p99 * 1000, unit: "ms",
                floorName: "one Ed25519 verification", floor: verifyFloor * 1000, ratio: scan.median / verifyFloor))

        // 3. Confirm: the durable local commit of check-in + outbox entry.
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
                name: "confirm (local commit)", median: confirm.median * 1000, p99: confirm.p99 * 1000, unit: "ms"))

        // 4. Autocomplete over the whole roster.
        let index = try Self.requireIndexImpl(app)
        for length in 1...3 {
            var search = Samples()
            var random = SeededRandom(seed: UInt64(length))
            for _ in 0..<samples {
                let name = seeded.names.randomElement(using: &random) ?? "a"
                let prefix = String(name.prefix(length))
                search.time { _ = index.search(prefix) }
            }
            report(
                BenchFigure(
                    name: "autocomplete, \(length)-character prefix", median: search.median * 1000,
                    p99: search.p99 * 1000,
                    unit: "ms"))
        }

        // 5. Cold open to interactive: open, migrations, roster index, first tree. The first
        // search above built the index; its snapshot is what a launch opens.
        await app.indexSnapshotWritten()
        var open = Samples()
        for _ in 0..<(quick ? 3 : 5) {
            open.time {
                let cold = DeviceApp.launch(home: home, ports: Self.ports(home, online: false))
                cold.lookup("a")
                _ = cold.tree()
            }
        }
        report(
            BenchFigure(
                name: "cold open to interactive (\(guests) guests)", median: open.median * 1000, p99: open.p99 * 1000,
                unit: "ms"))

        // 6. Outbox drain to the local server.
        let queued = quick ? 2_000 : 10_000
        for guestId in seeded.guestIds.dropFirst(samples).prefix(queued) {
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
                p99: Double(pending) / drainSeconds,
                unit: "check-ins/s", note: "\(app.pendingCount) left"))

        // 7. Server ingest from this process (the load generator) to `outpost serve` in another.
        for (label, ingestServer) in try await Self.ingestServers(work: work, postgres: postgres, sqlite: server) {
            let ingestSeed =
                ingestServer === server ? seeded : try await ingestServer.seed(guests: quick ? 3_000 : 20_000)
            var offset = ingestServer === server ? samples + queued : 0
            for concurrency in [1, 8, 64] {
                let count = quick ? 600 : 3_000
                let ids = Array(ingestSeed.guestIds.dropFirst(offset).prefix(count))
                offset += count
                let result = try await IngestLoad.run(
                    ingestServer.organizer, event: ingestSeed.eventId, guestIds: ids, concurrency: concurrency)
                report(
                    BenchFigure(
                        name: "server ingest \(label), concurrency \(concurrency)", median: result.rate,
                        p99: result.latencyP99 * 1000,
                        unit: "check-ins/s (p99 column: ms latency)",
                        note: "\(result.count) requests, \(result.errors) errors"))
            }
            if ingestServer !== server { ingestServer.stop() }
        }

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let document = BenchDocument(
            timestamp: OutpostJSON.format(Date()), cores: ProcessInfo.processInfo.activeProcessorCount, quick: quick,
            guests: guests, figures: figures)
        try encoder.encode(document).write(to: URL(fileURLWithPath: output))
        print(Self.table(document))
        print("Results written to \(output).")
    }

    struct BenchDocument: Codable {
        var timestamp: String
        var cores: Int
        var quick: Bool
        var guests: Int
        var figures: [BenchFigure]
    }

    static func ports(_ home: URL, online: Bool = true) -> DevicePorts {
        DevicePorts(
            keyStore: FileKeyStore(url: home.appendingPathComponent("device.key")), transport: OfflineTransport(),
            online: online)
    }

    @MainActor
    static func requireIndexImpl(_ app: DeviceApp) throws -> RosterIndex {
        guard let index = app.index else { throw CleanFailure("the device has no roster to search") }
        return index
    }

    /// Inserts `rows` guest-shaped rows into a fresh SQLite file in one transaction; seconds.
    static func plainInsert(rows: Int, at url: URL) throws -> Double {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(
                sql: "CREATE TABLE guests (id TEXT PRIMARY KEY, name TEXT, email TEXT, code TEXT, notes TEXT)")
        }
        let start = ContinuousClock.now
        try queue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO guests VALUES (?, ?, ?, ?, ?)")
            for index in 0..<rows {
                try statement.execute(arguments: [
                    UUID().uuidString, "Guest Name \(index)", "guest\(index)@example.org", "CODE\(index)", "",
                ])
            }
        }
        return (ContinuousClock.now - start).seconds
    }

    /// Seconds per Ed25519 signature verification (the floor of a ticket check).
    static func ed25519VerifySeconds() -> Double {
        let key = Curve25519.Signing.PrivateKey()
        let message = Data((0..<57).map { UInt8($0) })
        let signature = (try? key.signature(for: message)) ?? Data()
        let rounds = 2_000
        let start = ContinuousClock.now
        var valid = 0
        for _ in 0..<rounds where key.publicKey.isValidSignature(signature, for: message) { valid += 1 }
        return (ContinuousClock.now - start).seconds / Double(max(valid, 1))
    }

    static func ingestServers(
        work: URL, postgres: String?, sqlite: ServerHandle
    ) async throws -> [(String, ServerHandle)] {
        var servers = [("SQLite", sqlite)]
        if let postgres {
            servers.append(
                (
                    "PostgreSQL",
                    try await ServerHandle.start(
                        directory: work.appendingPathComponent("pg"), sqlite: false, postgres: postgres)
                ))
        }
        return servers
    }

    static func describe(_ figure: BenchFigure) -> String {
        var text = String(format: "median %.3f, p99 %.3f %@", figure.median, figure.p99, figure.unit)
        if let ratio = figure.ratio, let floorName = figure.floorName {
            text += String(format: " (%.1f× %@)", ratio, floorName)
        }
        return text
    }

    static func table(_ document: BenchDocument) -> String {
        var lines = [
            "Outpost bench \(document.timestamp) · \(document.cores) cores · \(document.guests) guests\(document.quick ? " (quick)" : "")",
            "| figure | median | p99 | unit | floor | ratio | note |", "|---|---|---|---|---|---|---|",
        ]
        for figure in document.figures {
            let floor = figure.floor.map { String(format: "%.4g (%@)", $0, figure.floorName ?? "") } ?? ""
            let ratio = figure.ratio.map { String(format: "%.1f×", $0) } ?? ""
            lines.append(
                "| \(figure.name) | \(String(format: "%.4g", figure.median)) | \(String(format: "%.4g", figure.p99)) | \(figure.unit) | \(floor) | \(ratio) | \(figure.note ?? "") |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
