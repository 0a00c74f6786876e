import Foundation
import OutpostChaos
import OutpostCore
import OutpostProtocol

/// `outpost bench --instances N --postgres URL`: server ingest through the chaos proxy (every
/// fault off, round-robin over its upstreams) to 1, 2, … N `outpost serve` processes on one
/// PostgreSQL database, the load generator in this process. The proxy is in front at every
/// count, one instance included, so the figures differ only in the number of instances.
extension Bench {
    @MainActor
    func measureInstances(_ maximum: Int, postgres: String) async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let count = quick ? 600 : 3_000
        let levels = [8, 64]
        var figures: [BenchFigure] = []
        for instances in 1...maximum {
            let store = ["--postgres", postgres]
            let email = "instances-\(UUID().uuidString.prefix(8).lowercased())@outpost.test"
            try ServerHandle.bootstrap(store: store, email: email)
            let servers = try await ServerHandle.launch(
                count: instances, store: store, options: poolOptions, logs: work)
            defer { servers.forEach { $0.stop() } }
            let proxy = try await ChaosProxy.bind(
                upstreams: servers.map { .init(port: $0.port) }, faults: .none, seed: 37)
            let proxyTask = Task { await proxy.run() }
            defer { proxyTask.cancel() }
            let client = try await LabClient.signedIn(
                transport: ServerHandle.transport(URL(string: "http://127.0.0.1:\(proxy.port)")!),
                LabClient.Credentials(email: email, password: ServerHandle.password))
            try await servers[0].signIn(as: email)
            let seed = try await servers[0].seed(guests: count * levels.count)
            for (level, concurrency) in levels.enumerated() {
                let result = try await IngestLoad.run(
                    client, event: seed.eventId, guestIds: Array(seed.guestIds.dropFirst(level * count).prefix(count)),
                    concurrency: concurrency)
                let figure = BenchFigure(
                    name:
                        "server ingest PostgreSQL, \(instances) instance\(instances == 1 ? "" : "s") behind the proxy, "
                        + "concurrency \(concurrency)",
                    median: result.rate, p99: result.latencyP99 * 1000, unit: "check-ins/s (p99 column: ms latency)",
                    note: "\(result.count) requests, \(result.errors) errors")
                FileHandle.standardError.write(Data("  \(figure.name): \(Self.describe(figure))\n".utf8))
                figures.append(figure)
            }
        }
        let document = BenchDocument(
            timestamp: OutpostJSON.format(Date()), cores: ProcessInfo.processInfo.activeProcessorCount, quick: quick,
            guests: count * levels.count, figures: figures, scale: [], build: Self.buildMode)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(document).write(to: URL(fileURLWithPath: output))
        print(Self.table(document))
        print("Results written to \(output).")
    }
}
