import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// `outpost bench`'s harness: the device's paths at each roster size, the outbox drain and the
/// server's ingest, each figure beside a floor measured in the same run (``BenchFloors``); the
/// table, the JSON document and the `--check` comparison with the baselines.
package struct Bench {
    package var quick: Bool
    package var check: Bool
    package var writeBaseline: Bool
    /// Roster sizes to measure; nil: the default for the run's kind (``rosterSizes()``).
    package var sizes: [Int]?
    package var baselines: String
    package var margin: Double
    package var output: String
    package var postgres: String?
    package var postgresPool: Int?
    /// Side by side with pretix instead of the device paths.
    package var peer: Bool
    package var peerDirectory: String?
    /// Ingest through the chaos proxy to 1…N server instances on `postgres`, instead of the
    /// device paths (``measureInstances(_:postgres:)``).
    package var instances: Int?
    /// The venue mesh's propagation instead of the device paths (``measureMesh()``).
    package var mesh = false

    package init(
        quick: Bool, check: Bool, writeBaseline: Bool, sizes: [Int]?, baselines: String, margin: Double, output: String,
        postgres: String?, postgresPool: Int?, peer: Bool, peerDirectory: String?, instances: Int? = nil
    ) {
        self.instances = instances
        self.quick = quick
        self.check = check
        self.writeBaseline = writeBaseline
        self.sizes = sizes
        self.baselines = baselines
        self.margin = margin
        self.output = output
        self.postgres = postgres
        self.postgresPool = postgresPool
        self.peer = peer
        self.peerDirectory = peerDirectory
    }

    @MainActor
    package func run() async throws {
        if peer {
            try await comparePretix()
            return
        }
        if mesh {
            try await measureMesh()
            return
        }
        if let instances {
            guard let postgres else { throw CleanFailure("--instances needs --postgres (the instances share it)") }
            try await measureInstances(instances, postgres: postgres)
            return
        }
        let sizes = rosterSizes()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let server = try await ServerHandle.start(directory: work.appendingPathComponent("server"), sqlite: true)
        defer { server.stop() }
        var (figures, scale, last) = try await measureSizes(
            sizes, server: server, work: work.appendingPathComponent("1"))
        if !check, let last {
            figures += try await measureDrainAndIngest(after: last, server: server, work: work)
        }
        figures += try await measureMeshCost(server: server, work: work.appendingPathComponent("mesh-cost"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var document = BenchDocument(
            timestamp: OutpostJSON.format(Date()), cores: ProcessInfo.processInfo.activeProcessorCount, quick: quick,
            guests: sizes.last ?? 0, figures: figures, scale: scale, build: Self.buildMode)
        try encoder.encode(document).write(to: URL(fileURLWithPath: output))
        print(Self.table(document))
        print(Self.scaleTable(scale))
        print("Results written to \(output).")
        if check {
            // A regression must reproduce: a figure past its limit is measured once more (the
            // whole run, floors included) and keeps the better of its two ratios. A real 3x
            // regression stays; a burst of load on a shared machine does not fail the run.
            let failed = try regressedFigures(document)
            if !failed.isEmpty {
                print(
                    "bench --check: \(failed.joined(separator: "; ")) past the limit; measuring again to see "
                        + "whether it reproduces")
                let again = try await measureSizes(sizes, server: server, work: work.appendingPathComponent("2"))
                document.figures = BenchFigure.better(document.figures, again.figures)
            }
        }
        if check || writeBaseline {
            try compareWithBaselines(document)
        }
    }

    /// Every roster size's device figures, with floors measured in the same pass, and the growth
    /// between the smallest and the largest.
    @MainActor
    func measureSizes(
        _ sizes: [Int], server: ServerHandle, work: URL
    ) async throws -> (
        figures: [BenchFigure], scale: [ScaleRow], last: DeviceRun?
    ) {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let floors = try BenchFloors.common(work: work)
        var figures: [BenchFigure] = []
        var scale: [ScaleRow] = []
        var last: DeviceRun?
        for size in sizes {
            let run = try await measureDevice(
                guests: size, server: server, floors: floors, work: work.appendingPathComponent("size-\(size)"))
            figures += run.figures
            scale.append(run.row)
            last = run
        }
        figures += BenchFigure.growth(figures, sizes: sizes)
        figures += BenchFigure.ownMemoryPerGuest(figures, sizes: sizes)
        return (figures, scale, last)
    }

    /// The roster sizes to measure: `sizes`, else 2,000 and 50,000 (`check`), 10,000 (`quick`)
    /// or all three.
    func rosterSizes() -> [Int] {
        if let sizes { return sizes }
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

    @MainActor
    static func requireCheckIn(_ app: DeviceApp) throws -> CheckInModule {
        guard let module = app.checkInModule else { throw CleanFailure("the device has no check-in module") }
        return module
    }

    @MainActor
    static func requireGuest(_ desk: CheckInModule, eventId: EventID, id: GuestID) throws -> LocalGuest {
        guard let guest = desk.guest(eventId: eventId, id: id) else {
            throw CleanFailure("the device's roster has no guest \(id.wire)")
        }
        return guest
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
                        options: poolOptions(postgresPool))
                ))
        }
        return servers
    }

    /// `serve`'s options for a PostgreSQL server: `--postgres-pool` when one was given.
    var poolOptions: [String] { Self.poolOptions(postgresPool) }

    static func poolOptions(_ pool: Int?) -> [String] { pool.map { ["--postgres-pool", String($0)] } ?? [] }

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
