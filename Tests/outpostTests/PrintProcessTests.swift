import Foundation
import OutpostCore
import Testing

/// `outpost device printer` and `outpost device badge` as real processes against a real server,
/// with the simulated Bluetooth label printer (every command is a new launch: the pairing
/// survives each one).
@Suite("outpost device printer")
struct PrintProcessTests {
    @Test(
        "print-cli: the Bluetooth printer is found and paired (the Print tab in every later launch); out of labels a badge waits and the station state says so; refilled it prints once; printing it again needs --reprint REASON (exit 3 without); a bad queue address is a usage error"
    )
    func printCLI() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let guest = try await server.json(
            "POST", "/v1/events/\(session.eventId)/guests", token: session.token,
            body:
                #"{"name":"Dana Press","email":"dana@press.example","accessTypeId":"\#(try await accessType(server, session))"}"#
        )
        let guestId = try #require(guest["id"] as? String)
        let device = try await HeadlessDevice(on: server, event: session.eventId)
        let listed = try await device.run(["printer", "list"])
        #expect(listed.stdout.contains("bt:00:1B:44:11:3A:B7\tLabel printer (Bluetooth)"), "\(listed.stdout)")
        try await device.run(["printer", "pair", "nope"], status: 3)
        try await device.run(["printer", "pair", "bt:00:1B:44:11:3A:B7"])
        let status = try await CLI.tree(try device.run(["status"]))
        let elements = status["elements"] as? [[String: Any]] ?? []
        #expect(elements.contains { $0["id"] as? String == "native-shell-tab-print" }, "paired across launches")
        try await device.run(["sim", "printer", "paper-out"])
        let waiting = try await CLI.tree(try device.run(["badge", "print", "--guest", guestId]))
        let state = (waiting["elements"] as? [[String: Any]] ?? []).first {
            $0["id"] as? String == "print-printer-state"
        }
        #expect((state?["attributes"] as? [String: String])?["state"] == "out-of-paper")
        let job = (waiting["elements"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "print-job" }
        #expect((job?["attributes"] as? [String: String])?["state"] == "queued")
        try await device.run(["sim", "printer", "paper-in"])
        try await device.run(["printer", "status"])
        let sim =
            try JSONSerialization.jsonObject(
                with: try Data(contentsOf: URL(fileURLWithPath: device.home + "/sim.json"))) as? [String: Any]
        let printed = ((sim?["printer"] as? [String: Any])?["printed"] as? [[String: Any]]) ?? []
        #expect(printed.map { $0["name"] as? String } == ["Dana Press"], "printed once")
        let again = try await device.run(["badge", "print", "--guest", guestId], status: 3)
        #expect(again.stderr == "refused: This guest's badge was printed here already: a reprint needs a reason.\n")
        try await device.run(["badge", "print", "--guest", guestId, "--reprint", "lost it"])
        try await device.run(["sync"])
        let prints = try await server.json("GET", "/v1/events/\(session.eventId)/badge-prints", token: session.token)
        #expect(prints["printed"] as? Int == 1 && prints["reprinted"] as? Int == 1)
        try await device.run(["printer", "add-queue", "lp://nowhere"], status: 2)
    }

    func accessType(_ server: RunningServer, _ session: RunningServer.OrganizerSession) async throws -> String {
        let roster = try await server.json("GET", "/v1/events/\(session.eventId)/roster", token: session.token)
        let types = roster["accessTypes"] as? [[String: Any]] ?? []
        return try #require(types.first?["id"] as? String)
    }
}
