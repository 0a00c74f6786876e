import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("outpost demo")
struct DemoTests {
    @Test("demo --no-station seeds 500 guests, serves, signs a device in, and stops cleanly on SIGTERM")
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
        // The sample tickets file is written last, once the device is signed in and synced.
        let tickets = directory + "/sample-tickets.txt"
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: tickets) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let lines = try String(contentsOfFile: tickets, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("OP1") && $0.count == 197 })
        let home = ["--home", directory + "/device", "--json"]
        let status = try CLI.tree(try CLI.run(["device", "status"] + home))
        #expect(status["screen"] as? String == "native-shell-event-shell")
        let roster = (status["elements"] as? [[String: Any]] ?? []).first {
            $0["id"] as? String == "native-shell-roster-list"
        }
        #expect((roster?["attributes"] as? [String: String])?["count"] == "500")
        let scanned = try CLI.tree(try CLI.run(["device", "scan", lines[0]] + home))
        #expect(scanned["screen"] as? String == "checkin-confirmation-screen")
        let confirmed = try CLI.tree(try CLI.run(["device", "confirm"] + home))
        #expect(confirmed["pending"] as? Int == 0)
        kill(demo.processIdentifier, SIGTERM)
        demo.waitUntilExit()
        #expect(demo.terminationReason == .exit && demo.terminationStatus == 0)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.contains("with 500 guests"))
        #expect(printed.contains("▀") || printed.contains("▄"), "tickets are drawn as terminal QR codes")
    }
}
