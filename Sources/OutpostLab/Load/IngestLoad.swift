import Foundation
import OutpostCore
import OutpostProtocol

/// The server's check-in ingest under load: one check-in per guest, `concurrency` in flight.
package enum IngestLoad {
    package struct Result: Sendable {
        package var rate: Double
        package var latencyP99: Double
        package var count: Int
        package var errors: Int
    }

    /// Posts one check-in per guest of `event` as `client`; throughput and p99 latency (seconds).
    package static func run(
        _ client: LabClient, event: EventID, guestIds: [GuestID], concurrency: Int
    ) async throws -> Result {
        let start = ContinuousClock.now
        let indexed = Array(guestIds.enumerated())
        let outcomes = try await concurrentMap(indexed, width: concurrency) { index, id in
            let body = CheckInRequest(
                guestId: id, deviceId: "bench",
                scannedAt: Date(millisecondsSince1970: 1_795_000_000_000 + Int64(index)), method: .qr)
            let sent = ContinuousClock.now
            let response = try await client.checkIn(event: event, body)
            return ((ContinuousClock.now - sent).seconds, response.status == 201)
        }
        let seconds = (ContinuousClock.now - start).seconds
        var latencies = Samples()
        latencies.seconds = outcomes.map(\.0)
        return Result(
            rate: Double(guestIds.count) / seconds, latencyP99: latencies.p99, count: guestIds.count,
            errors: outcomes.filter { !$0.1 }.count)
    }
}
