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

/// `outpost bench`: measured figures, each beside a floor measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Outpost's paths (sync, scan, confirm, search, open, drain, ingest) against floors.",
        discussion: """
            Prints a table and writes JSON (--output). The default run measures the device at \
            10,000, 100,000 and 1,000,000 guests (--sizes), each figure beside a floor measured in \
            the same run, and prints how each grows; --quick measures 10,000 in about a minute. \
            Server ingest runs against `outpost serve` in a separate process on SQLite, and on \
            PostgreSQL too when --postgres is given. Nothing fails on time: --check compares \
            ratios to floors with committed baselines, never absolute times.
            """
    )

    @Flag(help: "A one-minute run (10,000 guests, fewer samples).")
    var quick = false

    @Option(
        help: ArgumentHelp(
            "Roster sizes to measure, comma-separated (default 10000,100000,1000000; 10000 with --quick).",
            valueName: "counts"))
    var sizes: String?

    @Flag(
        help: """
            Compare each figure's ratio to its floor with the committed baselines (--baselines) and \
            fail when one is more than --margin times its baseline. Measures the device paths at \
            2,000 and 50,000 guests, and how each grew between them; no drain or ingest.
            """)
    var check = false

    @Flag(name: .customLong("write-baseline"), help: "Record this run's ratios as the baselines of this build.")
    var writeBaseline = false

    @Option(help: ArgumentHelp("The baselines file.", valueName: "path"))
    var baselines = "scripts/bench-baselines.json"

    @Option(help: ArgumentHelp("How many times its baseline a ratio may be before --check fails.", valueName: "x"))
    var margin = 3.0

    @Option(help: ArgumentHelp("Write the results as JSON to this file.", valueName: "path"))
    var output = "bench-results.json"

    @Option(help: ArgumentHelp("Also measure ingest on this PostgreSQL database (it is written to).", valueName: "url"))
    var postgres: String?

    @Option(
        name: .customLong("postgres-pool"),
        help: ArgumentHelp("The PostgreSQL server's connection pool (serve --postgres-pool).", valueName: "n"))
    var postgresPool: Int?

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
        let sizes = try rosterSizes()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var figures: [BenchFigure] = []
        var scale: [ScaleRow] = []
        let server = try await ServerHandle.start(directory: work.appendingPathComponent("server"), sqlite: true)
        defer { server.stop() }
        let floors = try BenchFloors.common(work: work)
        var last: DeviceRun?
        for size in sizes {
            let run = try await measureDevice(
                guests: size, server: server, floors: floors, work: work.appendingPathComponent("size-\(size)"))
            figures += run.figures
            scale.append(run.row)
            last = run
        }
        figures += BenchFigure.growth(figures, sizes: sizes)
        if !check, let last {
            figures += try await measureDrainAndIngest(after: last, server: server, work: work)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let document = BenchDocument(
            timestamp: OutpostJSON.format(Date()), cores: ProcessInfo.processInfo.activeProcessorCount, quick: quick,
            guests: sizes.last ?? 0, figures: figures, scale: scale, build: Self.buildMode)
        try encoder.encode(document).write(to: URL(fileURLWithPath: output))
        print(Self.table(document))
        print(Self.scaleTable(scale))
        print("Results written to \(output).")
        if check || writeBaseline {
            try compareWithBaselines(document)
        }
    }

    /// The roster sizes to measure: --sizes, else 2,000 and 50,000 (--check), 10,000 (--quick) or
    /// all three.
    func rosterSizes() throws -> [Int] {
        if let sizes {
            let parsed = sizes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) >= 100 }) else {
                throw ValidationError("--sizes takes guest counts of at least 100, separated by commas")
            }
            return parsed.compactMap { $0 }
        }
        if check { return [2_000, 50_000] }
        return quick ? [10_000] : [10_000, 100_000, 1_000_000]
    }

    struct BenchDocument: Codable {
        var timestamp: String
        var cores: Int
        var quick: Bool
        var guests: Int
        var figures: [BenchFigure]
        var scale: [ScaleRow]
        /// "release" or "debug": ratios are only comparable within one.
        var build: String
    }

    #if DEBUG
    static let buildMode = "debug"
    #else
    static let buildMode = "release"
    #endif

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

    static func ingestServers(
        work: URL, postgres: String?, postgresPool: Int?, sqlite: ServerHandle
    ) async throws -> [(String, ServerHandle)] {
        var servers = [("SQLite", sqlite)]
        if let postgres {
            servers.append(
                (
                    "PostgreSQL",
                    try await ServerHandle.start(
                        directory: work.appendingPathComponent("pg"), sqlite: false, postgres: postgres,
                        options: postgresPool.map { ["--postgres-pool", String($0)] } ?? [])
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
