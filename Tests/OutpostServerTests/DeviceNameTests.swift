import Foundation
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The tenant's devices and the names organizers give them.
@Suite("Device names")
struct DeviceNameTests {
    /// Door reports at the event (one device at two of its reports) and a mentor's phone.
    static func report(_ api: TestAPI, _ world: World) async throws {
        let event = world.event.id.wire
        for (path, token, pending) in [
            ("/v1/events/\(event)/devices/door-a", world.staff1.accessToken, 3),
            ("/v1/events/\(event)/devices/door-b", world.staff2.accessToken, 0),
        ] {
            let answer = try await api.request(.put, path, token: token, json: DeviceReport(pending: pending))
            #expect(answer.status == 204, "\(answer.text)")
        }
        api.clock.advance(by: 60)
        let mentor = try await api.createUser(world.organizer, email: "mo@acme.test", role: .mentor, name: "Mo")
        let answer = try await api.request(
            .put, "/v1/me/devices/phone-mo", token: mentor.accessToken, json: DeviceReport(pending: 2))
        #expect(answer.status == 204, "\(answer.text)")
    }

    @Test(
        "device-names: the tenant's devices with their latest contact, user and unsent entries; an organizer names one (trimmed, at most 60 characters, empty removes it) and the dashboard shows the name, its live version changing with each name; another tenant's device is not found; support reads, cannot name",
        arguments: StoreKind.allCases)
    func names(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            try await Self.report(api, world)
            var list: DeviceList = try await api.request(.get, "/v1/devices", token: world.support.accessToken).decode()
            #expect(list.devices.map(\.deviceId) == ["phone-mo", "door-a", "door-b"])
            #expect(list.devices.map(\.pending) == [2, 3, 0] && list.devices.map(\.userName) == ["Mo", "Alex", "Bea"])
            #expect(list.devices.allSatisfy { $0.name == nil })
            // The live dashboard's version follows names: named, renamed, unnamed each show.
            var versions = [try await api.store.dashboardVersion(eventId: world.event.id)]
            // Another tenant sees none of them.
            let other: DeviceList = try await api.request(
                .get, "/v1/devices", token: world.otherOrganizer.accessToken
            ).decode()
            #expect(other.devices.isEmpty)
            let name = { (token: String, device: String, name: String) in
                try await api.request(.put, "/v1/devices/\(device)/name", token: token, json: DeviceName(name: name))
            }
            #expect(try await name(world.support.accessToken, "door-a", "Door 2").status == 403)
            #expect(try await name(world.otherOrganizer.accessToken, "door-a", "Theirs").status == 404)
            #expect(try await name(world.organizer.accessToken, "never-seen", "Ghost").status == 404)
            #expect(
                try await name(world.organizer.accessToken, "door-a", String(repeating: "x", count: 61)).status == 422)
            let named = try await name(world.organizer.accessToken, "door-a", "  Door 2 ")
            #expect(named.status == 200)
            #expect(try named.decode(DeviceList.Device.self).name == "Door 2")
            list = try await api.request(.get, "/v1/devices", token: world.organizer.accessToken).decode()
            #expect(list.devices.first { $0.deviceId == "door-a" }?.name == "Door 2")
            versions.append(try await api.store.dashboardVersion(eventId: world.event.id))
            api.clock.advance(by: 1)
            #expect(try await name(world.organizer.accessToken, "door-a", "Door 3").status == 200)
            versions.append(try await api.store.dashboardVersion(eventId: world.event.id))
            let dashboard: DoorDashboard = try await api.request(
                .get, "/v1/events/\(world.event.id.wire)/dashboard", token: world.organizer.accessToken
            ).decode()
            #expect(dashboard.devices.first { $0.deviceId == "door-a" }?.name == "Door 3")
            #expect(dashboard.devices.first { $0.deviceId == "door-b" }?.name == nil)
            // The other tenant's device of the same id keeps its own name (or none).
            #expect(try await name(world.organizer.accessToken, "door-a", "").status == 200)
            list = try await api.request(.get, "/v1/devices", token: world.organizer.accessToken).decode()
            #expect(list.devices.allSatisfy { $0.name == nil })
            versions.append(try await api.store.dashboardVersion(eventId: world.event.id))
            // Each change is a new version (the last is the first's again: the same dashboard).
            #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 != $1 }, "\(versions)")
        }
    }

    @Test(
        "console-devices: the Devices page lists each device with who, when and what it still holds, names one, and the dashboard shows the name instead of the id; with none it says when they appear",
        arguments: StoreKind.allCases)
    func console(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.devices.path())
            #expect(page.text.contains("id=\"devices-empty\""))
            try await Self.report(api, world)
            page = try await browser.get(ConsolePages.devices.path())
            #expect(page.text.contains("id=\"devices-nav\" aria-current=\"page\""))
            #expect(page.text.contains("<code>door-a</code></td><td>Alex</td>"))
            #expect(page.text.contains("<td class=\"device-pending\">2</td>"))
            let answer = try await browser.post(ConsolePages.nameDevice.path("door-a"), [("name", "<i>Door 2</i>")])
            #expect(answer.headers[.location] == ConsolePages.devices.path(query: [("done", "device-named")]))
            page = try await browser.get(answer.headers[.location] ?? "")
            #expect(page.text.contains("value=\"&lt;i&gt;Door 2&lt;/i&gt;\""))
            #expect(page.text.contains("name was saved; the dashboards show it"))
            page = try await browser.get("/admin/events/\(world.event.id.wire)/dashboard")
            #expect(page.text.contains("<td>&lt;i&gt;Door 2&lt;/i&gt;</td><td>Alex</td>"))
            #expect(page.text.contains("<td>door-b</td><td>Bea</td>"))
        }
    }
}
