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
                eventId: world.event.id.uuid, guestId: guest.uuid)
            #expect(counts.checkIns == 1 && counts.events == 31)
            #expect(try await api.audit(world.organizer, event: world.event).count == 32)
        }
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
                eventId: world.event.id.uuid, guestId: guest.uuid)
            #expect(counts.checkIns == 1 && counts.events == 0)
            #expect(try await api.audit(world.organizer, event: world.event).count == 1)
            let metrics = try await api.request(.get, "/metrics").text
            #expect(metrics.contains(#"outpost_checkins_total{result="replayed"} 15"#))
        }
    }
}
