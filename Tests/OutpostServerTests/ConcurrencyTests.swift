import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

@Suite("Check-in under concurrency")
struct ConcurrencyTests {
    @Test(
        "32 concurrent check-ins of one guest with distinct keys: exactly one checked_in and one row",
        arguments: StoreKind.allCases)
    func distinctKeys(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[0].id
            let responses = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        try await api.checkIn(
                            index.isMultiple(of: 2) ? world.staff1 : world.staff2, event: world.event.id, guest: guest,
                            deviceId: "device-\(index)")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let results = try responses.map { try $0.decode(CheckInResponse.self) }
            #expect(results.filter { $0.result == .checkedIn }.count == 1)
            #expect(results.filter { $0.result == .alreadyCheckedIn }.count == 31)
            #expect(Set(results.map(\.checkIn.id)).count == 1)
            let counts = try await api.store.checkInCounts(
                eventId: world.event.id, guestId: guest)
            #expect(counts.checkIns == 1 && counts.events == 31)
            #expect(try await api.audit(world.organizer, event: world.event).count == 32)
            try await Self.expectOrderedFeed(api.store, event: world.event.id, entries: 32)
        }
    }

    @Test(
        "checkin-lost-race: a check-in that decided 'new' while another device's check-in of the guest was still uncommitted waits for it at the insert and answers already_checked_in with the winner's record; one row (PostgreSQL)"
    )
    func lostRace() async throws {
        try await withTestServer(.postgres) { api in
            let world = try await World.make(api)
            let guest = world.guests[0].id
            let winner = CheckInID.random()
            // Another device's check-in, inserted and held uncommitted.
            let held = try await Self.holdCheckIn(api, world, guest: guest, id: winner)
            let late = Task {
                try await api.checkIn(world.staff1, event: world.event.id, guest: guest, deviceId: "late")
            }
            // The late request reads no check-in (uncommitted) and blocks at its insert.
            _ = try await Self.waitingCheckInInsert(api.store)
            try await held.release()
            let answer = try await late.value
            #expect(answer.status == 200, "\(answer.text)")
            let decoded = try answer.decode(CheckInResponse.self)
            #expect(
                decoded.result == .alreadyCheckedIn && decoded.checkIn.id == winner
                    && decoded.checkIn.deviceId == "holder")
            let counts = try await api.store.checkInCounts(eventId: world.event.id, guestId: guest)
            #expect(counts.checkIns == 1 && counts.events == 1)
            let audit = try await api.audit(world.organizer, event: world.event)
            #expect(audit.last?.kind == .alreadyCheckedIn && audit.last?.deviceId == "late")
        }
    }

    /// Another device's check-in of a guest, inserted and held uncommitted (PostgreSQL).
    struct HeldCheckIn {
        let task: Task<Void, any Error>
        let releaseSignal: AsyncStream<Void>.Continuation

        /// Commits the held check-in.
        func release() async throws {
            releaseSignal.yield()
            try await task.value
        }
    }

    /// Inserts a check-in of `guest` as device "holder" (staff2) in a transaction it keeps open
    /// until ``HeldCheckIn/release()``; returns once the row is inserted.
    static func holdCheckIn(
        _ api: TestAPI, _ world: World, guest: GuestID, id: CheckInID = .random()
    )
        async throws -> HeldCheckIn
    {
        let (inserted, insertedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await api.store.database.transaction { connection in
                try await connection.execute(
                    """
                    INSERT INTO checkins (id, event_id, guest_id, at, client_at, device_id, user_id, by_name, method, note)
                    VALUES (?, ?, ?, ?, ?, 'holder', ?, 'Bea', 'qr', '')
                    """,
                    [
                        .id(id), .uuid(world.event.id.uuid), .uuid(guest.uuid), .date(api.clock.now),
                        .date(api.clock.now), .uuid(world.staff2.user.id.uuid),
                    ])
                insertedSignal.yield()
                for await _ in release { break }
            }
        }
        for await _ in inserted { break }
        return HeldCheckIn(task: task, releaseSignal: releaseSignal)
    }

    /// The backend of this test's database (other tests share the cluster) whose check-in insert
    /// waits for a lock, once there is one (PostgreSQL). Polls at most 50,000 times (one round
    /// trip each), so a test whose request never waits fails instead of hanging.
    static func waitingCheckInInsert(_ store: Store) async throws -> Int64 {
        for _ in 0..<50_000 {
            let pid = try await store.database.read {
                try await $0.queryOne(
                    """
                    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                    AND query LIKE '%INSERT INTO checkins%' LIMIT 1
                    """)?.int("pid")
            }
            if let pid { return pid }
            await Task.yield()
        }
        throw StoreError.notFound
    }

    /// The change feed's guarantees after concurrent check-ins (the event's lock is
    /// taken last): the last `entries` audit entries took one sequence number each with no gap,
    /// and each checked-in guest's row carries the number of its `checked_in` entry (so a roster
    /// delta after the previous number brings it).
    static func expectOrderedFeed(_ store: Store, event: EventID, entries: Int) async throws {
        let (seqs, mismatched) = try await store.database.read { connection in
            let seqs = try await connection.query(
                "SELECT seq FROM audit_log WHERE event_id = ? ORDER BY seq DESC LIMIT ?",
                [.uuid(event.uuid), .int(Int64(entries))]
            ).map { try $0.int("seq") }
            let mismatched = try await connection.queryOne(
                """
                SELECT COUNT(*) AS n FROM guests g JOIN audit_log l ON l.guest_id = g.id AND l.kind = 'checked_in'
                WHERE g.event_id = ? AND l.event_id = ? AND g.seq <> l.seq
                """, [.uuid(event.uuid), .uuid(event.uuid)])
            return (seqs, try mismatched?.int("n") ?? -1)
        }
        #expect(Set(seqs).count == entries, "one sequence number an entry")
        #expect(seqs.first.map { $0 - Int64(entries) + 1 } == seqs.last, "no gap: \(seqs.sorted())")
        #expect(mismatched == 0, "each checked-in guest carries its check-in's sequence number")
    }

    @Test(
        "16 concurrent requests with one Idempotency-Key: applied once, identical answers",
        arguments: StoreKind.allCases)
    func sameKey(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[1].id
            let scanned = api.clock.now
            let responses = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await api.checkIn(world.staff1, event: world.event.id, guest: guest, scannedAt: scanned)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(responses.map(\.body)).count == 1)
            #expect(responses.allSatisfy { $0.status == 201 })
            let counts = try await api.store.checkInCounts(
                eventId: world.event.id, guestId: guest)
            #expect(counts.checkIns == 1 && counts.events == 0)
            #expect(try await api.audit(world.organizer, event: world.event).count == 1)
            let metrics = try await api.request(.get, "/metrics").text
            #expect(metrics.contains(#"outpost_checkins_total{result="replayed"} 15"#))
        }
    }
}
