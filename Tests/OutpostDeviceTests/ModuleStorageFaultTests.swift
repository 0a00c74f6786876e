import Foundation
import GRDB
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostShell

/// A module's table that cannot be read (a damaged page, a file another process holds) is
/// never read as "empty": the door is not told a real guest has no ticket, and a worker's
/// export is never an empty timesheet. The failures are real SQLite errors: the table is
/// renamed away under the running app, then put back.
@Suite("Module storage faults")
@MainActor
struct ModuleStorageFaultTests {
    static func hide(_ table: String, in store: DeviceStore) throws {
        try store.queue.write { db in try db.execute(sql: "ALTER TABLE \(table) RENAME TO \(table)_away") }
    }

    static func restore(_ table: String, in store: DeviceStore) throws {
        try store.queue.write { db in try db.execute(sql: "ALTER TABLE \(table)_away RENAME TO \(table)") }
    }

    /// A staff device with the roster synced and the event open, then offline.
    static func offlineAtTheDoor(_ lab: DeviceLab, _ name: String) async throws -> DeviceApp {
        _ = try await lab.readyDevice(name)
        let app = try lab.launch(name)
        await app.openEvent(lab.world.event.id)
        app.update { $0.online = false }
        return app
    }

    @Test(
        "reload-read-again-after-fault: a screen's figure whose read failed is read again at the next action, though nothing was written since, instead of showing its fallback until the next write"
    )
    func readAgainAfterFault() async throws {
        try await DeviceLab.run { lab in
            let app = try await Self.offlineAtTheDoor(lab, "again")
            @MainActor func count() -> String? { app.tree().element(UIIdentifier.rosterList)?.attributes["count"] }
            let guests = String(lab.world.guests.count)
            #expect(count() == guests)
            // Another connection (another process on this store) takes the count's table away:
            // its commit moves every generation, so the next reload reads the count, and fails.
            let path = lab.home("again").appendingPathComponent("device.sqlite").path
            let other = try DatabaseQueue(path: path)
            try await other.write {
                try $0.execute(sql: "ALTER TABLE roster_versions RENAME TO roster_versions_away")
            }
            try other.close()
            app.cancel()
            #expect(count() == "0")
            #expect(app.tree().element(UIIdentifier.storageFaultBanner) != nil)
            // Back through the app's own connection: no row changed, no generation moved.
            try Self.restore("roster_versions", in: app.store)
            app.cancel()
            #expect(count() == guests, "the failed read was not kept")
        }
    }

    @Test(
        "checkin-roster-unreadable-refuses: a code lookup on an unreadable roster refuses with the reason, never 'no such code'"
    )
    func rosterUnreadable() async throws {
        try await DeviceLab.run { lab in
            let app = try await Self.offlineAtTheDoor(lab, "roster")
            let guest = lab.world.guests[0]

            try Self.hide("guests", in: app.store)
            app.checkIn(code: guest.code)
            #expect(app.refusal == "The roster could not be read on this device; nothing was checked in.")
            #expect(
                !app.tree().contains(UIIdentifier.notInRosterBanner), "a real guest is not told they are not listed")
            #expect(app.tree().screen != UIIdentifier.confirmationScreen)
            let banner = try #require(app.tree().element(UIIdentifier.storageFaultBanner), "\(app.tree().elements)")
            #expect(banner.text.contains("could not read the roster"), "\(banner.text)")
            #expect(banner.attributes["error"]?.contains("no such table") == true)
            #expect(app.pendingCount == 0)

            // Read again, the same code finds the guest and checks them in.
            try Self.restore("guests", in: app.store)
            app.checkIn(code: guest.code)
            #expect(app.tree().screen == UIIdentifier.confirmationScreen)
            await app.confirm()
            #expect(app.pendingCount == 1)
        }
    }

    @Test(
        "checkin-roster-unreadable-refuses: confirming a guest whose row cannot be read queues nothing and keeps the screen"
    )
    func confirmUnreadable() async throws {
        try await DeviceLab.run { lab in
            let app = try await Self.offlineAtTheDoor(lab, "confirm")
            app.checkIn(code: lab.world.guests[1].code)
            #expect(app.tree().screen == UIIdentifier.confirmationScreen)

            try Self.hide("guests", in: app.store)
            await app.confirm()
            #expect(app.refusal == "Could not read the guest to confirm. Nothing was queued; try again.")
            #expect(app.pendingCount == 0)
            #expect(app.tree().element(UIIdentifier.storageFaultBanner) != nil)

            try Self.restore("guests", in: app.store)
            await app.confirm()
            #expect(app.pendingCount == 1, "the same confirmation, once the row reads")
        }
    }

    @Test("track-export-unreadable-refuses: an export of hours that cannot be read fails, never an empty file")
    func exportUnreadable() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "export")
            let home = try phone.addLocation()
            let monday = Date(timeIntervalSince1970: 1_794_787_200)  // 2026-11-16 00:00 UTC
            phone.app.addManualSession(
                at: home.id, from: monday.addingTimeInterval(8 * 3600), to: monday.addingTimeInterval(16 * 3600))
            let utc = TimeZone(identifier: "UTC")!
            #expect(try phone.app.trackingCSV(timeZone: utc).contains("2026-11-16,Monday,08:00,16:00,8:00"))

            try ModuleStorageFaultTests.hide("track_sessions", in: phone.app.store)
            #expect(throws: (any Error).self) { try phone.app.trackingCSV(timeZone: utc) }
            #expect(phone.app.trackedSessions.isEmpty)
            #expect(phone.app.tree().element(UIIdentifier.storageFaultBanner) != nil, "the fault shows, not 0 hours")

            try ModuleStorageFaultTests.restore("track_sessions", in: phone.app.store)
            #expect(try phone.app.trackingCSV(timeZone: utc).contains("2026-11-16,Monday,08:00,16:00,8:00"))
        }
    }
}
