import Foundation
import OutpostCore
import OutpostLab
import Testing

/// `outpost device walkin` as real processes against a real server: a walk-in added with the
/// network off is queued and lands once; a refusal exits 3 with one sentence; the shift's CSV.
@Suite("outpost device walkin")
struct WalkInProcessTests {
    @Test(
        "walkin-cli: add offline (queued, exit 0), a nameless walk-in refused (exit 3, one sentence, nothing queued), the shift CSV, then synced once"
    )
    func walkInCLI() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        _ = try await server.json(
            "POST", "/v1/events/\(session.eventId)/access-types", token: session.token,
            body: #"{"name":"Door","walkInAllowed":true,"walkInCapacity":20}"#)
        let device = try await HeadlessDevice(on: server, event: session.eventId)
        try await device.run(["sync"])  // places of Door, leased while online
        try await device.run(["sim", "network", "off"])
        let added = try await CLI.tree(
            try device.run([
                "walkin", "add", "--name", "Noor Haddad", "--type", "door", "--paid", "12.50", "--method", "card",
            ])
        )
        #expect(added["pending"] as? Int == 1)
        let refused = try await device.run(["walkin", "add", "--name", " ", "--type", "Door"], status: 3)
        #expect(refused.stderr == "refused: Type the walk-in's name.\n")
        #expect(try CLI.tree(refused)["pending"] as? Int == 1, "nothing more queued")
        let csv = try await CLI.run(["device", "walkin", "summary", "--csv", "--home", device.home])
        #expect(csv.status == 0)
        #expect(csv.stdout.hasSuffix("card,EUR,1,12.50\r\n"), "\(csv.stdout)")
        try await device.run(["sim", "network", "on"])
        let synced = try await CLI.tree(try device.run(["sync"]))
        #expect(synced["pending"] as? Int == 0)
        let list = try await server.json("GET", "/v1/events/\(session.eventId)/walkins", token: session.token)
        let walkIns = try #require(list["walkIns"] as? [[String: Any]])
        #expect(walkIns.compactMap { $0["name"] as? String } == ["Noor Haddad"])
        #expect(walkIns.first?["overCapacity"] as? Bool == false, "it took a leased place")
    }
}
