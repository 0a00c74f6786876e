import Foundation
import Testing

/// A fresh `outpost device` home signed in as the server's organizer with `eventId` open; each
/// command a real process with `--json`, its exit status checked.
struct HeadlessDevice {
    let home: String

    init(on server: RunningServer, event eventId: String) async throws {
        home = try CLI.temporaryDirectory() + "/device"
        try await run([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", RunningServer.email, "--password",
            RunningServer.password,
        ])
        try await run(["open", eventId])
    }

    /// Runs `outpost device ARGUMENTS --home … --json`, expecting exit `status`.
    @discardableResult
    func run(
        _ arguments: [String], status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLI.Result {
        let result = try await CLI.run(["device"] + arguments + ["--home", home, "--json"])
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }
}
