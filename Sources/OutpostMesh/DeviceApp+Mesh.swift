import Crypto
import Foundation
import NIOConcurrencyHelpers
import OutpostProtocol
import OutpostShell

/// The venue mesh's exchange, as the transport between doors (and tests) drives it.
extension DeviceApp {
    package var meshModule: MeshModule? { module(MeshModule.self) }

    /// What this door says to a peer it meets; nil without the open event's mesh credentials.
    public func meshHello() -> MeshHello? { meshModule?.hello() }

    /// The entries a peer lacks, after checking its certificate.
    public func meshBatch(for hello: MeshHello) throws(MeshRefusal) -> MeshBatch {
        guard let meshModule else { throw .unknownAuthor }
        return try meshModule.batch(for: hello)
    }

    /// A peer's entries, checked and kept; the screens are rebuilt (a guest a peer admitted now
    /// shows as checked in).
    @discardableResult
    public func meshReceive(_ batch: MeshBatch) -> MeshReceipt {
        var receipt = MeshReceipt()
        perform { receipt = meshModule?.receive(batch) ?? MeshReceipt() }
        return receipt
    }

    /// What this door holds of the open event's mesh.
    public var meshLog: MeshLog? { meshModule?.log }

    /// The open event's authority fingerprint (what this door's join code carries); nil without
    /// the event's mesh credentials.
    public var meshAuthorityFingerprint: String? {
        meshModule?.authority.map(MeshCertificates.fingerprint)
    }

    /// This door's node stopped (or never started listening): the screens no longer show the mesh.
    public func meshStopped() {
        perform {
            meshModule?.meshing = false
            meshModule?.joinCode = nil
            meshModule?.peersHeard([], at: .now)
        }
    }

    /// The join code this door's node listens behind (shown on the screen with its peers).
    public var meshJoinCode: MeshJoinCode? {
        get { meshModule?.joinCode }
        set { perform { meshModule?.joinCode = newValue } }
    }

    /// The peers this door has a live session with, and how long ago each was heard, by device id.
    public var meshPeers: [(device: String, heard: Duration)] {
        meshModule?.peers(at: .now) ?? []
    }

    /// This door's name in the mesh (its device id); nil without the event's mesh credentials.
    public var meshDevice: String? { meshModule?.authority == nil ? nil : deviceId }

    /// What DNS-SD announces of the open event: the first 8 bytes of SHA-256 of its id, in hex
    /// (everyone on the Wi-Fi reads announcements: no names, no ticket data).
    public var meshEventTag: String? {
        guard meshDevice != nil, let eventId = currentEventId else { return nil }
        return MeshBytes.hex(Array(SHA256.hash(data: Data(eventId.wire.utf8)).prefix(8)))
    }

    /// A network node for this door's mesh: it asks the door for its credentials and entries,
    /// checks peers with the door's trust (at the door's clock), and is told of every new entry.
    public func makeMeshNode(
        helloInterval: Duration = .seconds(1), deadAfter: Duration? = nil, frameLimit: Int = 200
    ) -> MeshNode {
        let trust = meshModule?.handshakeTrust
        let anchor = meshModule?.timeAnchor
        let clock = ports.clock
        let monotonic = ports.monotonic
        let node = MeshNode(
            host: MeshNode.Host(
                credentials: { [weak self] in self?.meshModule?.nodeCredentials() },
                hello: { [weak self] in self?.meshHello() },
                batch: { [weak self] hello throws(MeshRefusal) in
                    guard let self else { throw .unknownAuthor }
                    return try self.meshBatch(for: hello)
                },
                receive: { [weak self] batch in self?.meshReceive(batch) ?? MeshReceipt() },
                check: { certificate in
                    guard let current = trust?.withLockedValue({ $0 }) else { return .unknownAuthor }
                    do throws(MeshRefusal) {
                        let now = MeshModule.trustedTime(
                            wall: clock.now(), anchor: anchor?.withLockedValue { $0 }, monotonic: monotonic.now())
                        _ = try current.check(certificate, at: now)
                        return nil
                    } catch {
                        return error
                    }
                }), helloInterval: helloInterval, deadAfter: deadAfter, frameLimit: frameLimit,
            observer: { [weak self] peers in
                let now = ContinuousClock.now
                Task { @MainActor in self?.meshModule?.peersHeard(peers, at: now) }
            })
        meshModule?.changed = { Task { await node.announce() } }
        meshModule?.meshing = true
        return node
    }
}
