import Foundation
import HummingbirdTesting
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Two server instances on one database: every guarantee lives in the database.
@Suite("Two server instances")
struct MultiInstanceTests {
    @Test("interleaved check-ins for the same guests through two instances on one PostgreSQL: one row per guest")
    func twoInstancesOnPostgres() async throws {
        try await TestStores.withLocation(.postgres) { try await runTwoInstances($0) }
    }

    @Test("the same through two instances on one SQLite file")
    func twoInstancesOnSQLite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "outpost-two-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await runTwoInstances(.sqlite(path: directory.appendingPathComponent("outpost.sqlite").path))
    }

    func runTwoInstances(_ location: ServerConfiguration.StoreLocation) async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let configuration = ServerConfiguration(
            store: location, clock: clock.wallClock, bcryptCost: 4, postgresPoolSize: 8)
        let partsA = try OutpostServer.makeParts(configuration, logger: TestStores.logger)
        let partsB = try OutpostServer.makeParts(configuration, logger: TestStores.logger)
        let appA = try OutpostServer.buildApplication(configuration, parts: partsA, logger: TestStores.logger)
        let appB = try OutpostServer.buildApplication(configuration, parts: partsB, logger: TestStores.logger)
        try await appA.test(.router) { clientA in
            try await appB.test(.router) { clientB in
                let apiA = TestAPI(client: clientA, store: partsA.store, clock: clock, configuration: configuration)
                let apiB = TestAPI(client: clientB, store: partsB.store, clock: clock, configuration: configuration)
                let world = try await World.make(apiA, guests: 20)
                // Tokens issued by A are valid on B: the signing secret is shared through the database.
                let staffOnB = try await apiB.signIn(email: "bea@acme.test", password: "staff-password")
                let responses = try await withThrowingTaskGroup(of: (Int, APIResponse).self) { group in
                    for (index, guest) in world.guests.enumerated() {
                        for round in 0..<3 {
                            group.addTask {
                                let onA = (index + round).isMultiple(of: 2)
                                let response = try await (onA ? apiA : apiB).checkIn(
                                    onA ? world.staff1 : staffOnB, event: world.event.id, guest: guest.id,
                                    deviceId: "device-\(round)-\(onA ? "a" : "b")")
                                return (index, response)
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(responses.count == 60)
                let checkedIn = try responses.filter { try $0.1.decode(CheckInResponse.self).result == .checkedIn }
                #expect(checkedIn.count == 20)
                #expect(Set(checkedIn.map(\.0)).count == 20)
                let rows = try await partsB.store.database.read {
                    try await $0.queryOne(
                        "SELECT COUNT(*) AS rows_, COUNT(DISTINCT guest_id) AS guests FROM checkins", [])
                }
                #expect(try rows?.int("rows_") == 20 && rows?.int("guests") == 20)
                let audit = try await apiB.audit(world.organizer, event: world.event)
                #expect(audit.count == 60)
                try await ConcurrencyTests.expectOrderedFeed(partsB.store, event: world.event.id, entries: 60)
            }
        }
    }
}
