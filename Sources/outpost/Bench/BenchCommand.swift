import ArgumentParser
import Foundation
import OutpostLab

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

    @Option(
        help: ArgumentHelp(
            "Instead of the device paths, measure ingest through the chaos proxy (faults off) to 1, 2, … n server instances on --postgres.",
            valueName: "n"))
    var instances: Int?

    @Flag(
        help:
            "Instead of the device paths, measure the venue mesh: propagation to the last of 10 and 50 doors on loopback over mutual TLS, and the bytes each sends, beside one loopback round trip."
    )
    var mesh = false

    @Option(
        name: .customLong("open-device"),
        help: ArgumentHelp(
            "Open the device at this folder cold and print its peak memory as JSON (the bench runs this in a child process).",
            valueName: "dir", visibility: .hidden))
    var openDevice: String?

    func validate() throws {
        if let peer, peer != "pretix" { throw ValidationError("The only peer is pretix.") }
        if let instances {
            guard (1...16).contains(instances) else { throw ValidationError("--instances must be from 1 to 16.") }
            guard postgres != nil else {
                throw ValidationError("--instances needs --postgres: the instances share one database.")
            }
        }
        _ = try rosterSizes()
    }

    @MainActor
    func run() async throws {
        if let openDevice {
            print(try await Bench.openDeviceHere(home: URL(fileURLWithPath: openDevice)))
            return
        }
        var bench = Bench(
            quick: quick, check: check, writeBaseline: writeBaseline, sizes: try rosterSizes(), baselines: baselines,
            margin: margin, output: output, postgres: postgres, postgresPool: postgresPool, peer: peer != nil,
            peerDirectory: peerDirectory, instances: instances)
        bench.mesh = mesh
        try await bench.run()
    }

    /// The roster sizes of --sizes, if given.
    func rosterSizes() throws -> [Int]? {
        guard let sizes else { return nil }
        let parsed = sizes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) >= 100 }) else {
            throw ValidationError("--sizes takes guest counts of at least 100, separated by commas")
        }
        return parsed.compactMap { $0 }
    }
}
