import Foundation
import NIOCore
import NIOPosix
import OutpostCore
import OutpostDevice
import OutpostProtocol

extension Bench {
    /// `--mesh`: the venue mesh's propagation on this machine's loopback, real nodes over mutual
    /// TLS. With 10 doors (every door joined to every other) and 50 (each door joined to up to 4
    /// earlier ones: entries relay), admissions at random doors, one every 20 ms: how long until
    /// the last door has each (p50, p99), and the bytes each door sends per second. The floor is
    /// one TCP round trip on the same loopback, measured in the same run.
    @MainActor
    func measureMesh() async throws {
        let floor = try await Self.loopbackRoundTrip()
        var figures: [BenchFigure] = []
        for (doors, fullMesh) in [(10, true), (50, false)] {
            figures += try await Self.meshPropagation(
                doors: doors, fullMesh: fullMesh, admissions: quick ? 60 : 200, floor: floor)
        }
        let document = BenchDocument(
            timestamp: OutpostJSON.format(Date()), cores: ProcessInfo.processInfo.activeProcessorCount, quick: quick,
            guests: 0, figures: figures, scale: [], build: Self.buildMode)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(document).write(to: URL(fileURLWithPath: output))
        print(Self.table(document))
        print("Results written to \(output).")
    }

    @MainActor
    static func meshPropagation(
        doors count: Int, fullMesh: Bool, admissions: Int, floor: Double
    ) async throws
        -> [BenchFigure]
    {
        let say = { (text: String) in FileHandle.standardError.write(Data("bench: \(text)\n".utf8)) }
        let tenant = TenantID.random()
        let event = EventID.random()
        let now = Date()
        let authority = try MeshAuthority.make(tenant: tenant, now: now)
        let doors = try (1...count).map {
            try MeshBenchDoor(device: "door-\($0)", authority: authority, tenant: tenant, event: event, now: now)
        }
        var ports: [Int] = []
        for door in doors { ports.append(try await door.node.listen(host: "127.0.0.1")) }
        var random = SeededRandom(seed: UInt64(count))
        var degree = [Int](repeating: 0, count: count)
        var sessions: [Task<Void, any Error>] = []
        for index in 1..<count {
            let targets =
                fullMesh ? Array(0..<index) : Array((0..<index).shuffled(using: &random).prefix(4))
            for target in targets {
                sessions.append(await doors[index].node.joinInBackground(host: "127.0.0.1", port: ports[target]))
                degree[index] += 1
                degree[target] += 1
            }
        }
        for (index, door) in doors.enumerated() {
            let expected = degree[index]
            guard await door.node.waitUntil(timeout: .seconds(120), { $0.peers.count >= expected }) else {
                throw CleanFailure("mesh bench: \(door.device) did not meet its \(expected) peers")
            }
        }
        say("\(count) doors meshed (\(sessions.count) sessions); \(admissions) admissions, one every 20 ms")
        var startBytes: [Int] = []
        for door in doors { startBytes.append(await door.node.bytesSent) }
        let started = ContinuousClock.now
        var committed: [(id: Data, at: ContinuousClock.Instant, author: Int)] = []
        for _ in 0..<admissions {
            let author = Int.random(in: 0..<count, using: &random)
            let entry = try doors[author].admit(.random())
            committed.append((Data(entry.id), .now, author))
            try await Task.sleep(for: .milliseconds(20))
        }
        for (index, door) in doors.enumerated() {
            let expected = committed.filter { $0.author != index }.count
            guard await door.node.waitUntil(timeout: .seconds(120), { $0.received >= expected }) else {
                let snapshot = await door.node.snapshot
                let held = Set(door.log.entries.keys)
                let missing = committed.filter { $0.author != index && !held.contains($0.id) }
                let sample = missing.prefix(8).map { entry in
                    "\(doors[entry.author].device) held by \(doors.filter { $0.log.entries[entry.id] != nil }.count)"
                }
                say("vector \(door.log.vector.counts.sorted { $0.key < $1.key }); missing \(sample)")
                throw CleanFailure(
                    "mesh bench: \(door.device) received \(snapshot.received) of \(expected) entries "
                        + "(\(snapshot.peers.count) peers; refused \(snapshot.refused))")
            }
        }
        let elapsed = (ContinuousClock.now - started).seconds
        var latency = Samples()
        for entry in committed {
            let last = doors.enumerated().compactMap { index, door in
                index == entry.author ? nil : door.arrivals[entry.id]
            }.max()
            if let last { latency.seconds.append((last - entry.at).seconds) }
        }
        var endBytes: [Int] = []
        for door in doors { endBytes.append(await door.node.bytesSent) }
        var rates = Samples()
        for index in doors.indices { rates.seconds.append(Double(endBytes[index] - startBytes[index]) / elapsed) }
        for door in doors { await door.node.stop() }
        for session in sessions { session.cancel() }
        let topology = fullMesh ? "every door joined to every other" : "each door joined to up to 4 earlier ones"
        return [
            BenchFigure(
                name: "mesh propagation to the last of \(count) doors", median: latency.median, p99: latency.p99,
                unit: "s", floorName: "loopback round trip", floor: floor, ratio: latency.median / floor,
                note: topology),
            BenchFigure(
                name: "mesh bytes sent per door per second, \(count) doors", median: rates.median, p99: rates.p99,
                unit: "B/s",
                note: String(format: "%.0f admissions/s across the venue; %@", Double(admissions) / elapsed, topology)),
        ]
    }

    /// The median of 200 one-byte round trips over a TCP connection on loopback (an echo server
    /// and a client in this process, on SwiftNIO).
    static func loopbackRoundTrip() async throws -> Double {
        let group = MultiThreadedEventLoopGroup.singleton
        let server = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        let port = server.channel.localAddress?.port ?? 0
        let echo = Task {
            try await server.executeThenClose { inbound in
                for try await connection in inbound {
                    try await connection.executeThenClose { input, output in
                        for try await buffer in input { try await output.write(buffer) }
                    }
                }
            }
        }
        defer { echo.cancel() }
        let client = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        var samples = Samples()
        try await client.executeThenClose { input, output in
            var iterator = input.makeAsyncIterator()
            for _ in 0..<200 {
                let start = ContinuousClock.now
                try await output.write(ByteBuffer(bytes: [1]))
                _ = try await iterator.next()
                samples.seconds.append((ContinuousClock.now - start).seconds)
            }
        }
        try? await server.channel.close()
        return samples.median
    }
}
