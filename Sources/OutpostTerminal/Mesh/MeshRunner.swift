import Foundation
import OutpostCore
import OutpostDevice

/// Runs this door's venue mesh node while an event with mesh credentials is open (the station,
/// `outpost device mesh`, the demo's doors): it listens, keeps the given peers joined, announces
/// the door and joins the doors of the same event that DNS-SD finds, and stops when the event
/// closes or changes. ``update()`` is called after anything that may have opened or closed one.
@MainActor
public final class MeshRunner {
    public struct Settings: Sendable {
        public var host: String
        public var port: Int
        public var joins: [MeshJoinCode]
        public var discover: Bool

        public init(
            host: String = "0.0.0.0", port: Int = MeshJoinCode.defaultPort, joins: [MeshJoinCode] = [],
            discover: Bool = false
        ) {
            self.host = host
            self.port = port
            self.joins = joins
            self.discover = discover
        }
    }

    /// Why the node could not start, in one sentence.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    let app: DeviceApp
    let settings: Settings
    public private(set) var node: MeshNode?
    private var discovery: AvahiDiscovery?
    private var runningFor: EventID?
    /// What discovery said when it could not start (no avahi-daemon on this machine, say).
    public private(set) var discoveryProblem: String?

    public init(app: DeviceApp, settings: Settings) {
        self.app = app
        self.settings = settings
    }

    /// Starts the node when the open event has mesh credentials and none runs for it; stops it
    /// when the event closed or changed. Throws when a join code is another mesh's, or when the
    /// port cannot be listened on.
    public func update() async throws {
        let open = app.meshDevice == nil ? nil : app.currentEventId
        guard open != runningFor else { return }
        await stop()
        guard let open, let authority = app.meshAuthorityFingerprint, let device = app.meshDevice else { return }
        if let foreign = settings.joins.first(where: { $0.authority != nil && $0.authority != authority }) {
            throw Refusal(
                description:
                    "The join code for \(foreign.host):\(foreign.port) belongs to another organisation's or event's mesh."
            )
        }
        let node = app.makeMeshNode()
        let bound: Int
        do {
            bound = try await node.listen(host: settings.host, port: settings.port)
        } catch {
            app.meshStopped()
            throw Refusal(
                description: "Cannot listen on \(settings.host):\(settings.port) for the venue mesh: \(error).")
        }
        self.node = node
        runningFor = open
        let shown = settings.host == "0.0.0.0" ? MeshJoinCode.lanAddress() ?? settings.host : settings.host
        app.meshJoinCode = MeshJoinCode(host: shown, port: bound, authority: authority)
        for peer in settings.joins { await node.keepJoined(host: peer.host, port: peer.port) }
        if settings.discover, let tag = app.meshEventTag {
            let avahi = AvahiDiscovery()
            do {
                try await avahi.start(instance: device, port: bound, eventTag: tag) { instance, found in
                    Task { await node.keepJoined(instance: instance, host: found.host, port: found.port) }
                }
                discovery = avahi
                discoveryProblem = nil
            } catch {
                discoveryProblem = "\(error)"
            }
        }
    }

    /// Stops discovery and the node.
    public func stop() async {
        await discovery?.stop()
        discovery = nil
        await node?.stop()
        node = nil
        runningFor = nil
        app.meshStopped()
    }
}
