import Foundation
import Testing

/// A fresh `outpost device` home signed in as the server's organizer with `eventId` open; each
/// command a real process with `--json`, its exit status checked.
struct HeadlessDevice {
    let home: String

    init(on server: RunningServer, event eventId: String) throws {
        home = try CLI.temporaryDirectory() + "/device"
        try run([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", RunningServer.email, "--password",
            RunningServer.password,
        ])
        try run(["open", eventId])
    }

    /// Runs `outpost device ARGUMENTS --home … --json`, expecting exit `status`.
    @discardableResult
    func run(
        _ arguments: [String], status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLI.Result {
        let result = try CLI.run(["device"] + arguments + ["--home", home, "--json"])
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }
}
