import ArgumentParser
import Foundation

/// `outpost`: the server, its administration, and (in later issues) the device, station and kiosk.
@main
struct Outpost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outpost",
        abstract: "Outpost: an offline-first check-in server and device engine.",
        discussion: """
            Start a server on an embedded SQLite store with `outpost serve`, create the first \
            organizer with `outpost admin bootstrap`, then use the HTTP API (see openapi.yaml).
            """,
        subcommands: [
            ServeCommand.self, DemoCommand.self, AdminCommand.self, DeviceCommand.self, StationCommand.self,
            TrackCommand.self,
            KioskCommand.self, BenchCommand.self, SoakCommand.self, SoakWorkerCommand.self, ChaosProxyCommand.self,
            MeshSoakCommand.self,
        ]
    )

    /// Exit statuses: 0 done, 1 the command failed (one sentence on stderr), 2 usage error.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help, help SUBCOMMAND, --version: ArgumentParser prints and exits 0.
                Self.exit(withError: error)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            if exitCode(for: error) == .success { Self.exit(withError: error) }
            FileHandle.standardError.write(Data("outpost: \(error)\n".utf8))
            Foundation.exit(1)
        }
    }
}
