import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

/// The outbox sends its queue in batches (issue 15): several waiting check-ins of one event go
/// as one `checkins:batch` request, one waiting entry alone; a server without the route, a
/// portal's page or a lost batch answer fall back to one at a time, and nothing is applied twice.
@Suite("Outbox batches")
struct OutboxBatchTests {
    /// Answers the batch route like a server that does not have it (404), and passes the rest.
    final class NoBatchRoute: Transport, @unchecked Sendable {
        let inner: any Transport
        private let lock = NSLock()
        private var refused = 0
        init(_ inner: any Transport) { self.inner = inner }
        var batchesRefused: Int { lock.withLock { refused } }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            guard request.path.hasSuffix("/checkins:batch") else { return try await inner.send(request) }
            lock.withLock { refused += 1 }
            return TransportResponse(status: 404, body: Data(#"{"error":"not_found","message":"Not found."}"#.utf8))
        }
    }

    /// Applies the first batch at the server, then loses its answer (the network dropped it).
    final class LoseFirstBatchAnswer: Transport, @unchecked Sendable {
        let inner: any Transport
        private let lock = NSLock()
        private var lost = false
        init(_ inner: any Transport) { self.inner = inner }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let response = try await inner.send(request)
            let lose = lock.withLock {
                guard request.path.hasSuffix("/checkins:batch"), !lost else { return false }
                lost = true
                return true
            }
            if lose { throw TransportError.timedOut }
            return response
        }
    }

    /// Five check-ins confirmed offline on device `name` (with its transport wrapped by `wrap`).
    @MainActor
    static func queued<Wrapper: Transport>(
        _ lab: DeviceLab, _ name: String, wrapping wrap: @escaping @Sendable (any Transport) -> Wrapper
    ) async throws -> (DeviceApp, LockedBox<Wrapper?>) {
        _ = try await lab.readyDevice(name)
        let (app, box) = lab.launch(name, wrapping: wrap)
        await app.openEvent(lab.world.event.id)
        app.update { $0.online = false }
        for guest in lab.world.guests.prefix(5) {
            app.scan(try await lab.ticket(guest))
            await app.confirm()
        }
        #expect(app.pendingCount == 5)
        app.update { $0.online = true }
        return (app, box)
    }

    @Test(
        "outbox-batch-drain: five waiting check-ins go as one batch request, in the order they were confirmed, and land once; one waiting check-in goes alone"
    )
    func drainsInOneBatch() async throws {
        try await DeviceLab.run(guests: 6) { lab in
            let (app, box) = try await Self.queued(lab, "batch") { RecordingTransport($0) }
            await app.sync()
            #expect(app.pendingCount == 0)
            let posts = try #require(box.value).requests.filter { $0.method == "POST" }
            #expect(posts.filter { $0.path.hasSuffix("/checkins:batch") }.count == 1)
            #expect(posts.filter { $0.path.hasSuffix("/checkins") }.isEmpty, "no single sends")
            let sent = try OutpostJSON.decode(
                CheckInBatchRequest.self, from: try #require(posts.first { $0.path.hasSuffix(":batch") }?.body))
            let five = Array(lab.world.guests.prefix(5).map(\.id))
            #expect(sent.entries.map(\.guestId) == five, "the confirmation order")
            let audit = try await lab.api.audit(lab.world.organizer, event: lab.world.event)
            #expect(audit.map(\.guestId) == five && audit.allSatisfy { $0.kind == .checkedIn })
            #expect(try await lab.serverCheckIns().values.allSatisfy { $0 == 1 })
            #expect(try await lab.serverCheckIns().count == 5)
            // One waiting entry: sent alone.
            app.update { $0.online = false }
            app.scan(try await lab.ticket(lab.world.guests[5]))
            await app.confirm()
            app.update { $0.online = true }
            await app.sync()
            let after = try #require(box.value).requests.filter { $0.method == "POST" }
            #expect(after.filter { $0.path.hasSuffix("/checkins") }.count == 1)
            #expect(after.filter { $0.path.hasSuffix("/checkins:batch") }.count == 1)
        }
    }

    @Test(
        "outbox-batch-fallback: a server without the batch route (404) gets the entries one at a time, after a single try of the batch"
    )
    func fallsBackToSingles() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let (app, box) = try await Self.queued(lab, "old-server") { NoBatchRoute($0) }
            await app.sync()
            #expect(app.pendingCount == 0)
            #expect(try #require(box.value).batchesRefused == 1)
            #expect(try await lab.serverCheckIns().count == 5)
            let audit = try await lab.api.audit(lab.world.organizer, event: lab.world.event)
            #expect(audit.map(\.guestId) == lab.world.guests.map(\.id))
        }
    }

    @Test(
        "outbox-batch-lost-answer: a batch applied at the server whose answer was lost is answered again entry by entry from the stored answers; nothing is applied twice"
    )
    func lostBatchAnswer() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let (app, _) = try await Self.queued(lab, "lossy") { LoseFirstBatchAnswer($0) }
            await app.sync()
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns().values.allSatisfy { $0 == 1 })
            #expect(try await lab.serverCheckIns().count == 5)
            let audit = try await lab.api.audit(lab.world.organizer, event: lab.world.event)
            #expect(audit.count == 5, "the replays are stored answers, not new decisions")
            #expect(audit.map(\.guestId) == lab.world.guests.map(\.id))
        }
    }
}
