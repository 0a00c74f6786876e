import Foundation
import OutpostCore
import Testing

/// `outpost device pickup` as real processes against `outpost serve`: two pickup stations with
/// the network off both hand Vera her one shirt; a refusal exits 3 and says why; after they
/// reconnect the server keeps both, flags the later, and the stock counts both.
@Suite("outpost device pickup")
struct PickupProcessTests {
    @Test(
        "pickup-stations-processes: two offline pickup stations (real processes) hand out one shirt; a refused handing-out exits 3 with the reason; after reconnecting the over-redemption and the stock are right"
    )
    func twoOfflineStations() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let event = session.eventId
        let token = session.token
        _ = try await server.json("PATCH", "/v1/events/\(event)", token: token, body: #"{"modules":["checkin","efx"]}"#)
        let detail = try await server.json("GET", "/v1/events/\(event)", token: token)
        let general = try #require((detail["accessTypes"] as? [[String: Any]])?.first?["id"] as? String)
        let shirt = PickupItemID.random().wire
        let lunch = PickupItemID.random().wire
        let (saved, status) = try await server.request(
            "PUT", "/v1/events/\(event)/pickup-items", token: token,
            body: Data(
                #"{"items":[{"id":"\#(shirt)","name":"T-shirt M","stock":10},{"id":"\#(lunch)","name":"Lunch day 1"}],"allowances":[{"accessTypeId":"\#(general)","itemId":"\#(shirt)","quantity":1},{"accessTypeId":"\#(general)","itemId":"\#(lunch)","quantity":2}]}"#
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
            try await station.run(["sync"])
            #expect(try await station.run(["pickup", "show"]).stdout.contains("T-shirt M: 10 left"))
            try await station.run(["sim", "network", "off"])
            let shown = try await station.run(["pickup", "scan", ticket])
            #expect(shown.stdout.contains("1. T-shirt M × 1"), "\(shown.stdout.suffix(600))")
            let handed = try await station.run(["pickup", "scan", ticket, "--item", "t-shirt m"])
            #expect(handed.stdout.contains("Hand Vera: T-shirt M."), "\(handed.stdout.suffix(400))")
            #expect(try CLI.tree(handed)["pending"] as? Int == 1)
        }
        // At the first station again: it knows, refuses with exit 3 and says why.
        let again = try await stations[0].run(["pickup", "scan", ticket, "--item", "T-shirt M"], status: 3)
        #expect(again.stderr.contains("refused: T-shirt M was already collected."))
        let unknown = try await stations[0].run(["pickup", "scan", ticket, "--item", "Golden ticket"], status: 3)
        #expect(unknown.stderr.contains("There is no item named Golden ticket"))
        try await stations[0].run(["pickup", "scan", ticket, "--item", "Lunch day 1=0"], status: 2)
        let lunches = try await stations[0].run(["pickup", "scan", ticket, "--item", "Lunch day 1=2"])
        #expect(lunches.stdout.contains("Hand Vera: 2 × Lunch day 1."))
        for station in stations {
            try await station.run(["sim", "network", "on"])
            #expect(try await CLI.tree(try station.run(["sync"]))["pending"] as? Int == 0)
        }
        let report = try await server.json("GET", "/v1/events/\(event)/pickup-report", token: token)
        let stock = try #require(report["stock"] as? [[String: Any]])
        let shirts = try #require(stock.first { $0["itemId"] as? String == shirt })
        #expect(shirts["redeemed"] as? Int == 2 && shirts["over"] as? Int == 1)
        #expect((report["overRedemptions"] as? [[String: Any]])?.count == 1)
        // Both stations count 8 shirts left once they have the server's count (the first synced
        // before the second sent its shirt).
        for station in stations {
            try await station.run(["sync"])
            #expect(try await station.run(["pickup", "show"]).stdout.contains("T-shirt M: 8 left"))
        }
    }
}
