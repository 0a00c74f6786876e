import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The live door dashboard: the API's dashboard and device reports, the console's
/// page, and its stream of server-sent events, on both stores. The browser run
/// (`scripts/console-e2e`) watches the page change without a reload when a device checks in.
@Suite("Door dashboard")
struct ConsoleDashboardTests {
    /// One server-sent event of a stream's body: its id and its data.
    struct Sent {
        var id: String
        var data: String
    }

    static func events(_ body: String) -> [Sent] {
        body.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n").map(String.init)
            guard lines.contains("event: dashboard"),
                let id = lines.first(where: { $0.hasPrefix("id: ") }),
                let data = lines.first(where: { $0.hasPrefix("data: ") })
            else { return nil }
            return Sent(id: String(id.dropFirst(4)), data: String(data.dropFirst(6)))
        }
    }

    struct View: Decodable {
        struct Bar: Decodable {
            var name: String
            var label: String
            var width: Int
        }
        struct Recent: Decodable { var guest: String }
        struct Column: Decodable { var height: Int }
        struct Device: Decodable {
            var device: String
            var pending: Int
        }
        var total: String
        var bars: [Bar]
        var recent: [Recent]
        var devices: [Device]
        var columns: [Column]
    }

    @Test(
        "console-dashboard-live: checked in vs total per access type as bars, check-ins per minute, the last 20 newest first, each device's last report; the stream sends the view when a check-in or a device report moves it and nothing when the browser has it",
        arguments: StoreKind.allCases)
    func live(kind: StoreKind) async throws {
        // Each stream answers once and ends (the browser reconnects with Last-Event-ID).
        try await withTestServer(kind, configure: { $0.consoleStreamLifetime = 0 }) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let hostile = try await api.createGuest(
                world.organizer, event: world.event, accessType: world.accessType, name: "<img src=x onerror=alert(1)>")
            #expect(
                try await api.checkIn(
                    world.staff1, event: world.event.id, guest: world.guests[0].id, deviceId: "door-a"
                ).status == 201)
            api.clock.advance(by: 61)
            #expect(
                try await api.checkIn(world.staff1, event: world.event.id, guest: hostile.id, deviceId: "door-a").status
                    == 201)
            let report = try await api.request(
                .put, "/v1/events/\(id)/devices/door-a", token: world.staff1.accessToken, json: DeviceReport(pending: 3)
            )
            #expect(report.status == 204, "\(report.text)")

            // The API's figures.
            let board: DoorDashboard = try await api.request(
                .get, "/v1/events/\(id)/dashboard", token: world.support.accessToken
            ).decode()
            #expect(board.stats.checkedIn == 2 && board.stats.guests == 4)
            #expect(board.perMinute.count == 60 && board.perMinute.suffix(2).map(\.count) == [1, 1])
            #expect(board.recent.map(\.guestName) == [hostile.name, world.guests[0].name], "newest first")
            #expect(board.devices.map(\.deviceId) == ["door-a"] && board.devices[0].pending == 3)
            #expect(board.devices[0].userName == "Alex")

            // The page: text, never markup.
            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get("/admin/events/\(id)/dashboard")
            #expect(page.status == 200)
            #expect(page.text.contains("2 of 4 checked in") && page.text.contains("2 / 4"))
            #expect(page.text.contains("width=\"150\""), "half the bar")
            #expect(page.text.contains("&lt;img src=x onerror=alert(1)&gt;") && !page.text.contains("<img src=x"))
            #expect(page.text.contains("<td>door-a</td><td>Alex</td>") && page.text.contains("<td>3</td>"))
            #expect(page.text.contains("<script src=\"/admin/static/dashboard.js\"></script>"))

            // The stream: the whole view, then nothing while nothing changes.
            let stream = try await browser.get("/admin/events/\(id)/dashboard/stream")
            #expect(stream.status == 200 && stream.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            #expect(stream.text.hasPrefix("retry: 2000\n\n"))
            let first = try #require(Self.events(stream.text).first)
            let view = try JSONDecoder().decode(View.self, from: Data(first.data.utf8))
            #expect(view.total == "2 of 4 checked in" && view.bars.map(\.width) == [150])
            #expect(view.recent.first?.guest == hostile.name && view.devices.first?.pending == 3)
            #expect(view.columns.count == 60)
            let again = try await browser.request(
                "/admin/events/\(id)/dashboard/stream", headers: [.lastEventID: first.id])
            #expect(Self.events(again.text).isEmpty, "the browser has this version")

            // A check-in at another door moves it.
            #expect(
                try await api.checkIn(
                    world.staff2, event: world.event.id, guest: world.guests[1].id, deviceId: "door-b"
                ).status == 201)
            let moved = try #require(
                Self.events(
                    try await browser.request("/admin/events/\(id)/dashboard/stream", headers: [.lastEventID: first.id])
                        .text
                ).first)
            #expect(moved.id != first.id)
            #expect(try JSONDecoder().decode(View.self, from: Data(moved.data.utf8)).total == "3 of 4 checked in")
            // So does a device's report (no check-in: the queue drained).
            _ = try await api.request(
                .put, "/v1/events/\(id)/devices/door-a", token: world.staff1.accessToken, json: DeviceReport(pending: 0)
            )
            let drained = try #require(
                Self.events(
                    try await browser.request("/admin/events/\(id)/dashboard/stream", headers: [.lastEventID: moved.id])
                        .text
                ).first)
            #expect(try JSONDecoder().decode(View.self, from: Data(drained.data.utf8)).devices.first?.pending == 0)
        }
    }

    @Test(
        "console-dashboard-roles: organizers and support watch the doors; door staff may report their device but not read the dashboard (the page leaves the link out); bad reports are refused",
        arguments: StoreKind.allCases)
    func roles(kind: StoreKind) async throws {
        try await withTestServer(kind, configure: { $0.consoleStreamLifetime = 0 }) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            #expect(
                try await api.request(.get, "/v1/events/\(id)/dashboard", token: world.staff1.accessToken).status == 403
            )
            #expect(
                try await api.request(.get, "/v1/events/\(id)/dashboard", token: world.organizer.accessToken).status
                    == 200)
            for (path, body, status) in [
                ("/v1/events/\(id)/devices/door-a", DeviceReport(pending: -1), 422),
                ("/v1/events/\(id)/devices/" + String(repeating: "d", count: 101), DeviceReport(pending: 1), 400),
                ("/v1/events/\(world.otherEvent.id.wire)/devices/door-a", DeviceReport(pending: 1), 404),
            ] {
                let answer = try await api.request(.put, path, token: world.staff1.accessToken, json: body)
                #expect(answer.status == status, "\(path): \(answer.text)")
            }
            let staff = try await ConsoleTests.signedIn(api, "alex@acme.test", password: "staff-password")
            let event = try await staff.get("/admin/events/\(id)")
            #expect(event.status == 200 && !event.text.contains("dashboard-link"))
            #expect(try await staff.get("/admin/events/\(id)/dashboard").status == 403)
            #expect(try await staff.get("/admin/events/\(id)/dashboard/stream").status == 403)
            let support = try await ConsoleTests.signedIn(api, "support@acme.test", password: "staff-password")
            #expect(try await support.get("/admin/events/\(id)").text.contains("dashboard-link"))
            #expect(try await support.get("/admin/events/\(id)/dashboard").status == 200)
            #expect(try await support.get("/admin/events/\(id)/dashboard/stream").status == 200)
        }
    }

    @Test(
        "zone-occupancy-dashboard: the doors page counts each zone (inside of capacity, entries, exits, marked), its names as text, and the stream moves when a zone station's passage arrives",
        arguments: StoreKind.allCases)
    func zones(kind: StoreKind) async throws {
        struct ZonesView: Decodable {
            struct Row: Decodable, Equatable {
                var name: String
                var inside: String
                var violations: Int
                var attention: Bool
            }
            var zones: [Row]
        }
        try await withTestServer(kind, configure: { $0.consoleStreamLifetime = 0 }) { api in
            let world = try await World.make(api)
            let id = world.event.id
            let lounge = ZoneID.random()
            _ = try await api.lab(world.organizer).call(
                API.setZones, id,
                json: ZoneList(zones: [
                    Zone(
                        id: lounge, name: "<b>VIP</b> lounge", capacity: 2,
                        access: [ZoneAccessRule(accessTypeId: world.accessType.id, reEntry: false)])
                ]), what: "zones")
            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get("/admin/events/\(id.wire)/dashboard")
            #expect(page.text.contains("<td>&lt;b&gt;VIP&lt;/b&gt; lounge</td><td>0 of 2</td>"))
            #expect(!page.text.contains("<b>VIP</b>"))
            let first = try #require(
                Self.events(try await browser.get("/admin/events/\(id.wire)/dashboard/stream").text).first)
            // Two stations admitted one no-re-entry ticket.
            for device in ["lounge-1", "lounge-2"] {
                let passage = ZonePassage(
                    id: .random(), zoneId: lounge, guestId: world.guests[0].id, movement: .enter, deviceId: device,
                    scannedAt: api.clock.now)
                _ = try await api.lab(world.staff1).call(
                    API.recordZonePassage, id, passage.id, json: passage, what: "passage")
                api.clock.advance(by: 1)
            }
            let moved = try #require(
                Self.events(
                    try await browser.request(
                        "/admin/events/\(id.wire)/dashboard/stream", headers: [.lastEventID: first.id]
                    ).text
                ).first, "a passage moves the stream")
            let view = try JSONDecoder().decode(ZonesView.self, from: Data(moved.data.utf8))
            #expect(
                view.zones == [.init(name: "<b>VIP</b> lounge", inside: "2 of 2", violations: 1, attention: true)])
        }
    }

    @Test(
        "console-dashboard-axes: the chart has the hour's times every quarter and at the current minute (on the event's clock), and a scale at 0, halfway and its top, which the columns reach"
    )
    func axes() {
        let start = Date(millisecondsSince1970: 1_795_000_000_000 / 60_000 * 60_000)
        let minutes = (0..<60).map {
            DoorDashboard.Minute(at: start.addingTimeInterval(Double($0) * 60), count: $0 == 40 ? 7 : $0 % 3)
        }
        let dashboard = DoorDashboard(
            seq: 1, stats: EventStats(guests: 10, checkedIn: 3, byAccessType: [], lastCheckInAt: nil),
            perMinute: minutes, recent: [], devices: [], serverTime: start.addingTimeInterval(3_599))
        let view = DashboardView(dashboard, timeZone: "Asia/Kathmandu")
        let clock = WallClockFormat("HH:mm", zone: "Asia/Kathmandu")
        #expect(view.ticks.map(\.label) == [0, 15, 30, 45, 59].map { clock.string(minutes[$0].at) })
        #expect(view.ticks.map(\.x) == [0, 15, 30, 45, 59].map { DashboardView.plotLeft + $0 * 10 + 4 })
        #expect(view.scale.map(\.label) == ["0", "3", "7"])
        #expect(view.scale.map(\.y) == [DashboardView.chartHeight, 120 - 3 * 110 / 7, 10])
        // The tallest column reaches the top mark exactly; a column of 3 its middle one (rounded down alike).
        #expect(view.columns[40].y == view.scale[2].y && view.columns[40].height == 110)
        // An empty hour: 0 and 1 on the scale, no column drawn.
        let quiet = DashboardView(
            DoorDashboard(
                seq: 1, stats: EventStats(guests: 0, checkedIn: 0, byAccessType: [], lastCheckInAt: nil),
                perMinute: minutes.map { DoorDashboard.Minute(at: $0.at, count: 0) }, recent: [], devices: [],
                serverTime: start),
            timeZone: "UTC")
        #expect(quiet.scale.map(\.label) == ["0", "1"] && quiet.columns.allSatisfy { $0.height == 0 })
    }

    @Test(
        "console-dashboard-tv: the dashboard links to its TV mode (the page alone in large type, still live, a full-screen button); with nothing yet its empty tables say what will appear and why",
        arguments: StoreKind.allCases)
    func tvMode(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.dashboard.path(world.event.id))
            #expect(page.text.contains("id=\"tv-link\"") && page.text.contains("<body>"))
            #expect(page.text.contains("id=\"recent-empty\">No check-ins yet"))
            #expect(page.text.contains("id=\"devices-empty\">No device has reported yet"))
            #expect(page.text.contains("<h2 id=\"total\" aria-live=\"polite\">"))
            page = try await browser.get(ConsolePages.dashboard.path(world.event.id, query: [("tv", "1")]))
            #expect(page.text.contains("<body class=\"tv\">") && page.text.contains("id=\"tv-fullscreen\""))
            #expect(page.text.contains("data-stream=") && !page.text.contains("id=\"tv-link\""))
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: world.guests[0].id)
            page = try await browser.get(ConsolePages.dashboard.path(world.event.id))
            #expect(page.text.contains("id=\"recent-empty\" hidden"))
        }
    }

    @Test("console-dashboard-minutes: the chart's hour is the 60 minutes up to the current one, empty ones as 0")
    func minutes() {
        let now = Date(millisecondsSince1970: 1_795_000_000_000 + 30_000)
        let hour = DashboardMinutes(now: now)
        let current = (1_795_000_000_000 + 30_000) / 60_000
        let filled = hour.fill([(Int64(current), 4), (Int64(current - 59), 2), (Int64(current - 60), 9)])
        #expect(filled.count == 60)
        #expect(filled.first?.count == 2 && filled.last?.count == 4, "the minute before the hour is left out")
        #expect(filled.reduce(0) { $0 + $1.count } == 6)
        #expect(filled.last?.at == Date(millisecondsSince1970: Int64(current) * 60_000))
    }
}
