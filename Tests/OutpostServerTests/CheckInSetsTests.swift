import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// A group's check-ins decided in set-based statements on PostgreSQL (``CheckInSets``) must
/// decide and write exactly what the same entries sent one at a time do.
@Suite("Check-in groups as sets")
struct CheckInSetsTests {
    /// An event with `count` guests that staff1 works, and its tickets.
    struct Event {
        var info: EventInfo
        var guests: [GuestInfo]
    }

    static func event(_ api: TestAPI, _ world: World, name: String, guests count: Int) async throws -> Event {
        let info = try await api.createEvent(world.organizer, name: name)
        let type = try await api.createAccessType(world.organizer, event: info)
        var guests: [GuestInfo] = []
        for index in 0..<count {
            guests.append(try await api.createGuest(world.organizer, event: info, accessType: type, name: "G\(index)"))
        }
        try await api.assign(world.organizer, staff: world.staff1, to: info)
        return Event(info: info, guests: guests)
    }

    /// The same history before the group on each event: guests 1 and 6 checked in, guest 2
    /// cancelled, and the keys of entries 5 (the same request, a retry) and 7 (another body)
    /// used already.
    static func prepare(_ api: TestAPI, _ world: World, _ event: Event, at: Date) async throws {
        for index in [1, 6] {
            let first = try await api.checkIn(
                world.staff1, event: event.info.id, guest: event.guests[index].id, deviceId: "door-0", scannedAt: at)
            #expect(first.status == 201)
        }
        let cancelled = try await api.request(
            .patch, "/v1/events/\(event.info.id)/guests/\(event.guests[2].id)", token: world.organizer.accessToken,
            json: UpdateGuestRequest(status: .cancelled))
        #expect(cancelled.status == 200)
        for (index, note) in [(5, nil), (7, "first body")] {
            let sent = try await api.checkIn(
                world.staff1, event: event.info.id, guest: event.guests[index].id, deviceId: "door-1",
                scannedAt: at.addingTimeInterval(1), note: note)
            #expect(sent.status == 201)
        }
    }

    /// One entry of each kind, every key and guest once: a new check-in with its ticket, a repeat,
    /// a cancelled guest, another guest's ticket, an unknown guest, a retry, a reconfirmation with
    /// a note, a reused key, a new check-in without a ticket.
    static func entries(_ api: TestAPI, _ world: World, _ event: Event, at: Date) async throws -> [CheckInRequest] {
        let ticket = try await api.request(
            .get, "/v1/events/\(event.info.id)/guests/\(event.guests[0].id)/ticket", token: world.organizer.accessToken
        ).text.trimmingCharacters(in: .newlines)
        let guest = { (index: Int) in event.guests[index].id }
        let later = at.addingTimeInterval(60)
        return [
            CheckInRequest(guestId: guest(0), deviceId: "door-1", scannedAt: later, method: .qr, ticket: ticket),
            CheckInRequest(guestId: guest(1), deviceId: "door-1", scannedAt: later, method: .qr),
            CheckInRequest(guestId: guest(2), deviceId: "door-1", scannedAt: later, method: .qr),
            CheckInRequest(guestId: guest(3), deviceId: "door-1", scannedAt: later, method: .qr, ticket: ticket),
            CheckInRequest(guestId: .random(), deviceId: "door-1", scannedAt: later, method: .qr),
            CheckInRequest(guestId: guest(5), deviceId: "door-1", scannedAt: at.addingTimeInterval(1), method: .qr),
            CheckInRequest(
                guestId: guest(6), deviceId: "door-1", scannedAt: later, method: .qr, reconfirm: true, note: "late"),
            CheckInRequest(
                guestId: guest(7), deviceId: "door-1", scannedAt: at.addingTimeInterval(1), method: .qr,
                note: "another body"),
            CheckInRequest(guestId: guest(4), deviceId: "door-1", scannedAt: later, method: .manual),
        ]
    }

    /// What a decision looks like with the ids and times that differ between events left out.
    static func shape(status: Int, _ body: [UInt8]) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        if let error = object["error"] { return "\(status) \(error)" }
        let record = try #require(object["checkIn"] as? [String: Any])
        return "\(status) \(object["result"] ?? "") \(record["byName"] ?? "") \(record["deviceId"] ?? "")"
    }

    /// The event's audit kinds in sequence order, each guest's check-in rows, history rows and note.
    static func written(_ api: TestAPI, _ world: World, _ event: Event) async throws -> [String] {
        var lines = try await api.audit(world.organizer, event: event.info).map { "audit \($0.kind.rawValue)" }
        for (index, guest) in event.guests.enumerated() {
            let counts = try await api.store.checkInCounts(eventId: event.info.id, guestId: guest.id)
            let note = try await api.store.database.read { connection in
                try await connection.queryOne(
                    "SELECT note FROM checkins WHERE event_id = ? AND guest_id = ?",
                    [.id(event.info.id), .id(guest.id)]
                )?.text("note")
            }
            lines.append("guest \(index): \(counts.checkIns) check-in, \(counts.events) history, note \(note ?? "-")")
        }
        return lines
    }

    /// The event's change counter.
    static func counter(_ api: TestAPI, _ event: Event) async throws -> Int64 {
        try await api.store.database.read { connection in
            try #require(
                try await connection.queryOne("SELECT seq FROM events WHERE id = ?", [.id(event.info.id)])?.int("seq"))
        }
    }

    @Test(
        "checkin-set-group-as-one-by-one: a batch of one entry of each kind (new with its ticket, repeat, cancelled, another's ticket, unknown, retry, reconfirmation with a note, reused key, new without a ticket) decides and writes what the same entries sent one at a time do; its retry is byte for byte; the feed is gap-free",
        arguments: StoreKind.allCases)
    func asOneByOne(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let at = api.clock.now
            let grouped = try await Self.event(api, world, name: "Grouped", guests: 8)
            let alone = try await Self.event(api, world, name: "Alone", guests: 8)
            try await Self.prepare(api, world, grouped, at: at)
            try await Self.prepare(api, world, alone, at: at)

            let batch = try await Self.entries(api, world, grouped, at: at)
            #expect(
                CheckInSets.eligible(
                    batch.map {
                        CheckInCommand(
                            caller: Caller(userId: world.staff1.user.id, tenantId: .random(), role: .checkinStaff),
                            eventId: grouped.info.id, guestId: $0.guestId,
                            idempotencyKey: $0.idempotencyKey.description, requestHash: [], request: $0, now: at,
                            dedupeWindow: 30)
                    }), "every key and guest once: PostgreSQL decides the batch as sets")
            let before = try await Self.counter(api, grouped)
            let sent = try await api.request(
                .post, "/v1/events/\(grouped.info.id.wire)/checkins:batch", token: world.staff1.accessToken,
                json: CheckInBatchRequest(entries: batch))
            #expect(sent.status == 200, "\(sent.text)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: Any])
            let statuses = try #require(object["results"] as? [[String: Any]]).map { $0["status"] as? Int ?? 0 }
            let groupedShapes = try zip(statuses, try CheckInBatchTests.answers(sent.body)).map {
                try Self.shape(status: $0, $1)
            }

            var aloneShapes: [String] = []
            for entry in try await Self.entries(api, world, alone, at: at) {
                let response = try await api.checkIn(
                    world.staff1, event: alone.info.id, guest: entry.guestId, deviceId: entry.deviceId,
                    scannedAt: entry.scannedAt, method: entry.method, ticket: entry.ticket, reconfirm: entry.reconfirm,
                    note: entry.note)
                aloneShapes.append(try Self.shape(status: response.status, response.body))
            }
            #expect(groupedShapes == aloneShapes)
            #expect(
                groupedShapes.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
                    "201 checked_in", "200 already_checked_in", "409 guest_not_admissible", "404 not_found",
                    "404 not_found", "201 checked_in", "200 reconfirmed", "422 idempotency_key_reused",
                    "201 checked_in",
                ])
            let groupedWrites = try await Self.written(api, world, grouped)
            let aloneWrites = try await Self.written(api, world, alone)
            #expect(groupedWrites == aloneWrites)
            #expect(groupedWrites.contains("guest 6: 1 check-in, 1 history, note late"))

            let again = try await api.request(
                .post, "/v1/events/\(grouped.info.id.wire)/checkins:batch", token: world.staff1.accessToken,
                json: CheckInBatchRequest(entries: batch))
            #expect(again.body == sent.body, "the batch's retry is its first answer byte for byte")
            // Seven entries decided now (the retry and the reused key write no audit entry): the
            // event's next seven numbers, each once, after every number taken before.
            try await ConcurrencyTests.expectOrderedFeed(api.store, event: grouped.info.id, entries: 7)
            let numbers = try await api.store.database.read { connection in
                try await connection.query(
                    "SELECT seq FROM audit_log WHERE event_id = ? AND seq > ? ORDER BY seq",
                    [.id(grouped.info.id), .int(before)]
                ).map { try $0.int("seq") }
            }
            #expect(numbers == Array(before + 1...before + 7))
            #expect(try await Self.counter(api, grouped) == before + 7)
        }
    }

    @Test("checkin-set-group-eligible: a group goes as sets only with more than one entry, each key and guest once")
    func eligible() {
        let caller = Caller(userId: .random(), tenantId: .random(), role: .checkinStaff)
        let event = EventID.random()
        func command(_ guest: GuestID, _ key: String) -> CheckInCommand {
            CheckInCommand(
                caller: caller, eventId: event, guestId: guest, idempotencyKey: key, requestHash: [],
                request: CheckInRequest(guestId: guest, deviceId: "d", scannedAt: Date(), method: .qr), now: Date(),
                dedupeWindow: 30)
        }
        let (a, b) = (GuestID.random(), GuestID.random())
        #expect(CheckInSets.eligible([command(a, "1"), command(b, "2")]))
        #expect(!CheckInSets.eligible([command(a, "1")]))
        #expect(!CheckInSets.eligible([command(a, "1"), command(a, "2")]), "a guest twice")
        #expect(!CheckInSets.eligible([command(a, "1"), command(b, "1")]), "a key twice")
    }
}
