import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import OutpostProtocol
import X509

/// A door's end of the venue mesh on the network: it listens for peers and joins them over
/// mutual TLS 1.3, each side certified by the tenant's authority for this event (the handshake
/// itself refuses anything else, with a counted reason), then exchanges frames: a hello with
/// the version vector on connect and every ``helloInterval``, a batch of what the other lacks in
/// answer, and a batch pushed to every peer as soon as this door has something new (its own
/// check-in, or entries a peer brought: relayed, never forged, since each is signed by its author).
///
/// Mutual TLS rather than a Noise handshake: the authority's X.509 certificates exist anyway (the
/// server issues them, swift-certificates checks them), NIOSSL is already in the build, and one
/// handshake less to write and audit.
public actor MeshNode {
    /// What the node asks of the door (the mesh module, on the main actor).
    public struct Host: Sendable {
        public var credentials: @MainActor @Sendable () -> MeshNodeCredentials?
        public var hello: @MainActor @Sendable () -> MeshHello?
        public var batch: @MainActor @Sendable (MeshHello) throws(MeshRefusal) -> MeshBatch
        public var receive: @MainActor @Sendable (MeshBatch) -> MeshReceipt
        /// Checks a peer's certificate against the door's trust (the handshake's decision).
        public var check: @Sendable (Certificate) -> MeshRefusal?

        public init(
            credentials: @escaping @MainActor @Sendable () -> MeshNodeCredentials?,
            hello: @escaping @MainActor @Sendable () -> MeshHello?,
            batch: @escaping @MainActor @Sendable (MeshHello) throws(MeshRefusal) -> MeshBatch,
            receive: @escaping @MainActor @Sendable (MeshBatch) -> MeshReceipt,
            check: @escaping @Sendable (Certificate) -> MeshRefusal?
        ) {
            self.credentials = credentials
            self.hello = hello
            self.batch = batch
            self.receive = receive
            self.check = check
        }
    }

    /// How often each session says hello again (the anti-entropy round and the heartbeat): 1 s
    /// unless the node was made with another.
    public let helloInterval: Duration
    /// A peer silent this long (three hellos missed; a frame of any kind counts) is no longer
    /// connected: its session is closed, and a peer this door joined is joined again. Discovery
    /// is not liveness: a cut-off peer's address stays in every cache.
    public let deadAfter: Duration

    private let host: Host
    private let group: any EventLoopGroup
    private var sessions: [UUID: Session] = [:]
    private var listener: (any Channel)?
    private var tasks: [Task<Void, Never>] = []
    /// Refusals by reason: certificates at the handshake, frames, entries.
    public private(set) var refused: [MeshRefusal: Int] = [:]
    /// Entries this door took from peers.
    public private(set) var received = 0
    /// Bytes this node wrote to its peers (frames with their length, before TLS).
    public private(set) var bytesSent = 0
    /// Sessions closed because the peer fell silent for ``deadAfter``.
    public private(set) var silent = 0
    /// Sessions closed because the same peer had another (one session per pair of doors).
    public private(set) var duplicates = 0
    /// This door's device id, from its certificate (known once the node has listened or joined).
    private var device: String?
    /// The addresses this door keeps joined, with the device last found at each.
    private var joined: [String: String?] = [:]
    /// The join loop of each address ``keepJoined(host:port:)`` keeps, and when a door last
    /// answered there with its first hello.
    private var joining: [String: Task<Void, Never>] = [:]
    private var lastMet: [String: ContinuousClock.Instant] = [:]
    /// The address each door DNS-SD announced was last found at, by instance (device id).
    private var discovered: [String: String] = [:]

    final class Session: Sendable {
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        let peerCertificate: NIOLockedValueBox<[UInt8]?>
        let state = NIOLockedValueBox(State())

        /// Whether this door opened the session (it joined the peer) or the peer did.
        let outgoing: Bool
        let opened = ContinuousClock.now

        struct State {
            var vector: VersionVector?
            var device: String?
            var lastSeen = ContinuousClock.now
            /// Certificates already sent on this session: the peer has them.
            var sentCertificates: Set<[UInt8]> = []
            /// Whether this door's certificate went in a hello on this session (later hellos
            /// carry only the vector: the peer checked the certificate once, at the handshake).
            var introduced = false
        }

        init(
            outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, peerCertificate: NIOLockedValueBox<[UInt8]?>,
            outgoing: Bool
        ) {
            self.outbound = outbound
            self.peerCertificate = peerCertificate
            self.outgoing = outgoing
        }
    }

    /// Why a session ended that no refusal explains.
    public enum SessionEnd: Error, Sendable {
        /// Nothing came from the peer for ``MeshNode/deadAfter``.
        case silent
        /// The peer has another session with this door, which is kept.
        case duplicate
    }

    /// Told the live peers after every change (a session, a hello, a refusal): the door's screens.
    private let observer: (@Sendable ([Peer]) -> Void)?
    /// The most frames a second one peer may send (a burst of twice as many): a peer over it is
    /// a flood, counted and cut off (it may join again, and be cut off again). A busy door's
    /// fair share is a hello a second and a push per new entry of the whole event.
    public let frameLimit: Int

    public init(
        host: Host, helloInterval: Duration = .seconds(1), deadAfter: Duration? = nil,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, frameLimit: Int = 200,
        observer: (@Sendable ([Peer]) -> Void)? = nil
    ) {
        self.host = host
        self.frameLimit = frameLimit
        self.helloInterval = helloInterval
        self.deadAfter = deadAfter ?? helloInterval * 3
        self.group = group
        self.observer = observer
    }

    /// A peer with a live session: its device id and how long ago it was last heard.
    public struct Peer: Sendable, Hashable {
        public var device: String
        public var heard: Duration
    }

    /// The peers with a live session (one each), by device id.
    public var peers: [Peer] {
        let now = ContinuousClock.now
        var seen: [String: Duration] = [:]
        for session in sessions.values {
            let state = session.state.withLockedValue { $0 }
            guard let device = state.device else { continue }
            seen[device] = min(seen[device] ?? .seconds(1_000_000), now - state.lastSeen)
        }
        return seen.map { Peer(device: $0.key, heard: $0.value) }.sorted { $0.device < $1.device }
    }

    // MARK: - TLS

    private func tlsContext(server: Bool) async throws -> NIOSSLContext {
        guard let credentials = await host.credentials() else { throw MeshRefusal.unknownAuthor }
        device = (try? Certificate(derEncoded: credentials.certificate)).flatMap(MeshIdentity.init)?.device
        let chain = [
            NIOSSLCertificateSource.certificate(try NIOSSLCertificate(bytes: credentials.certificate, format: .der))
        ]
        let key = NIOSSLPrivateKeySource.privateKey(
            try NIOSSLPrivateKey(bytes: Array(credentials.key.pemRepresentation.utf8), format: .pem))
        var configuration =
            server
            ? TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: key)
            : TLSConfiguration.makeClientConfiguration()
        configuration.certificateChain = chain
        configuration.privateKey = key
        configuration.minimumTLSVersion = .tlsv13
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates([try NIOSSLCertificate(bytes: credentials.authority, format: .der)])
        return try NIOSSLContext(configuration: configuration)
    }

    /// The handshake's decision: the peer's leaf checked by the door's trust; the refusal is
    /// counted and the handshake fails.
    typealias Verify = @Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResult>) -> Void

    private nonisolated func verifier(into seen: NIOLockedValueBox<[UInt8]?>) -> Verify {
        let check = host.check
        return { [weak self] certificates, promise in
            let refusal: MeshRefusal?
            if let leaf = certificates.first, let der = try? leaf.toDERBytes(),
                let certificate = try? Certificate(derEncoded: der)
            {
                refusal = check(certificate)
                if refusal == nil { seen.withLockedValue { $0 = der } }
            } else {
                refusal = .uncertified
            }
            if let refusal {
                Task { await self?.count(refusal) }
                promise.succeed(.failed)
            } else {
                promise.succeed(.certificateVerified)
            }
        }
    }

    /// What a session's flood guard calls when the peer is over its allowance: counted once,
    /// whichever error the session then ends with (the guard's, or a write to the closed channel).
    private nonisolated func floodCounter() -> @Sendable () -> Void {
        { [weak self] in Task { await self?.count(.flood) } }
    }

    private func count(_ refusal: MeshRefusal, _ times: Int = 1) {
        refused[refusal, default: 0] += times
        stateChanged()
    }

    // MARK: - Watching

    /// What the node is doing, for screens and tests.
    public struct Snapshot: Sendable {
        public var peers: [String]
        public var received: Int
        public var refused: [MeshRefusal: Int]
        /// Sessions closed for silence, and as a second session of one pair.
        public var silent: Int
        public var duplicates: Int
        /// Sessions open now (a peer's counts once its hello arrived; one per peer).
        public var sessions: Int
    }

    public var snapshot: Snapshot {
        Snapshot(
            peers: peers.map(\.device), received: received, refused: refused, silent: silent, duplicates: duplicates,
            sessions: sessions.count)
    }

    private var waiters: [CheckedContinuation<Void, Never>] = []

    private func stateChanged() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.resume() }
        observer?(peers)
    }

    /// Waits until `condition` holds of the node (checked again on every change: a session, a
    /// hello, entries received, a refusal), or `timeout` passed; whether it held.
    public func waitUntil(
        timeout: Duration = .seconds(30), _ condition: @Sendable (Snapshot) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        let timer = Task {
            try? await Task.sleep(until: deadline)
            self.stateChanged()
        }
        defer { timer.cancel() }
        while true {
            if condition(snapshot) { return true }
            if ContinuousClock.now >= deadline { return false }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    private static func pipeline(
        _ channel: any Channel, tls: NIOSSLContext, server: Bool, frameLimit: Int,
        flooded: @escaping @Sendable () -> Void,
        verify: @escaping Verify
    ) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> {
        channel.eventLoop.makeCompletedFuture {
            let handler: any ChannelHandler =
                server
                ? NIOSSLServerHandler(context: tls, customVerificationCallback: verify)
                : try NIOSSLClientHandler(context: tls, serverHostname: nil, customVerificationCallback: verify)
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(MeshFrameDecoder()))
            try channel.pipeline.syncOperations.addHandler(MeshFloodGuard(limit: frameLimit, flooded: flooded))
            try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(MeshFrameEncoder()))
            return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
    }

    // MARK: - Listening and joining

    /// Listens on `host`:`port` (0: any free port) and returns the port.
    public func listen(host address: String = "0.0.0.0", port: Int = 0) async throws -> Int {
        let tls = try await tlsContext(server: true)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: address, port: port) { [self] channel in
                let seen = NIOLockedValueBox<[UInt8]?>(nil)
                return Self.pipeline(
                    channel, tls: tls, server: true, frameLimit: frameLimit, flooded: floodCounter(),
                    verify: verifier(into: seen)
                ).map { ($0, seen) }
            }
        listener = server.channel
        let bound = server.channel.localAddress?.port ?? port
        tasks.append(
            Task {
                try? await server.executeThenClose { inbound in
                    try await withThrowingDiscardingTaskGroup { group in
                        for try await (connection, seen) in inbound {
                            group.addTask {
                                try? await self.run(connection, peerCertificate: seen, outgoing: false, address: nil)
                            }
                        }
                    }
                }
            })
        return bound
    }

    /// Joins a peer at `host`:`port` ("join host:port", a scanned QR code, a discovered service);
    /// returns when the session ends. Throws when the connection or the handshake fails.
    public func join(host address: String, port: Int) async throws {
        let tls = try await tlsContext(server: false)
        let seen = NIOLockedValueBox<[UInt8]?>(nil)
        let verify = verifier(into: seen)
        let limit = frameLimit
        let flooded = floodCounter()
        let connection = try await ClientBootstrap(group: group)
            .connectTimeout(
                .nanoseconds(
                    deadAfter.components.seconds * 1_000_000_000 + deadAfter.components.attoseconds / 1_000_000_000)
            )
            .connect(host: address, port: port) { channel in
                Self.pipeline(
                    channel, tls: tls, server: false, frameLimit: limit, flooded: flooded, verify: verify)
            }
        try await run(connection, peerCertificate: seen, outgoing: true, address: "\(address):\(port)")
    }

    /// Joins a peer in the background; the task ends with the session.
    @discardableResult
    public func joinInBackground(host address: String, port: Int) -> Task<Void, any Error> {
        Task { try await self.join(host: address, port: port) }
    }

    /// Keeps this door joined to the peer at `host`:`port` until ``stop()``: joined now, and
    /// again each ``helloInterval`` after a session ends or a join fails (the peer rebooted,
    /// the Wi-Fi came back). While the peer this address last led to has a live session of its
    /// own opening, no second one is made.
    /// An address that keeps failing is tried less often (``rejoinDelay(failures:)``), never
    /// given up: a door out of range for an hour is joined again when it is back.
    public func keepJoined(host address: String, port: Int) {
        let key = "\(address):\(port)"
        guard joined[key] == nil else { return }
        joined[key] = .some(nil)
        joining[key] = Task {
            var failures = 0
            while !Task.isCancelled {
                if await !self.hasSession(toDeviceAt: key) {
                    let attempt = ContinuousClock.now
                    try? await self.join(host: address, port: port)
                    let met = await self.lastMet[key].map { $0 >= attempt } ?? false
                    failures = met ? 0 : failures + 1
                } else {
                    failures = 0
                }
                try? await Task.sleep(for: self.helloInterval * Self.rejoinDelay(failures: failures))
            }
        }
    }

    /// How many hello intervals to wait before joining an address again after `failures` joins
    /// in a row found no door there: 1 for the first 10 (a door restarting, a cut healing: the
    /// mesh soak's settling time counts on it), then 5, then 15 after 30 (an address a door
    /// left, a peer gone for good: one attempt each 15 s, not each second, for ever).
    package nonisolated static func rejoinDelay(failures: Int) -> Int {
        failures < 10 ? 1 : failures < 30 ? 5 : 15
    }

    /// Keeps the door DNS-SD announced as `instance` joined at `host`:`port`; when it shows up at
    /// another address (a new DHCP lease, another network), its old address is no longer tried.
    public func keepJoined(instance: String, host address: String, port: Int) {
        let key = "\(address):\(port)"
        if let previous = discovered[instance], previous != key { stopJoining(previous) }
        discovered[instance] = key
        keepJoined(host: address, port: port)
    }

    /// Stops keeping an address joined; a live session there stays until it ends.
    private func stopJoining(_ key: String) {
        joining[key]?.cancel()
        joining[key] = nil
        joined[key] = nil
    }

    /// The addresses this door keeps joined (`host:port`).
    package var joiningAddresses: Set<String> { Set(joining.keys) }

    private func hasSession(toDeviceAt key: String) -> Bool {
        guard let found = joined[key], let device = found else { return false }
        return sessions.values.contains { $0.state.withLockedValue { $0.device } == device }
    }

    /// Stops listening and ends every session.
    public func stop() async {
        try? await listener?.close()
        listener = nil
        for task in tasks { task.cancel() }
        tasks = []
        for task in joining.values { task.cancel() }
        joining = [:]
        joined = [:]
        for session in sessions.values { session.outbound.finish() }
        sessions = [:]
    }

    // MARK: - Sessions

    /// One session until it ends; throws why it ended (a refusal is counted first).
    private func run(
        _ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, peerCertificate: NIOLockedValueBox<[UInt8]?>,
        outgoing: Bool, address: String?
    ) async throws {
        let id = UUID()
        do {
            try await connection.executeThenClose { inbound, outbound in
                let session = Session(outbound: outbound, peerCertificate: peerCertificate, outgoing: outgoing)
                sessions[id] = session
                defer {
                    sessions[id] = nil
                    stateChanged()
                }
                try await sayHello(session)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // The heartbeat: a hello each interval, and the session closed once the peer
                    // has been silent for deadAfter.
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: self.helloInterval)
                            let heard = session.state.withLockedValue { $0.lastSeen }
                            if ContinuousClock.now - heard > self.deadAfter { throw SessionEnd.silent }
                            try await self.sayHello(session)
                        }
                    }
                    group.addTask {
                        for try await buffer in inbound {
                            try await self.handle(
                                Array(buffer.readableBytesView), from: session, id: id, address: address)
                        }
                    }
                    // Either ending ends the session: the peer closed, or a frame was refused,
                    // or the heartbeat found it silent.
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch let refusal as MeshRefusal {
            sessions[id] = nil
            // A flood was counted where it was found (the guard), whatever ended the session.
            if refusal != .flood { count(refusal) }
            throw refusal
        } catch SessionEnd.silent {
            sessions[id] = nil
            silent += 1
            stateChanged()
            throw SessionEnd.silent
        } catch {
            sessions[id] = nil
            throw error
        }
        sessions[id] = nil
    }

    private func sayHello(_ session: Session) async throws {
        guard var hello = await host.hello() else { return }
        if session.state.withLockedValue({ $0.introduced }) { hello.certificate = [] }
        try await send(.hello(hello), to: session)
        session.state.withLockedValue { $0.introduced = true }
    }

    /// One session per pair of doors: when a peer has two (each door joined the other, or a
    /// join raced a reconnect), the one opened by the lower device id is kept, and of two opened
    /// by the same door the newer; the other is closed.
    private func keepOneSession(with peer: String, newcomer: UUID) throws {
        guard let device,
            let other = sessions.first(where: {
                $0.key != newcomer && $0.value.state.withLockedValue { $0.device } == peer
            })
        else { return }
        func opener(_ session: Session) -> String { session.outgoing ? device : peer }
        let mine = sessions[newcomer]!
        let low = min(device, peer)
        let keepNewcomer: Bool
        if (opener(mine) == low) != (opener(other.value) == low) {
            keepNewcomer = opener(mine) == low
        } else {
            keepNewcomer = mine.opened >= other.value.opened
        }
        duplicates += 1
        if keepNewcomer {
            other.value.outbound.finish()
            sessions[other.key] = nil
        } else {
            throw SessionEnd.duplicate
        }
    }

    private func send(_ frame: MeshFrame, to session: Session) async throws {
        let bytes = frame.encoded
        bytesSent += bytes.count + 4
        try await session.outbound.write(ByteBuffer(bytes: bytes))
    }

    private func handle(_ bytes: [UInt8], from session: Session, id: UUID, address: String?) async throws {
        let frame = try MeshFrame(decoding: bytes)
        session.state.withLockedValue { $0.lastSeen = .now }
        switch frame {
        case .hello(let hello):
            let known = session.state.withLockedValue { $0.device }
            if known == nil {
                // The first hello speaks for the certificate the handshake checked, and no other;
                // later ones carry only the vector.
                guard session.peerCertificate.withLockedValue({ $0 }) == hello.certificate,
                    let device = (try? Certificate(derEncoded: hello.certificate)).flatMap(MeshIdentity.init)?.device
                else { throw MeshRefusal.uncertified }
                session.state.withLockedValue { $0.device = device }
                if let address, joined[address] != nil {
                    joined[address] = .some(device)
                    lastMet[address] = .now
                }
                try keepOneSession(with: device, newcomer: id)
            } else if !hello.certificate.isEmpty, session.peerCertificate.withLockedValue({ $0 }) != hello.certificate {
                throw MeshRefusal.uncertified
            }
            session.state.withLockedValue { $0.vector = hello.vector }
            stateChanged()
            try await push(to: session)
        case .batch(let batch):
            // What the peer sent, the peer has: it is not pushed back to it.
            session.state.withLockedValue { state in
                guard var vector = state.vector else { return }
                for entry in batch.entries where entry.seq == vector[entry.author] + 1 {
                    vector[entry.author] = entry.seq
                }
                state.vector = vector
            }
            let receipt = await host.receive(batch)
            received += receipt.added
            for (reason, times) in receipt.refused { count(reason, times) }
            stateChanged()
            if receipt.added > 0 { await announce() }
        case .ping:
            break
        }
    }

    /// Sends `session`'s peer what its last vector lacks (nothing when it lacks nothing), and
    /// counts it as sent: the peer's vector advances until its next hello says otherwise.
    private func push(to session: Session) async throws {
        guard let vector = session.state.withLockedValue({ $0.vector }),
            let certificate = session.peerCertificate.withLockedValue({ $0 })
        else { return }
        var batch: MeshBatch
        do {
            batch = try await host.batch(MeshHello(certificate: certificate, vector: vector))
        } catch {
            count(error)
            throw error
        }
        guard !batch.entries.isEmpty else { return }
        let sent = session.state.withLockedValue { $0.sentCertificates }
        batch.certificates.removeAll { sent.contains($0) }
        session.state.withLockedValue { $0.sentCertificates.formUnion(batch.certificates) }
        try await send(.batch(batch), to: session)
        session.state.withLockedValue { state in
            var advanced = state.vector ?? VersionVector()
            for entry in batch.entries where entry.seq == advanced[entry.author] + 1 {
                advanced[entry.author] = entry.seq
            }
            state.vector = advanced
        }
    }

    /// This door has something new: every peer is sent what it lacks.
    public func announce() async {
        for session in sessions.values { try? await push(to: session) }
    }
}

/// What the node needs of the door's credentials for the TLS handshake.
public struct MeshNodeCredentials: Sendable {
    public var key: P256.Signing.PrivateKey
    public var certificate: [UInt8]
    public var authority: [UInt8]

    public init(key: P256.Signing.PrivateKey, certificate: [UInt8], authority: [UInt8]) {
        self.key = key
        self.certificate = certificate
        self.authority = authority
    }
}
