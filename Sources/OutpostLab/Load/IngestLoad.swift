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

    /// Posts one check-in per guest of `event` in batches of `size` (`checkins:batch`, as a
    /// device drains its queue), `concurrency` batches in flight; check-ins per second, the p99 of
    /// a batch's latency, and the entries not answered 201.
    package static func runBatches(
        _ client: LabClient, event: EventID, guestIds: [GuestID], size: Int, concurrency: Int
    ) async throws -> Result {
        let start = ContinuousClock.now
        let batches = stride(from: 0, to: guestIds.count, by: size).map { offset in
            Array(guestIds[offset..<min(offset + size, guestIds.count)].enumerated()).map { index, id in
                CheckInRequest(
                    guestId: id, deviceId: "bench-batch",
                    scannedAt: Date(millisecondsSince1970: 1_795_000_000_000 + Int64(offset + index)), method: .qr)
            }
        }
        let outcomes = try await concurrentMap(batches, width: concurrency) { entries in
            let sent = ContinuousClock.now
            let response = try await client.request(
                API.checkInBatch.line(event), json: CheckInBatchRequest(entries: entries))
            let created = response.status == 200 ? Self.created(in: response.body) : 0
            return ((ContinuousClock.now - sent).seconds, entries.count - created)
        }
        let seconds = (ContinuousClock.now - start).seconds
        var latencies = Samples()
        latencies.seconds = outcomes.map(\.0)
        return Result(
            rate: Double(guestIds.count) / seconds, latencyP99: latencies.p99, count: guestIds.count,
            errors: outcomes.map(\.1).reduce(0, +))
    }

    /// The entries of a batch's answer whose status is 201.
    static func created(in body: Data) -> Int {
        let results = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["results"] as? [[String: Any]]
        return results?.filter { $0["status"] as? Int == 201 }.count ?? 0
    }
}
