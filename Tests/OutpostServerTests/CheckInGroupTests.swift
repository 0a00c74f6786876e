import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Group commit: check-ins of one event that arrive while a transaction for it runs
/// are decided together in the next one, each with its own answer (``CheckInGroups``).
@Suite("Check-in group commit")
struct CheckInGroupTests {
    /// One request of a schedule: a single check-in or a batch, and its answer as first sent.
    struct Sent: Sendable {
        var entries: [CheckInRequest]
        var single: Bool
    }

    /// A seeded schedule over `guests`: singles and batches of 2–6 entries (devices, guests and
    /// times at random, so guests repeat across requests and within batches), and every fifth
    /// request a retry of an earlier one, byte for byte.
    static func schedule(seed: UInt64, requests: Int, guests: [GuestID]) -> [Sent] {
        var random = SeededRandom(seed: seed)
        var sent: [Sent] = []
        for index in 0..<requests {
            if index > 4 && index.isMultiple(of: 5), let earlier = sent.randomElement(using: &random) {
                sent.append(earlier)
                continue
            }
            let single = Int.random(in: 0..<10, using: &random) < 6
            let count = single ? 1 : Int.random(in: 2...6, using: &random)
            let entries = (0..<count).map { _ in
                CheckInRequest(
                    guestId: guests.randomElement(using: &random)!,
                    deviceId: "door-\(Int.random(in: 1...3, using: &random))",
                    scannedAt: Date(
                        millisecondsSince1970: 1_795_000_000_000 + Int64.random(in: 0..<1_000_000, using: &random)),
                    method: .qr)
            }
            sent.append(Sent(entries: entries, single: single))
        }
        return sent
    }

    static func send(_ api: TestAPI, _ world: World, _ request: Sent) async throws -> APIResponse {
        let session = request.entries[0].deviceId == "door-1" ? world.staff1 : world.staff2
        if request.single, let entry = request.entries.first {
            return try await api.request(
                .post, API.checkIn.path(world.event.id), token: session.accessToken, json: entry,
                headers: [.init("Idempotency-Key")!: entry.idempotencyKey.description])
        }
        return try await api.request(
            .post, "/v1/events/\(world.event.id.wire)/checkins:batch", token: session.accessToken,
            json: CheckInBatchRequest(entries: request.entries))
    }

    /// A counter's value from the metrics text (0 when absent).
    static func metric(_ text: String, _ name: String) -> Int {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
    }

    @Test(
        "checkin-group-commit-property: concurrent single and batch check-ins in random interleavings (seeded): groups of several requests form, every request's answer is its own and a retry gets it byte for byte, one row per guest, one audit entry per key, the feed gap-free",
        arguments: StoreKind.allCases)
    func property(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 24)
            for seed: UInt64 in [37, 3_700] {
                let requests = Self.schedule(seed: seed, requests: 60, guests: world.guests.map(\.id))
                // Everything at once, in an order the seed shuffles further: the groups form from
                // whatever arrives while the event's transaction runs.
                var random = SeededRandom(seed: seed ^ 0xFF)
                let order = Array(requests.indices).shuffled(using: &random)
                let answers = try await withThrowingTaskGroup(of: (Int, APIResponse).self) { group in
                    for index in order {
                        group.addTask { (index, try await Self.send(api, world, requests[index])) }
                    }
                    return try await group.reduce(into: [Int: APIResponse]()) { $0[$1.0] = $1.1 }
                }
                // Each answer is the request's own: the guest it names, and a retry of it (again
                // now) the same bytes.
                for (index, request) in requests.enumerated() {
                    let first = try #require(answers[index])
                    #expect(first.status == (request.single ? 201 : 200) || first.status == 200, "\(first.text)")
                    let guests: [GuestID] =
                        request.single
                        ? [try first.decode(CheckInResponse.self).checkIn.guestId]
                        : try CheckInBatchTests.answers(first.body).map {
                            try OutpostJSON.decode(CheckInResponse.self, from: Data($0)).checkIn.guestId
                        }
                    #expect(guests == request.entries.map(\.guestId), "request \(index) got another request's answer")
                    let again = try await Self.send(api, world, request)
                    #expect(again.status == first.status && again.body == first.body, "request \(index)'s retry")
                }
            }
            let all =
                Self.schedule(seed: 37, requests: 60, guests: world.guests.map(\.id))
                + Self.schedule(seed: 3_700, requests: 60, guests: world.guests.map(\.id))
            let keys = Set(all.flatMap { $0.entries.map(\.idempotencyKey.description) })
            let guests = Set(all.flatMap { $0.entries.map(\.guestId) })
            let audit = try await api.audit(world.organizer, event: world.event)
            #expect(audit.count == keys.count, "one audit entry per key")
            #expect(audit.filter { $0.kind == .checkedIn }.count == guests.count, "one check-in per guest")
            for guest in guests {
                let counts = try await api.store.checkInCounts(eventId: world.event.id, guestId: guest)
                #expect(counts.checkIns == 1)
            }
            try await ConcurrencyTests.expectOrderedFeed(api.store, event: world.event.id, entries: keys.count)
            let metrics = try await api.request(.get, "/metrics").text
            let groups = Self.metric(metrics, #"outpost_checkin_groups_total{commit="one"}"#)
            let grouped = Self.metric(metrics, #"outpost_checkin_group_requests_total{commit="one"}"#)
            #expect(grouped > groups, "some group held several requests (\(grouped) requests in \(groups) groups)")
        }
    }
}

extension CheckInGroupTests {
    /// Polls /metrics until `outpost_checkin_group_waiting` is `count` (each poll a request; at
    /// most 5,000, so a request that never waits fails the test instead of hanging it).
    static func waitUntilWaiting(_ api: TestAPI, _ count: Int) async throws {
        for _ in 0..<5_000 {
            let text = try await api.request(.get, "/metrics").text
            if metric(text, "outpost_checkin_group_waiting") == count { return }
            await Task.yield()
        }
        Issue.record("never \(count) requests waiting for the group")
        throw StoreError.notFound
    }

    /// Every place for a running group of the event taken by a check-in blocked on a held one
    /// (``CheckInGroups/width(_:)`` of them: one on SQLite, two on PostgreSQL), and one more
    /// request waiting behind them: the held transactions, the blocked requests and the waiting one.
    static func fillLanes(
        _ api: TestAPI, _ world: World
    ) async throws -> (
        held: [ConcurrencyTests.HeldCheckIn], running: [Task<APIResponse, any Error>],
        waiting: Task<APIResponse, any Error>
    ) {
        let width = CheckInGroups.width(api.store.database.dialect)
        var held: [ConcurrencyTests.HeldCheckIn] = []
        for index in 0..<width {
            held.append(try await ConcurrencyTests.holdCheckIn(api, world, guest: world.guests[index].id))
        }
        let running = (0..<width).map { index in
            Task {
                try await api.checkIn(
                    world.staff1, event: world.event.id, guest: world.guests[index].id, deviceId: "leader-\(index)")
            }
        }
        if api.store.database.dialect == .postgres {
            // Each blocked at its insert, so each holds a group's place.
            try await waitingCheckInInserts(api.store, width)
        }
        let waiting = Task {
            try await api.checkIn(world.staff2, event: world.event.id, guest: world.guests[width].id, deviceId: "probe")
        }
        try await waitUntilWaiting(api, 1)
        return (held, running, waiting)
    }

    /// Polls until `count` of this database's backends wait for a lock at a check-in insert
    /// (PostgreSQL; at most 50,000 polls).
    static func waitingCheckInInserts(_ store: Store, _ count: Int) async throws {
        for _ in 0..<50_000 {
            let waiting = try await store.database.read {
                try await $0.queryOne(
                    """
                    SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database()
                    AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO checkins%'
                    """)?.int("n")
            }
            if waiting == Int64(count) { return }
            await Task.yield()
        }
        Issue.record("never \(count) check-ins waiting at their insert")
        throw StoreError.notFound
    }

    @Test(
        "checkin-group-tenant-keys: in one group, another tenant's request with the same Idempotency-Key and body (posted to this tenant's event) is its own refusal, never this tenant's stored answer, and this tenant's request is its own check-in",
        arguments: StoreKind.allCases)
    func tenantKeys(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 4)
            let event = world.event.id
            let width = CheckInGroups.width(api.store.database.dialect)
            let (held, running, probe) = try await Self.fillLanes(api, world)
            let scanned = api.clock.now
            let guest = world.guests[width + 1].id
            let own = Task { try await api.checkIn(world.staff1, event: event, guest: guest, scannedAt: scanned) }
            let other = Task {
                try await api.checkIn(world.otherOrganizer, event: event, guest: guest, scannedAt: scanned)
            }
            try await Self.waitUntilWaiting(api, 3)
            for hold in held { try await hold.release() }
            for task in running { _ = try await task.value }
            _ = try await probe.value
            let (ownAnswer, otherAnswer) = (try await own.value, try await other.value)
            #expect(ownAnswer.status == 201, "\(ownAnswer.text)")
            #expect(try ownAnswer.decode(CheckInResponse.self).checkIn.guestId == guest)
            #expect(otherAnswer.status == 404 && otherAnswer.errorCode == "not_found", "\(otherAnswer.text)")
            let metrics = try await api.request(.get, "/metrics").text
            #expect(Self.metric(metrics, #"outpost_checkin_group_requests_total{commit="one"}"#) == width + 3)
            #expect(
                Self.metric(metrics, #"outpost_checkin_groups_total{commit="one"}"#) == width + 1,
                "the three that waited in one group")
        }
    }
}

extension CheckInGroupTests {
    @Test(
        "checkin-group-falls-back: a group of several requests whose transaction fails (its statement cancelled while it waits on another device's uncommitted check-in, the error a deadlock's loser gets) commits nothing and each request is applied alone, answered as if it had been sent alone (PostgreSQL)"
    )
    func fallsBack() async throws {
        try await withTestServer(.postgres) { api in
            let world = try await World.make(api, guests: 5)
            let event = world.event.id
            let width = CheckInGroups.width(api.store.database.dialect)
            let (second, third) = (world.guests[width + 1].id, world.guests[width + 2].id)
            // The next group will wait on another held check-in.
            let heldSecond = try await ConcurrencyTests.holdCheckIn(api, world, guest: second)
            let (held, running, probe) = try await Self.fillLanes(api, world)
            let blocked = Task { try await api.checkIn(world.staff1, event: event, guest: second, deviceId: "door-2") }
            let free = Task { try await api.checkIn(world.staff2, event: event, guest: third, deviceId: "door-3") }
            try await Self.waitUntilWaiting(api, 3)
            for hold in held { try await hold.release() }
            for task in running { _ = try await task.value }
            // The three that waited are the next group, which waits for the held second guest:
            // its statement is cancelled.
            let backend = try await ConcurrencyTests.waitingCheckInInsert(api.store)
            _ = try await api.store.database.read {
                try await $0.query("SELECT pg_cancel_backend(CAST(? AS integer)) AS cancelled", [.int(backend)])
            }
            try await heldSecond.release()
            let probeAnswer = try await probe.value
            #expect(probeAnswer.status == 201, "\(probeAnswer.text)")
            let (blockedAnswer, freeAnswer) = (try await blocked.value, try await free.value)
            #expect(blockedAnswer.status == 200, "\(blockedAnswer.text)")
            let already = try blockedAnswer.decode(CheckInResponse.self)
            #expect(already.result == .alreadyCheckedIn && already.checkIn.deviceId == "holder")
            #expect(freeAnswer.status == 201, "\(freeAnswer.text)")
            #expect(try freeAnswer.decode(CheckInResponse.self).checkIn.guestId == third)
            let metrics = try await api.request(.get, "/metrics").text
            #expect(Self.metric(metrics, #"outpost_checkin_groups_total{commit="per_request"}"#) == 1)
            #expect(Self.metric(metrics, #"outpost_checkin_group_requests_total{commit="per_request"}"#) == 3)
            for guest in world.guests.prefix(width + 3).map(\.id) {
                let counts = try await api.store.checkInCounts(eventId: event, guestId: guest)
                #expect(counts.checkIns == 1)
            }
            // The blocked leaders' and the blocked request's already_checked_in, the probe's and
            // the free request's checked_in.
            #expect(try await api.audit(world.organizer, event: world.event).count == width + 3)
            try await ConcurrencyTests.expectOrderedFeed(api.store, event: event, entries: width + 3)
        }
    }
}
