import Foundation

extension Bench {
    /// `--peer pretix`: pretix's check-in endpoint and position download beside Outpost's ingest
    /// and roster download, on the same database kind, at the same concurrency and size, one
    /// system at a time on this machine. Ratios are Outpost ÷ pretix (higher is faster).
    func comparePretix() async throws {
        let say = { (text: String) in FileHandle.standardError.write(Data("bench: \(text)\n".utf8)) }
        let source =
            peerDirectory ?? ProcessInfo.processInfo.environment["OUTPOST_PRETIX_DIR"] ?? "../shared/peers/pretix"
        let pretix = try PretixPeer.prepare(source: URL(fileURLWithPath: source, isDirectory: true), say: say)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-peer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let perConcurrency = quick ? 200 : 500
        let concurrencies = [1, 8, 64]
        var figures: [BenchFigure] = []
        func report(_ figure: BenchFigure) {
            figures.append(figure)
            FileHandle.standardError.write(Data("  \(figure.name): \(Self.describe(figure))\n".utf8))
        }
        var kinds = [("SQLite", "sqlite")]
        if postgres != nil { kinds.append(("PostgreSQL", "postgres")) }
        for (label, db) in kinds {
            // Outpost first, alone on the machine.
            let server = try await ServerHandle.start(
                directory: work.appendingPathComponent(db), sqlite: db == "sqlite", postgres: postgres)
            let seeded = try await server.seed(guests: PretixPeer.positions)
            var outpostIngest: [Int: IngestLoad.Result] = [:]
            for (index, concurrency) in concurrencies.enumerated() {
                let ids = Array(seeded.guestIds.dropFirst(index * perConcurrency).prefix(perConcurrency))
                outpostIngest[concurrency] = try await IngestLoad.run(
                    server.organizer, event: seeded.eventId, guestIds: ids, concurrency: concurrency)
            }
            let small = try await server.organizer.roster(event: seeded.eventId, limit: 50)
            let large = try await server.organizer.roster(event: seeded.eventId, limit: 2000)
            server.stop()

            // Then pretix, alone on the machine.
            try pretix.start(db: db)
            var pretixRedeem: [Int: PretixPeer.Redeem] = [:]
            var peerDownload: PretixPeer.Download?
            do {
                for concurrency in concurrencies {
                    say("pretix peer (\(db)): \(perConcurrency) check-ins at concurrency \(concurrency)")
                    pretixRedeem[concurrency] = try pretix.redeem(
                        db: db, concurrency: concurrency, count: perConcurrency)
                }
                say("pretix peer (\(db)): full position download")
                peerDownload = try pretix.download(db: db)
            } catch {
                pretix.stop(db: db)
                throw error
            }
            pretix.stop(db: db)

            for concurrency in concurrencies {
                guard let ours = outpostIngest[concurrency], let theirs = pretixRedeem[concurrency] else { continue }
                report(
                    BenchFigure(
                        name: "check-ins/s vs pretix, \(label), concurrency \(concurrency)", median: ours.rate,
                        p99: ours.latencyP99 * 1000, unit: "check-ins/s (p99 column: ms latency)",
                        floorName: "pretix 2026.8.0", floor: theirs.requestsPerSecond,
                        ratio: ours.rate / theirs.requestsPerSecond,
                        note:
                            "Outpost \(ours.count - ours.errors)/\(ours.count) ok; pretix \(theirs.ok)/\(theirs.completed) ok, "
                            + String(format: "p99 %.0f ms", theirs.p99Milliseconds)))
            }
            if let peerDownload {
                for (size, ours) in [(50, small), (2000, large)] {
                    let rate = Double(ours.guests) / ours.seconds
                    report(
                        BenchFigure(
                            name: "roster download vs pretix, \(label), \(ours.guests) guests, pages of \(size)",
                            median: rate, p99: rate, unit: "guests/s",
                            floorName: "pretix 2026.8.0, pages of 50", floor: peerDownload.positionsPerSecond,
                            ratio: rate / peerDownload.positionsPerSecond,
                            note: String(
                                format: "Outpost %d pages in %.2f s; pretix %d positions, %d pages in %.1f s",
                                ours.pages, ours.seconds, peerDownload.positions, peerDownload.pages,
                                peerDownload.seconds)))
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let document = BenchDocument(
            timestamp: ISO8601DateFormatter().string(from: Date()), cores: ProcessInfo.processInfo.activeProcessorCount,
            quick: quick, guests: PretixPeer.positions, figures: figures, scale: [], build: Self.buildMode)
        try encoder.encode(document).write(to: URL(fileURLWithPath: output))
        print(Self.table(document).replacingOccurrences(of: "| ratio |", with: "| ratio (Outpost ÷ pretix) |"))
        print("Results written to \(output).")
    }
}
