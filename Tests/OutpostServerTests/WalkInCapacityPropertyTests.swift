import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The walk-in capacity holds under any schedule: doors that go offline and come back late,
/// leases that expire, answers lost and requests sent twice. Each schedule is random (its seed
/// is in the failure); a door follows the lease rules the device module follows (admit only
/// through a place of an open, unexpired lease; seal at expiry or on closing, after its
/// admissions; ask for more at a third left while online). After every step the walk-ins the
/// doors really admitted never exceed the capacity, and neither does what the server reserved;
/// at the end every admission reached the server, none flagged over capacity, and the pool holds
/// exactly the admissions plus the grants whose answers were lost (escrowed, never oversold).
@Suite("Walk-in capacity (property)")
struct WalkInCapacityPropertyTests {
    /// One door of the model.
    struct Door {
        var name: String
        var online = true
        var leases: [Lease] = []
        /// Requests not yet answered, in the order they were made (the device's outbox).
        var outbox: [Entry] = []
        var admitted = 0

        struct Lease {
            var lease: WalkInLease
            var used = 0
            var sealed = false
        }

        enum Entry {
            case walkIn(WalkInRequest)
            case seal(WalkInLeaseID, used: Int)
        }
    }

    /// The organizer and a staff member, signing in again when the moved clock expires a token.
    struct Clients {
        var organizer: LabClient
        var staff: LabClient
        var event: EventID

        static func make(_ api: TestAPI, _ world: World) async throws -> Clients {
            func client(_ email: String, _ password: String) async throws -> LabClient {
                try await LabClient.signedIn(
                    transport: RouterTransport(client: api.client),
                    LabClient.Credentials(email: email, password: password, deviceId: "property"))
            }
            return Clients(
                organizer: try await client("org@acme.test", "organizer-pass"),
                staff: try await client("alex@acme.test", "staff-password"), event: world.event.id)
        }
    }

    struct Schedule {
        var capacity: Int
        var doors: [Door]
        var random: SeededRandom
        var lostGrants = 0
        var refused = 0
    }

    @Test(
        "walkin-capacity-property: random lease, expiry, offline and reconnect schedules never admit more walk-ins than the capacity, on the doors or on the server",
        arguments: [(StoreKind.sqlite, 10), (StoreKind.postgres, 2)])
    func neverOversold(kind: StoreKind, schedules: Int) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 0)
            let clients = try await Clients.make(api, world)
            for seed in 1...UInt64(schedules) {
                try await Self.run(seed: seed &* 7_919 &+ UInt64(kind == .sqlite ? 0 : 1_000), api, clients)
            }
        }
    }

    static func run(seed: UInt64, _ api: TestAPI, _ world: Clients) async throws {
        var random = SeededRandom(seed: seed)
        let capacity = Int.random(in: 1...40, using: &random)
        let type = try await world.organizer.createAccessType(
            event: world.event,
            CreateAccessTypeRequest(name: "Door \(seed)", walkInAllowed: true, walkInCapacity: capacity))
        let doorCount = Int.random(in: 2...4, using: &random)
        var schedule = Schedule(
            capacity: capacity, doors: (0..<doorCount).map { Door(name: "s\(seed)-door-\($0)") }, random: random)
        let steps = Int.random(in: 40...120, using: &schedule.random)
        for step in 0..<steps {
            let index = Int.random(in: 0..<doorCount, using: &schedule.random)
            switch Int.random(in: 0..<100, using: &schedule.random) {
            case 0..<12: schedule.doors[index].online.toggle()
            case 12..<62: try await admit(&schedule, door: index, type: type.id, api, world)
            case 62..<82: try await flush(&schedule, door: index, api, world)
            case 82..<94: api.clock.advance(by: Double(Int.random(in: 1...50, using: &schedule.random)) * 60)
            default: close(&schedule, door: index)
            }
            expireLeases(&schedule, now: api.clock.now)
            let doorsAdmitted = schedule.doors.map(\.admitted).reduce(0, +)
            #expect(
                doorsAdmitted <= capacity,
                "seed \(seed), step \(step): the doors admitted \(doorsAdmitted) of \(capacity)")
            let pool = try await Self.pool(api, world, type.id)
            #expect(pool.reserved <= capacity, "seed \(seed), step \(step): reserved \(pool.reserved) of \(capacity)")
            #expect(pool.reserved >= pool.admitted, "seed \(seed), step \(step): the pool counts every admission")
            #expect(pool.overCapacity == 0, "seed \(seed), step \(step)")
        }
        // Every door comes back, closes and sends everything (answers no longer lost).
        for index in schedule.doors.indices {
            schedule.doors[index].online = true
            close(&schedule, door: index)
            try await flush(&schedule, door: index, api, world, reliable: true)
            #expect(schedule.doors[index].outbox.isEmpty)
        }
        let admitted = schedule.doors.map(\.admitted).reduce(0, +)
        let pool = try await Self.pool(api, world, type.id)
        #expect(pool.admitted == admitted, "seed \(seed): every admission reached the server")
        #expect(pool.overCapacity == 0, "seed \(seed)")
        #expect(
            pool.reserved == admitted + schedule.lostGrants,
            "seed \(seed): the pool is the admissions and the grants whose answers were lost")
        #expect(pool.openLeases == 0 || schedule.lostGrants > 0, "seed \(seed): every lease a door knew is sealed")
    }

    static func pool(_ api: TestAPI, _ world: Clients, _ type: AccessTypeID) async throws -> WalkInCapacity {
        try #require(
            try await world.organizer.walkInSummary(event: world.event).capacities.first {
                $0.accessTypeId == type
            })
    }

    /// Staff add a walk-in at `door`: through a place of an open lease, asking the server for
    /// one first when online and the door has none (or is down to a third); refused otherwise.
    static func admit(
        _ schedule: inout Schedule, door index: Int, type: AccessTypeID, _ api: TestAPI, _ world: Clients
    ) async throws {
        let now = api.clock.now
        var door = schedule.doors[index]
        defer { schedule.doors[index] = door }
        let left = door.leases.filter { !$0.sealed }.map { $0.lease.granted - $0.used }.reduce(0, +)
        let granted = door.leases.filter { !$0.sealed }.map(\.lease.granted).max() ?? 0
        if door.online, left == 0 || WalkInLeasePolicy.wantsRefill(granted: granted, left: left) {
            let answer = try await world.staff.leaseWalkIns(
                event: world.event, WalkInLeaseRequest(deviceId: door.name, accessTypeId: type))
            if answer.status == 201 {
                let lease = try OutpostJSON.decode(WalkInLease.self, from: answer.body)
                if Int.random(in: 0..<10, using: &schedule.random) == 0 {
                    schedule.lostGrants += lease.granted  // the answer never came back
                } else {
                    door.leases.append(Door.Lease(lease: lease))
                }
            }
        }
        guard
            let place = door.leases.firstIndex(where: {
                !$0.sealed && $0.used < $0.lease.granted && now < $0.lease.expiresAt
            })
        else {
            schedule.refused += 1
            return
        }
        door.leases[place].used += 1
        door.admitted += 1
        let request = WalkInRequest(
            guestId: .random(), deviceId: door.name, accessTypeId: type, name: "Walk \(door.admitted)", email: nil,
            payment: nil, addedAt: Date(millisecondsSince1970: now.millisecondsSince1970 + Int64(door.admitted)),
            slot: WalkInSlot(leaseId: door.leases[place].lease.id, slot: door.leases[place].used))
        door.outbox.append(.walkIn(request))
    }

    /// A lease whose time is up takes no more places: it is sealed on the door, and the seal
    /// queued after its admissions.
    static func expireLeases(_ schedule: inout Schedule, now: Date) {
        for index in schedule.doors.indices {
            for place in schedule.doors[index].leases.indices
            where !schedule.doors[index].leases[place].sealed
                && now >= schedule.doors[index].leases[place].lease.expiresAt
            {
                seal(&schedule.doors[index], place)
            }
        }
    }

    static func seal(_ door: inout Door, _ place: Int) {
        door.leases[place].sealed = true
        door.outbox.append(.seal(door.leases[place].lease.id, used: door.leases[place].used))
    }

    /// The door closes (staff end the shift): every open lease is sealed.
    static func close(_ schedule: inout Schedule, door index: Int) {
        for place in schedule.doors[index].leases.indices where !schedule.doors[index].leases[place].sealed {
            seal(&schedule.doors[index], place)
        }
    }

    /// While online, the door sends some of its outbox in order: an answer may be lost (the
    /// entry stays and is sent again), a request may arrive twice.
    static func flush(
        _ schedule: inout Schedule, door index: Int, _ api: TestAPI, _ world: Clients, reliable: Bool = false
    ) async throws {
        guard schedule.doors[index].online else { return }
        let lab = world.staff
        let count =
            reliable
            ? schedule.doors[index].outbox.count
            : Int.random(in: 0...schedule.doors[index].outbox.count, using: &schedule.random)
        for _ in 0..<count {
            guard let entry = schedule.doors[index].outbox.first else { break }
            let times = !reliable && Int.random(in: 0..<10, using: &schedule.random) == 0 ? 2 : 1
            var status = 0
            for _ in 0..<times {
                switch entry {
                case .walkIn(let request):
                    status = try await lab.addWalkIn(event: world.event, request).status
                    #expect(status == 201)
                case .seal(let lease, let used):
                    status = try await lab.sealWalkInLease(event: world.event, lease: lease, used: used).status
                    #expect(status == 200)
                }
            }
            if !reliable, Int.random(in: 0..<5, using: &schedule.random) == 0 { break }  // the answer was lost
            schedule.doors[index].outbox.removeFirst()
        }
    }
}
