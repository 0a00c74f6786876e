import Foundation
import OutpostCore
import Testing

/// `outpost device zone` as real processes against `outpost serve`: two zone stations with the
/// network off both admit one no-re-entry ticket; after they reconnect the server keeps both
/// entries, marks the later, and the doors dashboard counts it.
@Suite("outpost device zone")
struct ZoneProcessTests {
    @Test(
        "zone-stations-processes: two offline zone stations (real processes) admit one no-re-entry ticket; after reconnecting the violation is on the server and on the dashboard"
    )
    func twoOfflineStations() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let event = session.eventId
        let token = session.token
        // The organizer turns the EFx stations on and sets up the lounge.
        _ = try await server.json("PATCH", "/v1/events/\(event)", token: token, body: #"{"modules":["checkin","efx"]}"#)
        let detail = try await server.json("GET", "/v1/events/\(event)", token: token)
        let types = try #require(detail["accessTypes"] as? [[String: Any]])
        let general = try #require(types.first?["id"] as? String)
        let lounge = ZoneID.random().wire
        let (saved, status) = try await server.request(
            "PUT", "/v1/events/\(event)/zones", token: token,
            body: Data(
                #"{"zones":[{"id":"\#(lounge)","name":"Lounge","capacity":50,"access":[{"accessTypeId":"\#(general)","windows":[],"reEntry":false}]}]}"#
                    .utf8))
        try #require(status == 200, "\(String(decoding: saved, as: UTF8.self))")
        let guest = try await server.json(
            "POST", "/v1/events/\(event)/guests", token: token,
            body: #"{"name":"Vera","email":"vera@example.org","accessTypeId":"\#(general)"}"#)
        let guestId = try #require(guest["id"] as? String)
        let (ticketData, _) = try await server.request("GET", "/v1/events/\(event)/guests/\(guestId)/ticket", token: token)
        let ticket = String(decoding: ticketData, as: UTF8.self).trimmingCharacters(in: .newlines)

        let stations = try (0..<2).map { _ in try HeadlessDevice(on: server, event: event) }
        for station in stations {
            #expect(try station.run(["open", event]).stdout.contains("native-shell-tab-efx"), "the EFx tab")
            let shown = try station.run(["zone", "show"])
            #expect(shown.stdout.contains("Lounge (50 people)"))
            try station.run(["zone", "set", "--zone", lounge, "--direction", "entry"])
            try station.run(["sim", "network", "off"])
            let scanned = try station.run(["zone", "scan", ticket])
            #expect(scanned.stdout.contains(#""result":"green""#), "\(scanned.stdout.suffix(400))")
            #expect(try CLI.tree(scanned)["pending"] as? Int == 1)
        }
        // Scanned again at the first station: it knows, and says why.
        let again = try stations[0].run(["zone", "scan", ticket])
        #expect(again.stdout.contains("Already inside Lounge once: no re-entry."))
        for station in stations {
            try station.run(["sim", "network", "on"])
            #expect(try CLI.tree(try station.run(["sync"]))["pending"] as? Int == 0)
        }
        let report = try await server.json("GET", "/v1/events/\(event)/zone-occupancy", token: token)
        let zones = try #require(report["zones"] as? [[String: Any]])
        #expect(zones.first?["entries"] as? Int == 2 && zones.first?["violations"] as? Int == 1)
        let marked = try #require(report["violations"] as? [[String: Any]])
        #expect(marked.count == 1 && marked.first?["violation"] as? String == "no_re_entry")
        let dashboard = try await server.json("GET", "/v1/events/\(event)/dashboard", token: token)
        let counted = try #require(dashboard["zones"] as? [[String: Any]])
        #expect(counted.first?["inside"] as? Int == 2 && counted.first?["violations"] as? Int == 1)
    }
}
