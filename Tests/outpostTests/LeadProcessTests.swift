import Foundation
import OutpostCore
import Testing

/// `outpost device lead` as real processes against `outpost serve`: an exhibitor's device
/// captures a lead offline with a rating, notes and an answer, refuses a forged badge with exit
/// 3, exports formula-safe CSV, and syncs the lead once.
@Suite("outpost device lead")
struct LeadProcessTests {
    @Test(
        "lead-station-processes: an exhibitor's device (real processes) captures a lead offline in one step, refuses a forged badge (exit 3), exports formula-safe CSV and syncs it once"
    )
    func offlineCapture() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let event = session.eventId
        let token = session.token
        let ella = try await server.json(
            "POST", "/v1/users", token: token,
            body: #"{"email":"ella@acme.test","name":"Ella","role":"exhibitor","password":"ella-password-1"}"#)
        let ellaId = try #require(ella["id"] as? String)
        let booth = BoothID.random().wire
        let (saved, status) = try await server.request(
            "PUT", "/v1/events/\(event)/booths", token: token,
            body: Data(
                #"{"booths":[{"id":"\#(booth)","name":"Acme Robotics","questions":[{"key":"budget","text":"Budget?"}],"exhibitors":["\#(ellaId)"]}]}"#
                    .utf8))
        try #require(status == 200, "\(String(decoding: saved, as: UTF8.self))")
        let detail = try await server.json("GET", "/v1/events/\(event)", token: token)
        let general = try #require((detail["accessTypes"] as? [[String: Any]])?.first?["id"] as? String)
        let guest = try await server.json(
            "POST", "/v1/events/\(event)/guests", token: token,
            body: #"{"name":"Vera","email":"vera@example.org","accessTypeId":"\#(general)"}"#)
        let guestId = try #require(guest["id"] as? String)
        let (ticketData, _) = try await server.request(
            "GET", "/v1/events/\(event)/guests/\(guestId)/ticket", token: token)
        let ticket = String(decoding: ticketData, as: UTF8.self).trimmingCharacters(in: .newlines)

        let home = try CLI.temporaryDirectory() + "/device"
        func device(_ arguments: [String], status expected: Int32 = 0) async throws -> CLI.Result {
            let result = try await CLI.run(["device"] + arguments + ["--home", home, "--json"])
            #expect(result.status == expected, "\(arguments): \(result.stderr)")
            return result
        }
        let signedIn = try await device([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", "ella@acme.test", "--password",
            "ella-password-1",
        ])
        #expect(signedIn.stdout.contains("▶ Acme Robotics"), "\(signedIn.stdout.suffix(500))")
        try await device(["sim", "network", "off"])
        let captured = try await device([
            "lead", "scan", ticket, "--rating", "4", "--notes", "=cmd|calc", "--answer", "budget=50k",
        ])
        #expect(captured.stdout.contains("Saved: Attendee "), "\(captured.stdout.suffix(500))")
        let again = try await device(["lead", "scan", ticket])
        #expect(again.stdout.contains("Already a lead"))
        let forged = try await device(["lead", "scan", String(ticket.dropLast(4)) + "AAAA"], status: 3)
        #expect(forged.stderr.contains("refused: Not a valid ticket"))
        let csv = try await CLI.run(["device", "lead", "export", "--home", home])
        #expect(csv.status == 0)
        #expect(csv.stdout.hasPrefix("captured_at,name,email,attendee_id,rating,notes,Budget?,captured_by,version"))
        #expect(csv.stdout.contains(",\(guestId),4,'=cmd|calc,50k,"), "\(csv.stdout)")
        try await device(["sim", "network", "on"])
        #expect(try await CLI.tree(try device(["sync"]))["pending"] as? Int == 0)
        let (leads, _) = try await server.request("GET", "/v1/booths/\(booth)/leads", token: token)
        let list = try #require(try JSONSerialization.jsonObject(with: leads) as? [String: Any])
        let stored = try #require(list["leads"] as? [[String: Any]])
        #expect(stored.count == 1)
        #expect((stored.first?["content"] as? [String: Any])?["rating"] as? Int == 4)
    }
}
