import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

/// What a device tells the organizer's door dashboard about itself.
@Suite("The door dashboard's device reports")
struct DashboardReportTests {
    @Test(
        "console-dashboard-device-report: after each sync a device reports the event's check-ins it still holds; the dashboard shows them by device and user, and 0 once they land"
    )
    func reportsWhatItHolds() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("door-1")
            // The check-in posts fail like a dead network; the roster and the report go through.
            let app = try lab.launch("door-1", transport: { LocalPendingTests.NoCheckInPosts(inner: $0) })
            await app.openEvent(lab.world.event.id)
            for guest in lab.world.guests.prefix(2) {
                app.scan(try await lab.ticket(guest))
                await app.confirm()
            }
            await app.sync()
            #expect(app.pendingCount == 2)
            let deviceId = app.deviceId
            func device() async throws -> DoorDashboard.Device? {
                let answer = try await lab.api.request(
                    .get, "/v1/events/\(lab.world.event.id)/dashboard", token: lab.world.organizer.accessToken)
                try #require(answer.status == 200, "\(answer.text)")
                return try answer.decode(DoorDashboard.self).devices.first { $0.deviceId == deviceId }
            }
            let holding = try #require(try await device())
            #expect(holding.pending == 2 && holding.userName == "Alex")
            // The network is back: the queue drains, and the report after it says so.
            let online = try lab.launch("door-1")
            await online.openEvent(lab.world.event.id)
            await online.sync()
            #expect(online.pendingCount == 0)
            #expect(try await device()?.pending == 0)
            #expect(try await lab.serverCheckIns().count == 2)
        }
    }
}
