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
        let (ticketData, _) = try await server.request(
            "GET", "/v1/events/\(event)/guests/\(guestId)/ticket", token: token)
        let ticket = String(decoding: ticketData, as: UTF8.self).trimmingCharacters(in: .newlines)

        var stations: [HeadlessDevice] = []
        for _ in 0..<2 { stations.append(try await HeadlessDevice(on: server, event: event)) }
        for station in stations {
            #expect(try await station.run(["open", event]).stdout.contains("native-shell-tab-efx"), "the EFx tab")
            let shown = try await station.run(["zone", "show"])
            #expect(shown.stdout.contains("Lounge (50 people)"))
            try await station.run(["zone", "set", "--zone", lounge, "--direction", "entry"])
            try await station.run(["sim", "network", "off"])
            let scanned = try await station.run(["zone", "scan", ticket])
            #expect(scanned.stdout.contains(#""result":"green""#), "\(scanned.stdout.suffix(400))")
            #expect(try CLI.tree(scanned)["pending"] as? Int == 1)
        }
        // Scanned again at the first station: it knows, and says why.
        let again = try await stations[0].run(["zone", "scan", ticket])
        #expect(again.stdout.contains("Already inside Lounge once: no re-entry."))
        for station in stations {
            try await station.run(["sim", "network", "on"])
            #expect(try await CLI.tree(try station.run(["sync"]))["pending"] as? Int == 0)
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

    @Test(
        "zone-occupancy-kills: 1,000 random entries and exits from three stations, the server SIGKILLed three times in between and answers lost (sent again): the counts are exactly the model's"
    )
    func occupancyWithKills() async throws {
        var server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let event = session.eventId
        let token = session.token
        let detail = try await server.json("GET", "/v1/events/\(event)", token: token)
        let general = try #require((detail["accessTypes"] as? [[String: Any]])?.first?["id"] as? String)
        let hall = ZoneID.random().wire
        let (_, status) = try await server.request(
            "PUT", "/v1/events/\(event)/zones", token: token,
            body: Data(
                #"{"zones":[{"id":"\#(hall)","name":"Hall","access":[{"accessTypeId":"\#(general)","windows":[],"reEntry":true}]}]}"#
                    .utf8))
        try #require(status == 200)
        var guests: [String] = []
        for index in 0..<20 {
            let guest = try await server.json(
                "POST", "/v1/events/\(event)/guests", token: token,
                body: #"{"name":"G\#(index)","email":"g\#(index)@example.org","accessTypeId":"\#(general)"}"#)
            guests.append(try #require(guest["id"] as? String))
        }
        var random = SeededRandom(seed: 35)
        var inside: Set<String> = []
        var (entries, exits) = (0, 0)
        let kills = Set((0..<3).map { _ in Int.random(in: 50..<950, using: &random) })
        var unsent: [Data] = []
        let start = Date(timeIntervalSince1970: 1_797_066_000)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        /// One passage `PUT`; false when the server did not answer (killed).
        func send(_ body: Data, id: String) async -> Bool {
            guard
                let (_, code) = try? await server.request(
                    "PUT", "/v1/events/\(event)/zone-passages/\(id)", token: token, body: body)
            else { return false }
            return code == 201
        }
        var down = 0
        var resent = 0
        for step in 0..<1_000 {
            if kills.contains(step) {
                // Killed: the stations keep scanning; what they send gets no answer.
                kill(server.process.processIdentifier, SIGKILL)
                server.process.waitUntilExit()
                down = Int.random(in: 1...5, using: &random)
            } else if down > 0 {
                down -= 1
                if down == 0 {
                    server = try await RunningServer.start(reusing: server)
                    // What was not answered is sent again, once the server is back.
                    for body in unsent {
                        let id = try #require(
                            (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? String)
                        #expect(await send(body, id: id))
                    }
                    resent += unsent.count
                    unsent = []
                }
            }
            let guest = guests[Int.random(in: 0..<guests.count, using: &random)]
            let movement = inside.contains(guest) ? "leave" : "enter"
            if movement == "enter" { inside.insert(guest); entries += 1 } else { inside.remove(guest); exits += 1 }
            let id = ZonePassageID.random().wire
            let scanned = start.addingTimeInterval(Double(step))
            let body = Data(
                #"{"id":"\#(id)","zoneId":"\#(hall)","guestId":"\#(guest)","movement":"\#(movement)","deviceId":"hall-\#(step % 3)","scannedAt":"\#(iso.string(from: scanned))"}"#
                    .utf8)
            if !(await send(body, id: id)) {
                unsent.append(body)
                continue
            }
            // Now and then the answer is "lost" and the station sends the passage again.
            if Int.random(in: 0..<20, using: &random) == 0 { #expect(await send(body, id: id)) }
        }
        if !server.process.isRunning { server = try await RunningServer.start(reusing: server) }
        for body in unsent {
            let id = try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? String)
            #expect(await send(body, id: id))
        }
        resent += unsent.count
        #expect(resent >= 3, "passages were sent while the server was down: \(resent)")
        let report = try await server.json("GET", "/v1/events/\(event)/zone-occupancy", token: token)
        let counts = try #require((report["zones"] as? [[String: Any]])?.first)
        #expect(counts["entries"] as? Int == entries)
        #expect(counts["exits"] as? Int == exits)
        #expect(counts["inside"] as? Int == inside.count)
        #expect(counts["violations"] as? Int == 0)
    }
}
