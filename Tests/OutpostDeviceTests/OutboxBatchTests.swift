import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// The outbox sends its queue in batches: several waiting check-ins of one event go
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

    /// Passes everything but the roster, whose pulls time out: what a drain leaves is the
    /// answers' own writes, not a roster page's.
    final class NoRoster: Transport, @unchecked Sendable {
        let inner: any Transport
        init(_ inner: any Transport) { self.inner = inner }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            if request.path.contains("/roster") { throw TransportError.timedOut }
            return try await inner.send(request)
        }
    }

    /// `count` check-ins confirmed offline on device `name` (with its transport wrapped by `wrap`).
    @MainActor
    static func queued<Wrapper: Transport>(
        _ lab: DeviceLab, _ name: String, count: Int = 5,
        wrapping wrap: @escaping @Sendable (any Transport) -> Wrapper
    ) async throws -> (DeviceApp, LockedBox<Wrapper?>) {
        _ = try await lab.readyDevice(name)
        let (app, box) = try lab.launch(name, wrapping: wrap)
        await app.openEvent(lab.world.event.id)
        app.update { $0.online = false }
        for guest in lab.world.guests.prefix(count) {
            app.scan(try await lab.ticket(guest))
            await app.confirm()
        }
        #expect(app.pendingCount == count)
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

    /// Counts the commits that wrote an answer.
    final class AnswerCommits: TransactionObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var wrote = false
        private var commits = 0
        var count: Int { lock.withLock { commits } }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "answers" }
        func databaseDidChange(with event: DatabaseEvent) { lock.withLock { wrote = true } }
        func databaseDidCommit(_ db: Database) {
            lock.withLock {
                if wrote { commits += 1 }
                wrote = false
            }
        }
        func databaseDidRollback(_ db: Database) { lock.withLock { wrote = false } }
    }

    @Test(
        "outbox-batch-one-commit: the answers of a batch are written in one commit, each entry leaving the outbox with its answer"
    )
    func answersInOneCommit() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let (app, _) = try await Self.queued(lab, "one-commit") { RecordingTransport($0) }
            let store = app.store
            let commits = AnswerCommits()
            store.queue.add(transactionObserver: commits, extent: .databaseLifetime)
            await app.sync()
            #expect(app.pendingCount == 0)
            #expect(commits.count == 1, "\(commits.count) commits for one batch of five answers")
            let answers = try await store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM answers") }
            #expect(answers == 5)
            #expect(try await lab.serverCheckIns().count == 5)
        }
    }

    @Test(
        "outbox-request-decoded-once: the requests unsealed and decoded for a batch are the ones its answers are stored with (none decoded again, none left behind); a row whose sealed bytes are not the ones kept is decoded afresh"
    )
    func requestDecodedOnce() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let (app, _) = try await Self.queued(lab, "decoded-once") { RecordingTransport($0) }
            let module = try #require(app.checkInModule)
            let rows = try app.store.outboxRows(state: .pending).filter { $0.kind == .checkIn }
            #expect(rows.count == 5)
            await app.sync()
            #expect(app.pendingCount == 0)
            #expect(module.decodedRequests.count == 0, "every request decoded for the batch was taken for its answer")
            let answers = try await app.store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM answers") }
            #expect(answers == 5)
            // A row id whose sealed bytes changed is not the request that was kept.
            let kept = DecodedCheckInRequests()
            let request = try app.checkInStore.checkInRequest(of: rows[0])
            kept.keep([rows[0]], [request])
            var other = rows[0]
            other.sealedRequest = rows[1].sealedRequest
            #expect(kept.take(other) == nil)
            kept.keep([rows[0]], [request])
            #expect(kept.take(rows[0]) == request)
            #expect(kept.count == 0)
        }
    }

    @Test(
        "outbox-answer-updates-guest: each answer leaves its guest checked in at the server's time and no longer pending, found by code and by e-mail, with the rest of the guest and its keys digest as they were"
    )
    func answerUpdatesGuest() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let (app, _) = try await Self.queued(lab, "answer-write") { NoRoster($0) }
            let store = app.store
            let roster = app.checkInStore
            let event = lab.world.event.id
            let columns = "SELECT id, keys_digest, status FROM guests ORDER BY id"
            let before = try store.queue.read { try Row.fetchAll($0, sql: columns) }
            let pendingBefore = try await store.queue.read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM guests WHERE local_pending = 1")
            }
            #expect(pendingBefore == 5)
            let guests = try lab.world.guests.map { try #require(try roster.guest(eventId: event, id: $0.id)) }
            await app.sync()
            #expect(app.pendingCount == 0)
            let serverAt = try await lab.serverCheckInTimes()
            #expect(serverAt.count == 5)
            for guest in guests {
                let at = try #require(serverAt[guest.id])
                let module = try #require(app.checkInModule)
                let byCode = try #require(
                    module.lookUp(eventId: event, .code, guest.code)?.first)
                #expect(byCode.checkIn?.pending == false && byCode.checkIn?.at == at)
                #expect(module.guests(eventId: event, email: guest.email).map(\.id) == [guest.id])
                var unchanged = byCode
                unchanged.checkIn = guest.checkIn
                #expect(unchanged == guest, "only the check-in changed")
                let column = try await store.queue.read {
                    try Int64.fetchOne(
                        $0, sql: "SELECT checked_in_at FROM guests WHERE id = ?", arguments: [guest.id.data])
                }
                #expect(column == at.millisecondsSince1970)
            }
            let after = try store.queue.read { try Row.fetchAll($0, sql: columns) }
            #expect(after == before, "keys digest and status stand")
            let pendingAfter = try await store.queue.read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM guests WHERE local_pending = 1")
            }
            #expect(pendingAfter == 0)
        }
    }

    /// The disk refuses the answer of the entry with `key` (a trigger on this connection only).
    static func refuseAnswer(to key: String, in store: DeviceStore) async throws {
        try await store.queue.write { db in
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER refuse_answer BEFORE INSERT ON answers
                    WHEN NEW.idempotency_key = '\(key.replacingOccurrences(of: "'", with: "''"))'
                    BEGIN SELECT RAISE(ABORT, 'disk says no'); END
                    """)
        }
    }

    /// The disk takes every answer again.
    static func stopRefusingAnswers(in store: DeviceStore) async throws {
        try await store.queue.write { try $0.execute(sql: "DROP TRIGGER refuse_answer") }
    }

    @Test(
        "outbox-batch-store-fails-midway: when the third answer of a batch cannot be written, the two before it are kept, it and the ones after stay queued, and the next pass finishes them from the server's stored answers"
    )
    func storeFailsMidway() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let (app, _) = try await Self.queued(lab, "disk-says-no") { RecordingTransport($0) }
            let store = app.store
            let third = try store.outboxRows()[2].idempotencyKey
            try await Self.refuseAnswer(to: third, in: store)
            await app.sync()
            let left = try store.outboxRows().map(\.idempotencyKey)
            #expect(app.pendingCount == 3)
            #expect(left.first == third, "the third and the two after it stay queued, in order")
            let kept = try await store.queue.read {
                try String.fetchAll($0, sql: "SELECT idempotency_key FROM answers")
            }
            #expect(kept.count == 2 && !kept.contains(third))
            // The server applied all five once (the batch went whole).
            #expect(try await lab.serverCheckIns().count == 5)

            try await Self.stopRefusingAnswers(in: store)
            await app.sync()
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns().values.allSatisfy { $0 == 1 })
            let audit = try await lab.api.audit(lab.world.organizer, event: lab.world.event)
            #expect(audit.count == 5, "the second pass got stored answers, not new decisions")
        }
    }

    /// Signals `arrived` when the second check-in request (single or batch) reaches it.
    final class SignalSecondRequest: Transport, @unchecked Sendable {
        let inner: any Transport
        let arrived: DispatchSemaphore
        private let lock = NSLock()
        private var posts = 0
        init(_ inner: any Transport, arrived: DispatchSemaphore) {
            self.inner = inner
            self.arrived = arrived
        }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let second = lock.withLock {
                guard request.method == "POST", request.path.contains("/checkins") else { return false }
                posts += 1
                return posts == 2
            }
            if second { arrived.signal() }
            return try await inner.send(request)
        }
    }

    /// Holds the first commit that writes answers until `arrived` is signalled, and records
    /// whether it was: a bound of ten seconds (only a device that writes before it sends waits it
    /// out, since that request cannot leave until the write is done) instead of a deadlock.
    final class FirstAnswersAwaitRequest: TransactionObserver, @unchecked Sendable {
        let arrived: DispatchSemaphore
        private let lock = NSLock()
        private var wrote = false
        private var seen: Bool?
        init(_ arrived: DispatchSemaphore) { self.arrived = arrived }
        var requestWasOut: Bool? { lock.withLock { seen } }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "answers" }
        func databaseDidChange(with event: DatabaseEvent) { lock.withLock { wrote = true } }
        func databaseWillCommit() throws {
            guard lock.withLock({ wrote && seen == nil }) else { return }
            let out = arrived.wait(timeout: .now() + 10) == .success
            lock.withLock { seen = out }
        }
        func databaseDidCommit(_ db: Database) { lock.withLock { wrote = false } }
        func databaseDidRollback(_ db: Database) { lock.withLock { wrote = false } }
    }

    @Test(
        "outbox-pipeline-overlap: the answers of one batch are written while the next request is out (the server and the device work at the same time), and everything lands once, in order"
    )
    func writesWhileTheNextRequestIsOut() async throws {
        let count = OutboxReplayer.batchLimit + 1
        try await DeviceLab.run(guests: count) { lab in
            let arrived = DispatchSemaphore(value: 0)
            let (app, _) = try await Self.queued(lab, "pipeline", count: count) {
                SignalSecondRequest($0, arrived: arrived)
            }
            let store = app.store
            let observer = FirstAnswersAwaitRequest(arrived)
            store.queue.add(transactionObserver: observer, extent: .databaseLifetime)
            await app.sync()
            #expect(
                observer.requestWasOut == true, "the first batch's answers were written before the next request left")
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns().values.allSatisfy { $0 == 1 })
            let audit = try await lab.api.audit(lab.world.organizer, event: lab.world.event)
            #expect(audit.map(\.guestId) == lab.world.guests.map(\.id), "the confirmation order")
            let answers = try await store.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM answers") }
            #expect(answers == count)
        }
    }

    @Test(
        "outbox-pipeline-write-fails: when a batch's answers cannot be written while the next request is out, that request's answer is dropped with the pass, its entry stays queued behind the unwritten ones, and the next pass gets the server's stored answers"
    )
    func writeFailsWhileTheNextRequestIsOut() async throws {
        let count = OutboxReplayer.batchLimit + 1
        try await DeviceLab.run(guests: count) { lab in
            let (app, _) = try await Self.queued(lab, "pipeline-disk", count: count) { RecordingTransport($0) }
            let store = app.store
            let third = try store.outboxRows()[2].idempotencyKey
            try await Self.refuseAnswer(to: third, in: store)
            await app.sync()
            let left = try store.outboxRows().map(\.idempotencyKey)
            #expect(app.pendingCount == count - 2)
            #expect(left.first == third, "the third and everything after it stay queued, in order")
            // The server applied all of them once: the first batch, and the last entry, which
            // was out while the write failed.
            #expect(try await lab.serverCheckIns().count == count)

            try await Self.stopRefusingAnswers(in: store)
            await app.sync()
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns().values.allSatisfy { $0 == 1 })
            let audit = try await lab.api.audit(lab.world.organizer, event: lab.world.event)
            #expect(audit.count == count, "the second pass got stored answers, not new decisions")
            #expect(audit.map(\.guestId) == lab.world.guests.map(\.id))
        }
    }
}
