import ArgumentParser
import Foundation
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTerminal

/// `outpost device mesh`: this door in the venue mesh, for as long as standard input stays open.
/// It listens for peers, keeps joined the ones named with --join (host:port or a join code) and,
/// with --discover, the ones DNS-SD finds on the LAN; and it takes the door's commands, one a line.
struct DeviceMeshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mesh",
        abstract: "Run this door in the venue mesh until standard input ends, taking commands one a line.",
        discussion: """
            The open event's mesh credentials come from the last sync. Prints, on standard \
            error, the address it listens on and its join code (another door joins with \
            --join CODE). Commands on standard input: `scan TEXT`, `confirm`, `cancel`, `sync`, \
            `peers`, `status`; each is answered with one line on standard output (one JSON object \
            with --json). A confirm here does not reach for the server: `sync` does. Refuses to \
            start (exit 3) when the event has no mesh credentials or a join code is another \
            authority's.
            """)

    @OptionGroup var device: DeviceOptions

    @Option(help: ArgumentHelp("Where to listen for peers.", valueName: "host:port"))
    var listen = "0.0.0.0:\(MeshJoinCode.defaultPort)"

    @Option(
        name: .customLong("join"),
        help: ArgumentHelp("A peer to keep joined: host:port, or its join code (repeatable).", valueName: "peer"))
    var peers: [String] = []

    @Flag(help: "Announce this door and join the doors of the same event found on the LAN (DNS-SD, Avahi).")
    var discover = false

    func validate() throws {
        guard MeshJoinCode.address(listen) != nil else {
            throw ValidationError("--listen is host:port, e.g. 0.0.0.0:\(MeshJoinCode.defaultPort).")
        }
        for peer in peers where MeshJoinCode(parsing: peer) == nil {
            throw ValidationError("--join \(peer) is neither host:port nor a join code (outpost-mesh://host:port#…).")
        }
    }

    @MainActor
    func run() async throws {
        let app = try device.launch()
        guard app.meshDevice != nil else {
            throw DeviceOptions.refused(
                "This door has no venue mesh credentials for the open event: sign in, open the event and sync first.")
        }
        let (host, port) = MeshJoinCode.address(listen)!
        let runner = MeshRunner(
            app: app,
            settings: .init(
                host: host, port: port, joins: peers.compactMap(MeshJoinCode.init(parsing:)), discover: discover))
        do {
            try await runner.update()
        } catch let refusal as MeshRunner.Refusal {
            throw DeviceOptions.refused(refusal.description)
        }
        guard let node = runner.node, let code = app.meshJoinCode else { return }
        let say = { (text: String) in FileHandle.standardError.write(Data("mesh: \(text)\n".utf8)) }
        say("door \(app.deviceId) listening on \(host):\(code.port); join code \(code.text)")
        if let problem = runner.discoveryProblem { say("no discovery on this LAN: \(problem)") }
        let commands = MeshDoor(app: app, node: node, json: device.json)
        for await line in StandardInputLines() {
            await commands.perform(line)
        }
        await runner.stop()
        await device.finish(app)
    }
}

/// Standard input's lines, read on a thread of their own (a blocking read must not hold the
/// main actor, where the door runs).
struct StandardInputLines: AsyncSequence {
    typealias Element = String

    func makeAsyncIterator() -> AsyncStream<String>.Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }
        return stream.makeAsyncIterator()
    }
}
