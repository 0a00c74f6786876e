import ArgumentParser
import Foundation
import OutpostCheckIn
import OutpostDevice
import OutpostLab
import OutpostMesh
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
        guard let authority = app.meshAuthorityFingerprint, let door = app.meshDevice else {
            throw DeviceOptions.refused(
                "This door has no venue mesh credentials for the open event: sign in, open the event and sync first.")
        }
        let codes = peers.compactMap(MeshJoinCode.init(parsing:))
        if let foreign = codes.first(where: { $0.authority != nil && $0.authority != authority }) {
            throw DeviceOptions.refused(
                "The join code for \(foreign.host):\(foreign.port) belongs to another organisation's or event's mesh.")
        }
        let node = app.makeMeshNode()
        let (host, port) = MeshJoinCode.address(listen)!
        let bound: Int
        do {
            bound = try await node.listen(host: host, port: port)
        } catch {
            throw CleanFailure("Cannot listen on \(listen) for the venue mesh: \(error).")
        }
        let code = MeshJoinCode(
            host: host == "0.0.0.0" ? MeshJoinCode.lanAddress() ?? host : host, port: bound, authority: authority)
        FileHandle.standardError.write(
            Data("mesh: door \(door) listening on \(host):\(bound); join code \(code.text)\n".utf8))
        for peer in codes { await node.keepJoined(host: peer.host, port: peer.port) }
        var discovery: AvahiDiscovery?
        if discover, let tag = app.meshEventTag {
            let avahi = AvahiDiscovery()
            do {
                try await avahi.start(instance: door, port: bound, eventTag: tag) { found in
                    Task { await node.keepJoined(host: found.host, port: found.port) }
                }
            } catch {
                FileHandle.standardError.write(Data("mesh: no discovery on this LAN: \(error)\n".utf8))
            }
            discovery = avahi
        }
        let commands = MeshDoor(app: app, node: node, json: device.json)
        for await line in StandardInputLines() {
            await commands.perform(line)
        }
        await discovery?.stop()
        await node.stop()
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
