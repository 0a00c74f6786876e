import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol

/// `outpost demo --doors N`: N stations and a kiosk, each its own `outpost` process and device,
/// meshed over loopback (each door listens on a free port and joins the ones before it), side by
/// side in one tmux window. The demo's server runs in this process until
/// the tmux session ends.
@MainActor
struct MeshDemo {
    let server: URL
    let directory: URL
    let doors: Int

    nonisolated static var tmux: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: FileManager.default.isExecutableFile(atPath:))
    }

    /// The first door is the demo's own device; the others (and the kiosk, the organizer's: kiosk
    /// mode is theirs to start) are signed in and synced here.
    func run(first: DeviceApp) async throws {
        guard let tmux = Self.tmux else { return }
        let outpost = LabProcess.binary.path
        let eventId = try firstEvent(first)
        var homes = [directory.appendingPathComponent("device")]
        for door in 2...doors {
            let home = directory.appendingPathComponent("door-\(door)")
            _ = try await DemoWorld.device(
                home: home, server: server, account: (DemoWorld.staff.email, DemoWorld.staff.password), event: eventId)
            homes.append(home)
        }
        let kioskHome = directory.appendingPathComponent("kiosk")
        let kiosk = try await DemoWorld.device(
            home: kioskHome, server: server, account: (DemoWorld.organizer.email, DemoWorld.organizer.password),
            event: eventId)
        kiosk.enterKiosk()
        // Free ports (another demo, or a door of this machine, may hold 7311).
        let ports = try (0...doors).map { _ in try ServerHandle.freePort() }
        func meshArguments(_ index: Int) -> String {
            "--mesh-listen 127.0.0.1:\(ports[index])" + (0..<index).map { " --join 127.0.0.1:\(ports[$0])" }.joined()
        }
        var panes = homes.enumerated().map { index, home in
            "\(outpost) station --home \(home.path) \(meshArguments(index))"
        }
        panes.append("\(outpost) kiosk --home \(kioskHome.path) \(meshArguments(doors))")
        print(
            """

            \(doors) stations and a kiosk, meshed over loopback, open side by side (tmux: Ctrl-B and an
            arrow key moves between them; Ctrl-Q quits a station, the kiosk's passcode is \(DemoWorld.kioskPasscode)).
            Take a door offline to see the mesh at work, from another terminal:
              \(outpost) device sim network off --home \(homes[0].path)
            then admit a ticket at one door and scan it at another: already checked in.
            Press Enter to open them…
            """)
        _ = readLine()
        let socket = directory.appendingPathComponent("tmux.sock").path
        var commands: [[String]] = [["new-session", "-d", "-s", "outpost-demo", "-x", "200", "-y", "50", panes[0]]]
        for pane in panes.dropFirst() {
            commands.append(["split-window", "-t", "outpost-demo", pane])
            commands.append(["select-layout", "-t", "outpost-demo", "tiled"])
        }
        commands.append(["attach-session", "-t", "outpost-demo"])
        commands.append(["kill-server"])
        // The demo's own tmux, even when run inside another one.
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        for arguments in commands {
            _ = try LabProcess.spawnOnTerminal([tmux, "-S", socket] + arguments, environment: environment)
        }
        print("The doors are closed. Stopping the demo server.")
    }

    private func firstEvent(_ device: DeviceApp) throws -> EventID {
        guard let event = device.currentEventId else { throw CleanFailure("the demo's device has no event open") }
        return event
    }
}
