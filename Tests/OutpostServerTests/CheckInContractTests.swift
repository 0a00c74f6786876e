import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Every row of API.md's check-in table, on every store.
@Suite("Check-in contract")
struct CheckInContractTests {
    @Test("first check-in is 201 checked_in with server time and client time", arguments: StoreKind.allCases)
    func firstCheckIn(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[0]
            let response = try await api.checkIn(world.staff1, event: world.event.id, guest: guest.id)
            #expect(response.status == 201)
            let body: CheckInResponse = try response.decode()
            #expect(body.result == .checkedIn)
            #expect(body.checkIn.guestId == guest.id)
            #expect(body.checkIn.byName == "Alex")
            #expect(body.checkIn.deviceId == "device-1")
            #expect(body.checkIn.at == api.clock.now)
            let counts = try await api.store.checkInCounts(
                eventId: world.event.id, guestId: guest.id)
            #expect(counts.checkIns == 1 && counts.events == 0)
        }
    }

    @Test(
        "clock-skew-server-ts-wins: a device 5 minutes ahead is stored as clientAt, at is the server's",
        arguments: StoreKind.allCases)
    func clockSkew(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let skewed = api.clock.now + 300
            let response = try await api.checkIn(
                world.staff1, event: world.event.id, guest: world.guests[0].id, scannedAt: skewed)
            let body: CheckInResponse = try response.decode()
            #expect(body.checkIn.at == api.clock.now)
            #expect(body.checkIn.clientAt == skewed)
            let audit = try await api.audit(world.organizer, event: world.event)
            #expect(audit.last?.at == api.clock.now)
            #expect(audit.last?.clientAt == skewed)
            let roster = try await api.roster(world.staff1, event: world.event).flatMap(\.guests)
            #expect(roster.first { $0.id == world.guests[0].id }?.checkIn?.at == api.clock.now)
        }
    }

    @Test(
        "two-staff-idempotent: a second device within 30 s gets already_checked_in with the first staff's name; one row",
        arguments: StoreKind.allCases)
    func twoStaff(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[0]
            let first = try await api.checkIn(
                world.staff1, event: world.event.id, guest: guest.id, deviceId: "phone-alex")
            api.clock.advance(by: 5)
            let second = try await api.checkIn(
                world.staff2, event: world.event.id, guest: guest.id, deviceId: "phone-bea")
            #expect(first.status == 201)
            #expect(second.status == 200)
            let body: CheckInResponse = try second.decode()
            #expect(body.result == .alreadyCheckedIn)
            #expect(body.checkIn == (try first.decode(CheckInResponse.self)).checkIn)
            #expect(body.checkIn.byName == "Alex")
            let eventId = world.event.id
            let counts = try await api.store.checkInCounts(eventId: eventId, guestId: guest.id)
            #expect(counts.checkIns == 1 && counts.events == 1)
            let kinds = try await api.store.database.read {
                try await $0.query(
                    "SELECT kind FROM checkin_events WHERE guest_id = ? ORDER BY at", [.text(guest.id.wire)]
                )
                .map { try $0.text("kind") }
            }
            #expect(kinds == ["concurrent"])
            api.clock.advance(by: 60)
            _ = try await api.checkIn(world.staff2, event: world.event.id, guest: guest.id, deviceId: "phone-bea")
            let later = try await api.store.database.read {
                try await $0.query(
                    "SELECT kind FROM checkin_events WHERE guest_id = ? ORDER BY at", [.text(guest.id.wire)]
                )
                .map { try $0.text("kind") }
            }
            #expect(later == ["concurrent", "repeat"])
        }
    }

    @Test(
        "already-checked-in-screen: reconfirm:true answers reconfirmed, appends the note, never a second row",
        arguments: StoreKind.allCases)
    func reconfirm(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[1]
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: guest.id)
            api.clock.advance(by: 120)
            let again = try await api.checkIn(
                world.staff1, event: world.event.id, guest: guest.id, reconfirm: true, note: "wristband swapped")
            #expect(again.status == 200)
            #expect(try again.decode(CheckInResponse.self).result == .reconfirmed)
            let counts = try await api.store.checkInCounts(
                eventId: world.event.id, guestId: guest.id)
            #expect(counts.checkIns == 1 && counts.events == 1)
            let note = try await api.store.database.read {
                try await $0.queryOne("SELECT note FROM checkins WHERE guest_id = ?", [.text(guest.id.wire)])?.text(
                    "note")
            }
            #expect(note == "wristband swapped")
            let kinds = try await api.audit(world.organizer, event: world.event).map(\.kind)
            #expect(kinds == [.checkedIn, .reconfirmed])
        }
    }

    @Test(
        "a retry with the same Idempotency-Key gets the stored answer byte for byte and writes nothing",
        arguments: StoreKind.allCases)
    func retry(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[0]
            let scanned = api.clock.now
            let first = try await api.checkIn(world.staff1, event: world.event.id, guest: guest.id, scannedAt: scanned)
            api.clock.advance(by: 600)
            let retry = try await api.checkIn(world.staff1, event: world.event.id, guest: guest.id, scannedAt: scanned)
            #expect(retry.status == first.status)
            #expect(retry.body == first.body)
            let audit = try await api.audit(world.organizer, event: world.event)
            #expect(audit.count == 1)
            let counts = try await api.store.checkInCounts(
                eventId: world.event.id, guestId: guest.id)
            #expect(counts.checkIns == 1 && counts.events == 0)
        }
    }

    @Test("the same Idempotency-Key with a different body is 422 idempotency_key_reused", arguments: StoreKind.allCases)
    func keyReused(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[0]
            let scanned = api.clock.now
            _ = try await api.checkIn(
                world.staff1, event: world.event.id, guest: guest.id, scannedAt: scanned, method: .qr)
            let changed = try await api.checkIn(
                world.staff1, event: world.event.id, guest: guest.id, scannedAt: scanned, method: .manual)
            #expect(changed.status == 422)
            #expect(changed.errorCode == "idempotency_key_reused")
            let noted = try await api.checkIn(
                world.staff1, event: world.event.id, guest: guest.id, scannedAt: scanned, note: "x")
            #expect(noted.errorCode == "idempotency_key_reused")
        }
    }

    @Test("cancelled and revoked guests are 409 guest_not_admissible and audited", arguments: StoreKind.allCases)
    func notAdmissible(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            for (guest, status) in zip(world.guests.prefix(2), [GuestStatus.cancelled, .revoked]) {
                let patched = try await api.request(
                    .patch, "/v1/events/\(world.event.id)/guests/\(guest.id)", token: world.organizer.accessToken,
                    json: UpdateGuestRequest(status: status))
                #expect(patched.status == 200)
                let response = try await api.checkIn(world.staff1, event: world.event.id, guest: guest.id)
                #expect(response.status == 409)
                #expect(response.errorCode == "guest_not_admissible")
            }
            let kinds = try await api.audit(world.organizer, event: world.event).map(\.kind)
            #expect(kinds == [.rejectedNotAdmissible, .rejectedNotAdmissible])
        }
    }

    @Test(
        "cross-tenant-qr-404: unknown guest, other event and other tenant get the identical 404, audited",
        arguments: StoreKind.allCases)
    func notFoundIdentical(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let secondEvent = try await api.createEvent(world.organizer, name: "Second")
            let type2 = try await api.createAccessType(world.organizer, event: secondEvent)
            let otherEventGuest = try await api.createGuest(
                world.organizer, event: secondEvent, accessType: type2, name: "Elsewhere")
            let unknown = try await api.checkIn(world.organizer, event: world.event.id, guest: .random())
            let otherEvent = try await api.checkIn(world.organizer, event: world.event.id, guest: otherEventGuest.id)
            let otherTenant = try await api.checkIn(world.organizer, event: world.event.id, guest: world.otherGuest.id)
            let otherTenantEvent = try await api.checkIn(
                world.organizer, event: world.otherEvent.id, guest: world.otherGuest.id, deviceId: "device-2")
            let forgedTicket = try await api.checkIn(
                world.organizer, event: world.event.id, guest: world.guests[0].id,
                ticket: "OP1" + String(repeating: "A", count: 194))
            for response in [unknown, otherEvent, otherTenant, otherTenantEvent, forgedTicket] {
                #expect(response.status == 404)
                #expect(response.body == unknown.body)
            }
            #expect(unknown.errorCode == "not_found")
            let kinds = try await api.audit(world.organizer, event: world.event).map(\.kind)
            #expect(kinds == [.rejectedNotFound, .rejectedNotFound, .rejectedNotFound, .rejectedNotFound])
            // The attempt against tenant B's event is recorded in tenant A's log, invisible to tenant B.
            let otherAudit = try await api.audit(world.otherOrganizer, event: world.otherEvent)
            #expect(otherAudit.isEmpty)
            let recorded = try await api.store.database.read {
                try await $0.queryOne(
                    "SELECT COUNT(*) AS n FROM audit_log WHERE tenant_id = ? AND event_id = ?",
                    [.text(world.organizer.user.tenantId.wire), .text(world.otherEvent.id.wire)])?.int("n")
            }
            #expect(recorded == 1)
        }
    }

    @Test("a valid ticket is accepted, a ticket of another guest is 404", arguments: StoreKind.allCases)
    func ticketChecked(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let ticket = try await api.request(
                .get, "/v1/events/\(world.event.id)/guests/\(world.guests[0].id)/ticket",
                token: world.organizer.accessToken)
            let text = ticket.text.trimmingCharacters(in: .newlines)
            let mismatched = try await api.checkIn(
                world.staff1, event: world.event.id, guest: world.guests[1].id, ticket: text)
            #expect(mismatched.status == 404)
            let good = try await api.checkIn(
                world.staff1, event: world.event.id, guest: world.guests[0].id, ticket: text)
            #expect(good.status == 201)
        }
    }

    @Test("malformed bodies and keys are 400/422 invalid_request and write nothing", arguments: StoreKind.allCases)
    func malformed(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[0].id
            let path = "/v1/events/\(world.event.id)/checkins"
            let token = world.staff1.accessToken
            let key = HTTPField.Name("Idempotency-Key")!
            let validBody =
                #"{"guestId":"\#(guest)","deviceId":"d","scannedAt":"2026-11-18T08:26:40.000Z","method":"qr"}"#
            let cases: [(HTTPFields, String, Int)] = [
                ([:], validBody, 400),  // no key
                ([key: "nonsense"], validBody, 400),
                // A truncated body.
                ([key: "d:\(guest):1795000000000", .contentType: "application/json"], #"{"guestId":"#, 400),
                ([key: "d:\(guest):1795000000000"], "", 400),
                ([key: "d:\(guest):1795000000000"], #"{"guestId":"\#(guest)","deviceId":"d","method":"qr"}"#, 400),
                (
                    [key: "d:\(guest):1795000000000"],
                    #"{"guestId":"\#(guest)","deviceId":"d","scannedAt":"yesterday","method":"qr"}"#, 400
                ),
                (
                    [key: "d:\(guest):1795000000000"],
                    #"{"guestId":"\#(guest)","deviceId":"d","scannedAt":"2026-11-18T08:26:40.000Z","method":"telepathy"}"#,
                    400
                ),
                (
                    [key: "d:\(guest):1795000000000"],
                    // An id is decoded strictly, like every other field: a body with a malformed one is malformed.
                    #"{"guestId":"not-a-uuid","deviceId":"d","scannedAt":"2026-11-18T08:26:40.000Z","method":"qr"}"#,
                    400
                ),
                ([key: "other:\(guest):1795000000000"], validBody, 422),  // key does not match the body
            ]
            for (headers, body, status) in cases {
                let response = try await api.request(
                    .post, path, token: token, body: Array(body.utf8), headers: headers)
                #expect(response.status == status, "\(body) with \(headers)")
                #expect(response.errorCode == "invalid_request")
            }
            #expect(try await api.audit(world.organizer, event: world.event).isEmpty)
        }
    }

    @Test(
        "already-checked-in-friendly / audit-log-kiosk-events: kiosk check-ins are audited with method kiosk",
        arguments: StoreKind.allCases)
    func kioskAudit(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let guest = world.guests[2].id
            let first = try await api.checkIn(
                world.staff1, event: world.event.id, guest: guest, deviceId: "kiosk-1", method: .kiosk)
            api.clock.advance(by: 1)
            let second = try await api.checkIn(
                world.staff1, event: world.event.id, guest: guest, deviceId: "kiosk-1", method: .kiosk)
            #expect(first.status == 201)
            #expect(try second.decode(CheckInResponse.self).result == .alreadyCheckedIn)
            let audit = try await api.audit(world.support, event: world.event)
            #expect(audit.map(\.kind) == [.checkedIn, .kioskAlreadyCheckedIn])
            #expect(
                audit.allSatisfy {
                    $0.method == "kiosk" && $0.deviceId == "kiosk-1" && $0.userId == world.staff1.user.id
                })
        }
    }

    @Test("check-ins are counted by result in /metrics", arguments: StoreKind.allCases)
    func metrics(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: world.guests[0].id)
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: world.guests[0].id, deviceId: "d2")
            let metrics = try await api.request(.get, "/metrics").text
            #expect(metrics.contains(#"outpost_checkins_total{result="checked_in"} 1"#))
            #expect(metrics.contains(#"outpost_checkins_total{result="already_checked_in"} 1"#))
            #expect(metrics.contains("outpost_http_request_duration_seconds_bucket"))
            #expect(metrics.contains(#"route="/v1/events/{eventId}/checkins""#))
        }
    }

    @Test("idempotency answers are kept 72 hours, then purged", arguments: StoreKind.allCases)
    func retention(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let scanned = api.clock.now
            let first = try await api.checkIn(
                world.staff1, event: world.event.id, guest: world.guests[0].id, scannedAt: scanned)
            let service = IdempotencyRetentionService(
                store: api.store, clock: api.clock.wallClock, logger: TestStores.logger)
            api.clock.advance(by: 72 * 3600 - 1)
            await service.purgeOnce()
            let staff = try await api.signIn(email: "alex@acme.test", password: "staff-password")
            let kept = try await api.checkIn(
                staff, event: world.event.id, guest: world.guests[0].id, scannedAt: scanned)
            #expect(kept.body == first.body)
            api.clock.advance(by: 2)
            await service.purgeOnce()
            let count = try await api.store.database.read {
                try await $0.queryOne("SELECT COUNT(*) AS n FROM idempotency_keys", [])?.int("n")
            }
            #expect(count == 0)
            // Past retention a replay is decided afresh, and still never makes a second check-in.
            let late = try await api.checkIn(
                staff, event: world.event.id, guest: world.guests[0].id, scannedAt: scanned)
            #expect(try late.decode(CheckInResponse.self).result == .alreadyCheckedIn)
        }
    }
}
