import Foundation
import Testing

/// The lock screen through `outpost device` processes: every command is one launch, the time
/// between commands is time in the background, `sim kill` ends the app process.
@Suite("outpost device lock and unlock as processes")
struct LockProcessTests {
    /// The screen and the lock message of a tree printed with `--json`.
    static func screen(_ result: CLI.Result) throws -> (screen: String, message: String?) {
        let tree = try CLI.tree(result)
        let elements = tree["elements"] as? [[String: Any]] ?? []
        let message = elements.first { $0["id"] as? String == "native-shell-lock-message" }?["text"] as? String
        return (tree["screen"] as? String ?? "", message)
    }

    @Test(
        "lock-cli: biometric unlock on, a killed app relaunches locked; a failed match, a changed enrolment and the device passcode behave as on a phone"
    )
    func lockThroughProcesses() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        _ = try await server.organizerSetUp()
        let home = try CLI.temporaryDirectory() + "/device"
        let device = ["--home", home, "--json"]
        /// A failed unlock is a refusal: exit 3, the lock screen's message as the tree's refusal.
        func run(_ arguments: [String], refused: Bool = false) async throws -> (screen: String, message: String?) {
            let result = try await CLI.run(["device"] + arguments + device)
            #expect(result.status == (refused ? 3 : 0), "\(arguments): \(result.stderr)")
            let shown = try Self.screen(result)
            if refused { #expect(result.stderr == "refused: \(shown.message ?? "?")\n") }
            return shown
        }
        _ = try await run([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", RunningServer.email, "--password",
            RunningServer.password,
        ])
        #expect(try await run(["settings", "biometric", "on"]).screen == "native-shell-settings")
        #expect(try await run(["settings", "close"]).screen == "native-shell-event-picker")
        #expect(try await run(["status"]).screen == "native-shell-event-picker", "the next command of a running app")
        _ = try await run(["sim", "kill"])
        #expect(try await run(["status"]).screen == "native-shell-lock-screen")
        _ = try await run(["sim", "biometric", "no-match"])
        let refused = try await run(["unlock", "--biometric"], refused: true)
        #expect(refused.screen == "native-shell-lock-screen" && refused.message?.contains("didn't recognise") == true)
        _ = try await run(["sim", "biometric", "match"])
        #expect(try await run(["unlock"]).screen == "native-shell-event-picker")
        _ = try await run(["lock"])
        _ = try await run(["sim", "biometric", "changed"])
        let changed = try await run(["unlock"], refused: true)
        #expect(changed.message?.contains("settings changed") == true)
        #expect(
            try await run(["unlock", "--passcode", "999999"], refused: true).message?.contains("not correct") == true)
        #expect(try await run(["unlock", "--passcode", "123456"]).screen == "native-shell-event-picker")
        // "Sign in with email" from the lock screen.
        _ = try await run(["sim", "kill"])
        #expect(try await run(["unlock", "--email"]).screen == "native-shell-signin")
    }
}
