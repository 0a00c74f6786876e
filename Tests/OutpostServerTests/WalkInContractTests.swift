import Foundation
import HTTPTypes
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Walk-ins on the server: one idempotent request adds the guest and checks them in; leased
/// places keep every door together under the access type's capacity; possible duplicates are
/// flagged, never merged; the organizer gets the list and the end-of-shift summary.
@Suite("Walk-ins")
struct WalkInContractTests {
    static func walkIn(
        _ type: AccessTypeID, name: String = "Walk In", email: String? = nil, device: String = "door-1",
        at millis: Int64 = 1_795_000_000_000, payment: WalkInPayment? = nil, slot: WalkInSlot? = nil
    ) -> WalkInRequest {
        WalkInRequest(
            guestId: .random(), deviceId: device, accessTypeId: type, name: name, email: email, payment: payment,
            addedAt: Date(millisecondsSince1970: millis), slot: slot)
    }

    /// An access type of the world's event with walk-ins and `capacity` (nil: no limit).
    static func walkInType(
        _ api: TestAPI, _ world: World, name: String = "Door", capacity: Int?
    ) async throws
        -> AccessTypeInfo
    {
        try await api.lab(world.organizer).createAccessType(
            event: world.event.id, CreateAccessTypeRequest(name: name, walkInAllowed: true, walkInCapacity: capacity))
    }

    static func lease(
        _ api: TestAPI, _ session: Session, _ event: EventID, _ type: AccessTypeID, device: String
    )
        async throws -> (status: Int, lease: WalkInLease?)
    {
        let answer = try await api.lab(session).leaseWalkIns(
            event: event, WalkInLeaseRequest(deviceId: device, accessTypeId: type))
        return (answer.status, try? OutpostJSON.decode(WalkInLease.self, from: answer.body))
    }

    @Test(
        "walkin-offline-replayed-once: a walk-in sent again (its answer lost) is the first answer byte for byte; one guest, one check-in, on the roster as checked in, audited in order",
        arguments: StoreKind.allCases)
    func replayedOnce(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let lab = api.lab(world.staff1)
            let request = Self.walkIn(
                world.accessType.id, name: "Noor Haddad", email: "noor@example.org",
                payment: WalkInPayment(amountMinor: 2_500, currency: "EUR", method: .cash))
            let first = try await lab.addWalkIn(event: world.event.id, request)
            #expect(first.status == 201, "\(String(decoding: first.body, as: UTF8.self))")
            let again = try await lab.addWalkIn(event: world.event.id, request)
            #expect(again.status == 201 && again.body == first.body, "the stored answer, byte for byte")
            let answer = try OutpostJSON.decode(WalkInResponse.self, from: first.body)
            #expect(answer.walkIn.guestId == request.guestId && answer.checkIn.guestId == request.guestId)
            #expect(answer.walkIn.byName == "Alex" && answer.walkIn.payment?.amountMinor == 2_500)
            #expect(answer.walkIn.possibleDuplicateOf == nil && !answer.walkIn.overCapacity)
            let counts = try await api.store.checkInCounts(eventId: world.event.id, guestId: request.guestId)
            #expect(counts.checkIns == 1)
            let roster = try await api.roster(world.staff2, event: world.event).flatMap(\.guests)
            let guest = try #require(roster.first { $0.id == request.guestId })
            #expect(guest.name == "Noor Haddad" && guest.checkIn?.deviceId == "door-1" && !guest.code.isEmpty)
            let audit = try await api.audit(world.organizer, event: world.event)
            #expect(audit.filter { $0.guestId == request.guestId }.map(\.kind) == [.checkedIn])
            #expect(audit.first(where: { $0.guestId == request.guestId })?.method == "walk_in")
            try await ConcurrencyTests.expectOrderedFeed(api.store, event: world.event.id, entries: 1)
            // The same key with another body is refused, and writes nothing.
            var changed = request
            changed.name = "Someone Else"
            let reused = try await lab.addWalkIn(event: world.event.id, changed)
            #expect(
                reused.status == 422 && String(decoding: reused.body, as: UTF8.self).contains("idempotency_key_reused"))
            #expect(try await lab.request(API.listWalkIns.line(world.event.id)).status == 403, "staff do not list them")
            #expect(try await api.lab(world.organizer).walkIns(event: world.event.id).map(\.name) == ["Noor Haddad"])
        }
    }

    @Test(
        "walkin-refusals: an access type without walk-ins is 409 walk_in_not_allowed; another tenant's event is 404; a bad payment or a key that is not the body's is refused; nothing is written",
        arguments: StoreKind.allCases)
    func refusals(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let lab = api.lab(world.staff1)
            let vip = try await api.lab(world.organizer).createAccessType(
                event: world.event.id, CreateAccessTypeRequest(name: "VIP", walkInAllowed: false))
            let refused = try await lab.addWalkIn(event: world.event.id, Self.walkIn(vip.id))
            #expect(
                refused.status == 409 && String(decoding: refused.body, as: UTF8.self).contains("walk_in_not_allowed"))
            let other = try await lab.addWalkIn(event: world.otherEvent.id, Self.walkIn(world.accessType.id))
            #expect(other.status == 404)
            let bad = try await lab.addWalkIn(
                event: world.event.id,
                Self.walkIn(
                    world.accessType.id, payment: WalkInPayment(amountMinor: -5, currency: "euro", method: .card)))
            #expect(bad.status == 422)
            let request = Self.walkIn(world.accessType.id)
            let mismatched = try await lab.request(
                API.addWalkIn.line(world.event.id), json: request,
                headers: ["Idempotency-Key": "door-1:\(UUID().lowercasedString):1"])
            #expect(mismatched.status == 422)
            let capacityWithout = try await api.lab(world.organizer).request(
                API.createAccessType.line(world.event.id),
                json: CreateAccessTypeRequest(name: "Odd", walkInAllowed: false, walkInCapacity: 5))
            #expect(capacityWithout.status == 422, "a capacity needs walk-ins")
            #expect(try await api.lab(world.organizer).walkIns(event: world.event.id).isEmpty)
        }
    }

    @Test(
        "walkin-duplicate-flagged: the same person added at two doors offline (same e-mail, or the same name within minutes) is two guests, the second flagged with the first, never merged",
        arguments: StoreKind.allCases)
    func duplicates(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let type = world.accessType.id
            let t0: Int64 = 1_795_000_000_000
            let first = Self.walkIn(type, name: "Ana Ruiz", email: "ana@example.org", device: "door-1", at: t0)
            let sameMail = Self.walkIn(type, name: "A. Ruiz", email: "ANA@example.org", device: "door-2", at: t0 + 5)
            let sameName = Self.walkIn(type, name: "  ana  RUIZ ", device: "door-3", at: t0 + 4 * 60_000)
            let later = Self.walkIn(type, name: "Ana Ruiz", device: "door-3", at: t0 + 45 * 60_000)
            let onRoster = Self.walkIn(type, name: "Who", email: world.guests[0].email, device: "door-2", at: t0)
            for request in [first, sameMail, sameName, later, onRoster] {
                let answer = try await api.lab(world.staff1).addWalkIn(event: world.event.id, request)
                #expect(answer.status == 201)
            }
            let listed = Dictionary(
                uniqueKeysWithValues: try await api.lab(world.organizer).walkIns(event: world.event.id).map {
                    ($0.guestId, $0)
                })
            #expect(listed.count == 5, "every walk-in kept")
            #expect(listed[first.guestId]?.possibleDuplicateOf == nil)
            #expect(listed[sameMail.guestId]?.possibleDuplicateOf == first.guestId)
            #expect(listed[sameName.guestId]?.possibleDuplicateOf == first.guestId)
            #expect(listed[later.guestId]?.possibleDuplicateOf == nil, "45 minutes later is someone else")
            #expect(listed[onRoster.guestId]?.possibleDuplicateOf == world.guests[0].id)
            let roster = try await api.roster(world.organizer, event: world.event).flatMap(\.guests)
            #expect(roster.filter { $0.name.lowercased().contains("ruiz") }.count == 4, "never merged")
        }
    }

    @Test(
        "walkin-lease-escrow: grants fit what is free, the last places go one at a time, a full pool is 409; a seal gives the rest back once; places outside a lease are kept and flagged over capacity",
        arguments: StoreKind.allCases)
    func leases(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let type = try await Self.walkInType(api, world, capacity: 12)
            let (status1, lease1) = try await Self.lease(api, world.staff1, event, type.id, device: "door-1")
            #expect(status1 == 201 && lease1?.granted == 6, "half of 12 for the first door")
            let (_, lease2) = try await Self.lease(api, world.staff2, event, type.id, device: "door-2")
            #expect(lease2?.granted == 1, "6 free, two doors: fewer than two per door, one place")
            let (_, lease3) = try await Self.lease(api, world.staff1, event, type.id, device: "door-1")
            #expect(lease3?.granted == 1, "door-1's refill")
            let (status4, _) = try await Self.lease(api, world.staff1, event, type.id, device: "door-1")
            #expect(status4 == 409, "two open leases per device")
            let one = try #require(lease1)
            let lab = api.lab(world.staff1)
            // Places 1 and 2 used; place 2 again, place 7 and no place at all are over capacity.
            var flagged: [Bool] = []
            for slot in [1, 2, 2, 7] {
                let answer = try await lab.addWalkIn(
                    event: event, Self.walkIn(type.id, name: "P\(slot)", slot: WalkInSlot(leaseId: one.id, slot: slot)))
                flagged.append(try OutpostJSON.decode(WalkInResponse.self, from: answer.body).walkIn.overCapacity)
            }
            let none = try await lab.addWalkIn(event: event, Self.walkIn(type.id, name: "No place"))
            flagged.append(try OutpostJSON.decode(WalkInResponse.self, from: none.body).walkIn.overCapacity)
            #expect(flagged == [false, false, true, true, true])
            // Door-2's place on door-1's lease is not door-2's.
            let stolen = try await api.lab(world.staff2).addWalkIn(
                event: event, Self.walkIn(type.id, device: "door-2", slot: WalkInSlot(leaseId: one.id, slot: 3)))
            #expect(try OutpostJSON.decode(WalkInResponse.self, from: stolen.body).walkIn.overCapacity)
            // Seal at 2 used: 4 places go back; again the same; another count refused.
            let sealed = try await lab.sealWalkInLease(event: event, lease: one.id, used: 2)
            #expect(sealed.status == 200)
            #expect(try await lab.sealWalkInLease(event: event, lease: one.id, used: 2).body == sealed.body)
            #expect(try await lab.sealWalkInLease(event: event, lease: one.id, used: 3).status == 409)
            #expect(try await lab.sealWalkInLease(event: event, lease: .random(), used: 0).status == 404)
            let after = try await lab.addWalkIn(
                event: event, Self.walkIn(type.id, name: "After", slot: WalkInSlot(leaseId: one.id, slot: 3)))
            #expect(try OutpostJSON.decode(WalkInResponse.self, from: after.body).walkIn.overCapacity, "past the seal")
            let capacity = try #require(
                try await api.lab(world.organizer).walkInSummary(event: event).capacities.first {
                    $0.accessTypeId == type.id
                })
            #expect(capacity.capacity == 12 && capacity.reserved == 2 + 1 + 1, "door-1's 2 used, two open leases of 1")
            #expect(capacity.admitted == 7 && capacity.overCapacity == 5 && capacity.openLeases == 2)
            // Another tenant cannot lease or seal here.
            #expect(try await Self.lease(api, world.otherOrganizer, event, type.id, device: "x").status == 404)
            let (_, l2) = (try await Self.lease(api, world.staff2, event, type.id, device: "door-9"))
            #expect(l2 != nil)
            if let l2 {
                #expect(
                    try await api.lab(world.otherOrganizer).sealWalkInLease(event: event, lease: l2.id, used: 0).status
                        == 404)
            }
            // A type without a capacity needs no lease.
            #expect(try await Self.lease(api, world.staff1, event, world.accessType.id, device: "door-1").status == 422)
        }
    }

    @Test(
        "walkin-summary-csv: per device the count and the amounts by method and currency, the same in JSON and CSV",
        arguments: [StoreKind.sqlite])
    func summaryCSV(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let type = world.accessType.id
            let rows: [(String, WalkInPayment?)] = [
                ("door-1", WalkInPayment(amountMinor: 2_500, currency: "EUR", method: .cash)),
                ("door-1", WalkInPayment(amountMinor: 1_050, currency: "EUR", method: .cash)),
                ("door-1", WalkInPayment(amountMinor: 2_500, currency: "EUR", method: .card)),
                ("door-1", nil),
                ("door-2", WalkInPayment(amountMinor: 900, currency: "NOK", method: .card)),
            ]
            for (index, (device, payment)) in rows.enumerated() {
                let answer = try await api.lab(world.staff1).addWalkIn(
                    event: world.event.id,
                    Self.walkIn(
                        type, name: "W\(index)", device: device, at: 1_795_000_000_000 + Int64(index), payment: payment)
                )
                #expect(answer.status == 201)
            }
            let summary = try await api.lab(world.organizer).walkInSummary(event: world.event.id)
            #expect(summary.devices.map(\.walkIns) == [4, 1])
            #expect(
                summary.devices[0].totals == [
                    WalkInTotal(method: nil, currency: nil, count: 1, amountMinor: 0),
                    WalkInTotal(method: .cash, currency: "EUR", count: 2, amountMinor: 3_550),
                    WalkInTotal(method: .card, currency: "EUR", count: 1, amountMinor: 2_500),
                ])
            let csv = try await api.lab(world.organizer).expect(
                API.exportWalkInSummary.line(world.event.id), what: "the CSV")
            #expect(
                String(decoding: csv.body, as: UTF8.self) == """
                    device,walk_ins,method,currency,count,amount\r
                    door-1,4,not paid,,1,\r
                    door-1,4,cash,EUR,2,35.50\r
                    door-1,4,card,EUR,1,25.00\r
                    door-2,1,card,NOK,1,9.00\r

                    """)
            #expect(try await api.lab(world.staff1).request(API.exportWalkInSummary.line(world.event.id)).status == 403)
        }
    }
}
