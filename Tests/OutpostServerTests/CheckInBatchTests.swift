import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// `POST /v1/events/{eventId}/checkins:batch`: a device's queue in one request, each
/// entry decided on its own under its own Idempotency-Key, answers embedded byte for byte.
@Suite("Check-in batches")
struct CheckInBatchTests {
    static func entry(
        _ guest: GuestID, device: String = "door-1", at millis: Int64, note: String? = nil
    )
        -> CheckInRequest
    {
        CheckInRequest(
            guestId: guest, deviceId: device, scannedAt: Date(millisecondsSince1970: millis), method: .manual,
            note: note)
    }

    /// The raw bytes of each entry's `answer` in a batch's body, in order.
    /// Posts `batch` to the event's batch route (the world's event unless `event`) as staff1.
    static func postBatch(
        _ api: TestAPI, _ world: World, event: EventID? = nil, _ batch: CheckInBatchRequest
    )
        async throws -> APIResponse
    {
        try await api.request(
            .post, "/v1/events/\((event ?? world.event.id).wire)/checkins:batch", token: world.staff1.accessToken,
            json: batch)
    }

    static func answers(_ body: [UInt8]) throws -> [[UInt8]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        return try results.map { result in
            Array(try JSONSerialization.data(withJSONObject: try #require(result["answer"]), options: [.sortedKeys]))
        }
    }

    static func canonical(_ body: [UInt8]) throws -> [UInt8] {
        Array(
            try JSONSerialization.data(
                withJSONObject: try JSONSerialization.jsonObject(with: Data(body)), options: [.sortedKeys]))
    }

    @Test(
        "checkin-batch-per-entry: entries are decided in order, each on its own (new, a repeat within the batch, an unknown guest, a cancelled guest), one answer each, the rows as if sent alone",
        arguments: StoreKind.allCases)
    func perEntry(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            _ = try await api.request(
                .patch, "/v1/events/\(id)/guests/\(world.guests[2].id.wire)", token: world.organizer.accessToken,
                json: UpdateGuestRequest(status: .cancelled))
            let batch = CheckInBatchRequest(entries: [
                Self.entry(world.guests[0].id, at: 1_000), Self.entry(world.guests[0].id, at: 2_000),
                Self.entry(.random(), at: 3_000), Self.entry(world.guests[2].id, at: 4_000),
                Self.entry(world.guests[1].id, device: "door-2", at: 5_000),
            ])
            let answer = try await Self.postBatch(api, world, batch)
            #expect(answer.status == 200, "\(answer.text)")
            let results = try answer.decode(CheckInBatchResponse.self).results
            #expect(results.map(\.status) == [201, 200, 404, 409, 201])
            #expect(results.map(\.idempotencyKey) == batch.entries.map(\.idempotencyKey.description))
            #expect(results[0].checkIn?.result == .checkedIn && results[1].checkIn?.result == .alreadyCheckedIn)
            #expect(results[1].checkIn?.checkIn.id == results[0].checkIn?.checkIn.id)
            #expect(results[2].error?.error == "not_found" && results[3].error?.error == "guest_not_admissible")
            let audit = try await api.audit(world.organizer, event: world.event)
            #expect(
                audit.map(\.kind) == [
                    .checkedIn, .alreadyCheckedIn, .rejectedNotFound, .rejectedNotAdmissible, .checkedIn,
                ], "in the batch's order")
            try await ConcurrencyTests.expectOrderedFeed(api.store, event: world.event.id, entries: 5)
        }
    }

    @Test(
        "checkin-batch-one-commit: a batch's entries are decided and committed in one transaction (counted as such in /metrics), a key repeated within the batch replays its first answer byte for byte or, with another body, is that entry's 422, and the change feed has one number per decided entry",
        arguments: StoreKind.allCases)
    func oneCommit(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let first = Self.entry(world.guests[0].id, at: 1_000)
            let batch = CheckInBatchRequest(entries: [
                first, Self.entry(world.guests[1].id, at: 2_000), first,
                Self.entry(world.guests[0].id, at: 1_000, note: "another body under the same key"),
            ])
            let answer = try await Self.postBatch(api, world, batch)
            #expect(answer.status == 200, "\(answer.text)")
            let results = try answer.decode(CheckInBatchResponse.self).results
            #expect(results.map(\.status) == [201, 201, 201, 422])
            let bytes = try Self.answers(answer.body)
            #expect(bytes[2] == bytes[0], "the repeated key replays the first answer")
            #expect(results[3].error?.error == "idempotency_key_reused")
            let metrics = try await api.request(.get, "/metrics").text
            #expect(metrics.contains(#"outpost_checkin_batches_total{commit="one"} 1"#), "\(metrics)")
            #expect(!metrics.contains(#"commit="per_entry""#))
            #expect(metrics.contains(#"outpost_checkins_total{result="replayed"} 1"#))
            try await ConcurrencyTests.expectOrderedFeed(api.store, event: world.event.id, entries: 2)
            // Sent again, the whole batch replays from the stored answers.
            let again = try await Self.postBatch(api, world, batch)
            #expect(try Self.answers(again.body) == bytes)
        }
    }

    @Test(
        "checkin-batch-falls-back: a batch whose transaction fails midway (here its statement is cancelled while it waits on another device's uncommitted check-in, the error PostgreSQL gives the loser of a deadlock between two batches) is rolled back whole and applied entry by entry, each entry answered as if sent alone; nothing is lost (PostgreSQL)"
    )
    func fallsBack() async throws {
        try await withTestServer(.postgres) { api in
            let world = try await World.make(api)
            let (x, y) = (world.guests[0].id, world.guests[1].id)
            // Another device's check-in of Y, inserted and held uncommitted.
            let held = try await ConcurrencyTests.holdCheckIn(api, world, guest: y)
            let batch = CheckInBatchRequest(entries: [Self.entry(x, at: 1_000), Self.entry(y, at: 2_000)])
            let sent = Task {
                try await Self.postBatch(api, world, batch)
            }
            // The batch has inserted X and waits for the holder's Y: its statement is cancelled.
            let batchBackend = try await ConcurrencyTests.waitingCheckInInsert(api.store)
            _ = try await api.store.database.read {
                try await $0.query("SELECT pg_cancel_backend(CAST(? AS integer)) AS cancelled", [.int(batchBackend)])
            }
            // Entry by entry now: X on its own, then Y, which finds (or waits for) the holder's.
            try await held.release()
            let answer = try await sent.value
            #expect(answer.status == 200, "\(answer.text)")
            let results = try answer.decode(CheckInBatchResponse.self).results
            #expect(results.map(\.status) == [201, 200])
            #expect(results[0].checkIn?.result == .checkedIn && results[0].checkIn?.checkIn.deviceId == "door-1")
            #expect(results[1].checkIn?.result == .alreadyCheckedIn && results[1].checkIn?.checkIn.deviceId == "holder")
            let metrics = try await api.request(.get, "/metrics").text
            #expect(metrics.contains(#"outpost_checkin_batches_total{commit="per_entry"} 1"#))
            #expect(!metrics.contains(#"commit="one""#))
            let countX = try await api.store.checkInCounts(eventId: world.event.id, guestId: x)
            let countY = try await api.store.checkInCounts(eventId: world.event.id, guestId: y)
            #expect(countX.checkIns == 1 && countX.events == 0, "X once, by the batch's own entry")
            #expect(countY.checkIns == 1 && countY.events == 1, "Y once, the holder's; the batch's attempt recorded")
            try await ConcurrencyTests.expectOrderedFeed(api.store, event: world.event.id, entries: 2)
            // Sent again, every entry replays its answer.
            let again = try await Self.postBatch(api, world, batch)
            #expect(try Self.answers(again.body) == (try Self.answers(answer.body)))
        }
    }

    @Test(
        "checkin-batch-replay: a batch sent again (its answer lost) answers every entry with the same bytes; an entry first sent alone answers what the single route stored; a reused key with another body is that entry's 422 and the others go on",
        arguments: StoreKind.allCases)
    func replay(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let alone = Self.entry(world.guests[2].id, at: 9_000)
            let single = try await api.request(
                .post, "/v1/events/\(id)/checkins", token: world.staff1.accessToken, json: alone,
                headers: [HTTPField.Name("Idempotency-Key")!: alone.idempotencyKey.description])
            #expect(single.status == 201)
            let batch = CheckInBatchRequest(entries: [
                Self.entry(world.guests[0].id, at: 1_000), alone, Self.entry(world.guests[1].id, at: 2_000),
            ])
            let first = try await Self.postBatch(api, world, batch)
            api.clock.advance(by: 600)
            let again = try await Self.postBatch(api, world, batch)
            #expect(first.body == again.body, "byte for byte")
            let answers = try Self.answers(first.body)
            #expect(answers[1] == (try Self.canonical(single.body)), "the single route's stored answer")
            let counts = try await api.store.checkInCounts(
                eventId: world.event.id, guestId: world.guests[0].id)
            #expect(counts.checkIns == 1 && counts.events == 0, "applied once")
            #expect(try await api.audit(world.organizer, event: world.event).count == 3)
            // The same key with another body (a note added): that entry alone is refused.
            var changed = batch
            changed.entries[0].note = "changed"
            changed.entries.append(Self.entry(world.guests[3 % world.guests.count].id, device: "door-9", at: 7_000))
            let reused = try await Self.postBatch(api, world, changed)
            let results = try reused.decode(CheckInBatchResponse.self).results
            #expect(results.map(\.status) == [422, 201, 201, 200])
            #expect(results[0].error?.error == "idempotency_key_reused")
        }
    }

    @Test(
        "checkin-batch-limits: an empty batch and one over 500 entries are refused whole; a device id with a space is that entry's 400; a null inside an entry is refused by its path; another tenant's event is the API's 404 and each entry is logged as refused under the caller's tenant"
    )
    func limits() async throws {
        try await withTestServer(.sqlite) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let empty = try await Self.postBatch(api, world, CheckInBatchRequest(entries: []))
            #expect(empty.status == 422)
            let tooMany = CheckInBatchRequest(
                entries: (0..<501).map { Self.entry(world.guests[0].id, at: Int64($0)) })
            let over = try await Self.postBatch(api, world, tooMany)
            #expect(over.status == 422 && over.text.contains("500"))
            #expect(
                try await api.store.checkInCounts(eventId: world.event.id, guestId: world.guests[0].id)
                    .checkIns == 0)
            let colon = try await Self.postBatch(
                api, world,
                CheckInBatchRequest(entries: [
                    Self.entry(world.guests[0].id, device: "door 1", at: 1), Self.entry(world.guests[1].id, at: 2),
                ]))
            #expect(try colon.decode(CheckInBatchResponse.self).results.map(\.status) == [400, 201])
            // A null anywhere in the body is refused by its path (the API has no nullable fields).
            let nulled = try await api.request(
                .post, "/v1/events/\(id)/checkins:batch", token: world.staff1.accessToken,
                body: Array(
                    #"{"entries":[{"guestId":"\#(world.guests[0].id.wire)","deviceId":"d","scannedAt":"2026-11-24T10:00:00.000Z","method":"manual","note":null}]}"#
                        .utf8), headers: [.contentType: "application/json"])
            #expect(nulled.status == 400 && nulled.text.contains("'entries.0.note' is null"), "\(nulled.text)")
            let other = try await Self.postBatch(
                api, world, event: world.otherEvent.id,
                CheckInBatchRequest(entries: [Self.entry(world.otherGuest.id, at: 5)]))
            #expect(other.status == 404 && other.errorCode == "not_found")
            let refused: AuditPage = try await api.request(
                .get, "/v1/audit/refused", token: world.organizer.accessToken
            )
            .decode()
            #expect(refused.entries.count == 1)
        }
    }
}
