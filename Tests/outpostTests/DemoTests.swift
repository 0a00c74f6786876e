import Foundation
import OutpostLab
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("outpost demo")
struct DemoTests {
    @Test(
        "demo --no-station seeds 500 guests, serves, signs a device in, prints the organizer console (demo-console), and stops cleanly on SIGTERM"
    )
    func demoServesAndStops() async throws {
        let directory = try CLI.temporaryDirectory() + "/demo"
        let port = try CLI.freePort()
        let demo = Process()
        demo.executableURL = CLI.binary
        demo.arguments = ["demo", "--no-station", "--dir", directory, "--port", String(port)]
        let output = Pipe()
        demo.standardOutput = output
        demo.standardError = FileHandle.nullDevice
        try demo.run()
        defer { if demo.isRunning { demo.terminate() } }
        // "Serving on …" comes once the device is signed in and synced and the sample tickets are
        // written: read the demo's output up to it (no time bound: a demo that dies ends it).
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("Serving on ") {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the demo ended before serving: \(String(decoding: printed, as: UTF8.self))")
            printed += chunk
        }
        // demo-console: the output names the organizer console and its sign-in, and it answers.
        let shown = String(decoding: printed, as: UTF8.self)
        #expect(
            shown.contains(
                "Organizer console: http://127.0.0.1:\(port)/admin (sign in as organizer@demo.outpost / outpost-demo)"))
        let signInPage = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(port)/admin/signin")!)
        #expect((signInPage.1 as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: signInPage.0, as: UTF8.self).contains("<h1>Sign in</h1>"))
        let tickets = directory + "/sample-tickets.txt"
        let lines = try String(contentsOfFile: tickets, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("OP1") && $0.count == 197 })
        let home = ["--home", directory + "/device", "--json"]
        let status = try CLI.tree(try await CLI.run(["device", "status"] + home))
        #expect(status["screen"] as? String == "native-shell-event-shell")
        let roster = (status["elements"] as? [[String: Any]] ?? []).first {
            $0["id"] as? String == "native-shell-roster-list"
        }
        // The 500 imported guests and the sponsor Northwind's 5 block tickets.
        #expect((roster?["attributes"] as? [String: String])?["count"] == "505")
        let scanned = try CLI.tree(try await CLI.run(["device", "scan", lines[0]] + home))
        #expect(scanned["screen"] as? String == "checkin-confirmation-screen")
        let confirmed = try CLI.tree(try await CLI.run(["device", "confirm"] + home))
        #expect(confirmed["pending"] as? Int == 0)
        // The camera stand-in: a photo of a ticket takes the same path as scanned text.
        let signIn = try await Self.post(
            port, "/v1/auth/signin", #"{"email":"organizer@demo.outpost","password":"outpost-demo","deviceId":"t"}"#)
        let token = try #require(signIn["accessToken"] as? String)
        let eventId = try #require(status["event"] as? String)
        let guestId = try #require(
            ((scanned["elements"] as? [[String: Any]])?.first { $0["id"] as? String == "checkin-confirmation-screen" }?[
                "attributes"]
                as? [String: String])?["guestId"])
        var request = URLRequest(
            url: URL(string: "http://127.0.0.1:\(port)/v1/events/\(eventId)/guests/\(guestId)/ticket?format=png")!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let png = try await URLSession.shared.data(for: request).0
        let photo = directory + "/ticket.png"
        try png.write(to: URL(fileURLWithPath: photo))
        let fromImage = try CLI.tree(try await CLI.run(["device", "scan", "--image", photo] + home))
        #expect((fromImage["visible"] as? [String])?.contains("checkin-already-checked-in") == true)
        let notAnImage = directory + "/note.txt"
        try Data("no code here".utf8).write(to: URL(fileURLWithPath: notAnImage))
        let refused = try await CLI.run(["device", "scan", "--image", notAnImage] + home)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not a PNG or JPEG"))
        // demo-mail: with Debian's python3-aiosmtpd (scripts/test installs it) a real SMTP server
        // is the relay; a registration code lands in DIR/mail/new, its first line the code.
        let mail = directory + "/mail/new"
        let hasMail = SMTPSink.systemPython != nil
        if hasMail {
            let asked = try await CLI.run(
                [
                    "device", "signin", "--home", directory + "/worker", "--server", "http://127.0.0.1:\(port)",
                    "--email", "nora@care.test", "--request-code", "--register",
                ])
            #expect(asked.status == 0, "\(asked.stderr)")
            // The server queues the mail and answers; its sender delivers right after.
            var files: [String] = []
            for _ in 0..<600 where files.isEmpty {
                files = (try? FileManager.default.contentsOfDirectory(atPath: mail)) ?? []
                if files.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
            }
            #expect(files.count == 1, "the mail in \(mail)")
            let message = files.first.flatMap { FileManager.default.contents(atPath: mail + "/" + $0) } ?? Data()
            let body = String(decoding: message, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            let code = body.components(separatedBy: "\n\n").dropFirst().first?.split(separator: "\n").first ?? ""
            #expect(code.count == 6 && code.allSatisfy(\.isNumber), "\(body)")
        }
        kill(demo.processIdentifier, SIGTERM)
        demo.waitUntilExit()
        #expect(demo.terminationReason == .exit && demo.terminationStatus == 0)
        printed += output.fileHandleForReading.readDataToEndOfFile()
        let text = String(decoding: printed, as: UTF8.self)
        #expect(text.contains(hasMail ? "E-mail sign-in codes go through a real SMTP server" : "No SMTP server"))
        #expect(text.contains("with 500 guests"))
        #expect(text.contains("▀") || text.contains("▄"), "tickets are drawn as terminal QR codes")
    }

    static func post(_ port: Int, _ path: String, _ body: String) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let data = try await URLSession.shared.data(for: request).0
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
