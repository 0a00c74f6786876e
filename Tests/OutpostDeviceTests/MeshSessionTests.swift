import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing
import X509

@testable import OutpostCheckIn
@testable import OutpostMesh
@testable import OutpostShell

/// The mesh's sessions over real sockets: liveness (a silent peer is dropped, a lost peer is
/// joined again), one session per pair of doors, and the hello bound to the handshake.
@Suite("Venue mesh sessions")
struct MeshSessionTests {
    /// A listener that accepts and then says nothing, ever (a peer frozen mid-session, a captive
    /// portal holding the connection): its port.
    private static func silentListener() async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { _ in MultiThreadedEventLoopGroup.singleton.next().makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    @Test(
        "mesh-peer-silent: a peer that accepts and then says nothing is dropped after three missed hellos (discovery is not liveness), and a door kept joined to it tries again each interval, each silence counted"
    )
    func silent() async throws {
        try await DeviceLab.run { lab in
            let door = try await lab.meshDoor(1)
            let node = door.makeMeshNode(helloInterval: .milliseconds(50))
            let silent = try await Self.silentListener()
            let port = try #require(silent.localAddress?.port)
            await node.keepJoined(host: "127.0.0.1", port: port)
            let dropped = await node.waitUntil(timeout: .seconds(20)) { $0.silent >= 2 }
            let snapshot = await node.snapshot
            #expect(dropped, "\(snapshot)")
            #expect(snapshot.peers.isEmpty)
            await node.stop()
            try await silent.close()
        }
    }

    @Test(
        "mesh-rejoin: door 2 keeps joined to door 1; door 1's node goes away and comes back on the same port, and door 2 joins it again by itself: a check-in at door 1 then reaches door 2"
    )
    func rejoin() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            let (id1, id2) = (door1.deviceId, door2.deviceId)
            var node1 = door1.makeMeshNode(helloInterval: .milliseconds(100), deadAfter: .seconds(60))
            let node2 = door2.makeMeshNode(helloInterval: .milliseconds(100), deadAfter: .seconds(60))
            let port = try await node1.listen(host: "127.0.0.1")
            await node2.keepJoined(host: "127.0.0.1", port: port)
            #expect(await node2.waitUntil { $0.peers == [id1] })
            await node1.stop()
            #expect(await node2.waitUntil { $0.peers.isEmpty }, "door 2 sees door 1 gone")
            node1 = door1.makeMeshNode(helloInterval: .milliseconds(100), deadAfter: .seconds(60))
            _ = try await node1.listen(host: "127.0.0.1", port: port)
            #expect(await node1.waitUntil { $0.peers == [id2] }, "door 2 joined door 1 again")
            door1.update { $0.online = false }
            door1.scan(try await lab.ticket(lab.world.guests[0]))
            await door1.confirm(replayAfter: false)
            #expect(await node2.waitUntil { $0.received == 1 }, "the new check-in reached door 2")
            await node1.stop()
            await node2.stop()
        }
    }

    @Test(
        "mesh-rejoin-backoff: an address that keeps failing is tried each interval for the first 10 tries (a restart, a healed cut), then each 5, then each 15, never given up; a door DNS-SD finds at a new address is no longer tried at its old one"
    )
    func rejoinBackoff() async throws {
        #expect([0, 9, 10, 29, 30, 1000].map(MeshNode.rejoinDelay(failures:)) == [1, 1, 5, 5, 15, 15])
        try await DeviceLab.run { lab in
            let door = try await lab.meshDoor(1)
            let node = door.makeMeshNode(helloInterval: .milliseconds(100))
            await node.keepJoined(instance: "door-x", host: "127.0.0.1", port: 9)
            await node.keepJoined(instance: "door-y", host: "127.0.0.1", port: 11)
            #expect(await node.joiningAddresses == ["127.0.0.1:9", "127.0.0.1:11"])
            await node.keepJoined(instance: "door-x", host: "127.0.0.2", port: 9)
            #expect(await node.joiningAddresses == ["127.0.0.2:9", "127.0.0.1:11"], "door-x moved")
            await node.stop()
            #expect(await node.joiningAddresses.isEmpty)
        }
    }

    @Test(
        "mesh-one-session: two doors that each join the other (both found the other on the LAN) keep one session between them, the one the lower device id opened, and exchange over it"
    )
    func oneSession() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            // Liveness is not what this test is about: a loaded machine must not drop sessions.
            let node1 = door1.makeMeshNode(helloInterval: .milliseconds(100), deadAfter: .seconds(60))
            let node2 = door2.makeMeshNode(helloInterval: .milliseconds(100), deadAfter: .seconds(60))
            let port1 = try await node1.listen(host: "127.0.0.1")
            let port2 = try await node2.listen(host: "127.0.0.1")
            await node1.keepJoined(host: "127.0.0.1", port: port2)
            await node2.keepJoined(host: "127.0.0.1", port: port1)
            #expect(await node1.waitUntil { $0.duplicates + $0.sessions >= 2 && $0.peers.count == 1 })
            // Several intervals on, each door still has one session: the other door's loop saw
            // the live session and did not join again.
            for node in [node1, node2] {
                let before = await node.snapshot.duplicates
                #expect(await node.waitUntil(timeout: .milliseconds(600)) { $0.duplicates > before + 1 } == false)
                let snapshot = await node.snapshot
                #expect(snapshot.sessions == 1, "\(snapshot)")
            }
            door2.update { $0.online = false }
            door2.scan(try await lab.ticket(lab.world.guests[1]))
            await door2.confirm(replayAfter: false)
            #expect(await node1.waitUntil { $0.received == 1 })
            await node1.stop()
            await node2.stop()
        }
    }

    @Test(
        "mesh-hello-bound: a door whose handshake used its own certificate but whose hello names another door's (certified too) is refused as uncertified: a hello speaks only for the certificate the handshake checked"
    )
    func helloBound() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            let door3 = try await lab.meshDoor(3)
            let node1 = door1.makeMeshNode()
            let port = try await node1.listen(host: "127.0.0.1")
            let module2 = try #require(door2.meshModule)
            let module3 = try #require(door3.meshModule)
            let clock = lab.api.clock.wallClock
            let trust = module2.handshakeTrust
            let impostor = MeshNode(
                host: MeshNode.Host(
                    credentials: { module2.nodeCredentials() }, hello: { module3.hello() },
                    batch: { hello throws(MeshRefusal) in try module2.batch(for: hello) },
                    receive: { module2.receive($0) },
                    check: { certificate in
                        let current = trust.withLockedValue { $0 }
                        return (try? current?.check(certificate, at: clock.now())) == nil ? .uncertified : nil
                    }))
            // Door 1 ends the session at the hello: the join ends without a peer.
            let session = await impostor.joinInBackground(host: "127.0.0.1", port: port)
            let refused = await node1.waitUntil(timeout: .seconds(10)) { $0.refused[.uncertified] == 1 }
            session.cancel()
            let snapshot = await node1.snapshot
            #expect(refused, "\(snapshot)")
            #expect(await node1.snapshot.peers.isEmpty)
            await node1.stop()
            await impostor.stop()
        }
    }

    /// A certified door's connection that sends `frames` heartbeats back to back, as fast as
    /// the socket takes them (no hello, no main actor in the way): a flood.
    private static func flood(port: Int, credentials: MeshNodeCredentials, frames: Int) async throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateChain = [
            .certificate(try NIOSSLCertificate(bytes: credentials.certificate, format: .der))
        ]
        configuration.privateKey = .privateKey(
            try NIOSSLPrivateKey(bytes: Array(credentials.key.pemRepresentation.utf8), format: .pem))
        configuration.certificateVerification = .none
        configuration.minimumTLSVersion = .tlsv13
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: nil))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let ping = MeshFrame.ping.encoded
        var buffer = channel.allocator.buffer(capacity: frames * (ping.count + 4))
        for _ in 0..<frames {
            buffer.writeInteger(UInt32(ping.count))
            buffer.writeBytes(ping)
        }
        try? await channel.writeAndFlush(buffer)
        try? await channel.closeFuture.get()
    }

    @Test(
        "mesh-flood: a certified door that sends frames faster than the node's limit (200 a second, bursts of 400) is cut off as a flood when they arrive, counted, each time it comes back; door 1 keeps serving the doors that behave; the allowance is a token bucket"
    )
    func flood() async throws {
        // The rule, without a clock: 2 × limit at once, then limit a second.
        var allowance = MeshFrameAllowance(limit: 10)
        var taken = 0
        for _ in 0..<25 where allowance.take(at: 0) { taken += 1 }
        #expect(taken == 20, "a burst of twice the limit")
        let refilled = allowance.take(at: 0.1)
        let spent = allowance.take(at: 0.1)
        #expect(refilled && !spent, "one frame's worth a tenth of a second later")
        taken = 0
        for _ in 0..<25 where allowance.take(at: 100) { taken += 1 }
        #expect(taken == 20, "refilled to the burst, never beyond")
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            let door3 = try await lab.meshDoor(3)
            let node1 = door1.makeMeshNode(helloInterval: .milliseconds(250), deadAfter: .seconds(60))
            let port = try await node1.listen(host: "127.0.0.1")
            let credentials = try #require(door2.meshModule?.nodeCredentials())
            for time in 1...2 {
                let flood = Task.detached { try await Self.flood(port: port, credentials: credentials, frames: 2_000) }
                if time == 1 {
                    // The first time, the door's main actor is busy for a second (a loaded machine,
                    // a slow screen): the flood must be seen where the frames arrive all the same.
                    let busy = ContinuousClock.now
                    var spins = 0
                    while ContinuousClock.now - busy < .seconds(1) { spins &+= 1 }
                    #expect(spins > 0)
                }
                try await flood.value
                let cut = await node1.waitUntil(timeout: .seconds(30)) { ($0.refused[.flood] ?? 0) >= time }
                let snapshot = await node1.snapshot
                #expect(cut, "\(snapshot)")
            }
            let node3 = door3.makeMeshNode(helloInterval: .milliseconds(250), deadAfter: .seconds(60))
            await node3.keepJoined(host: "127.0.0.1", port: port)
            let id3 = door3.deviceId
            #expect(await node1.waitUntil { $0.peers == [id3] })
            door3.update { $0.online = false }
            door3.scan(try await lab.ticket(lab.world.guests[2]))
            await door3.confirm(replayAfter: false)
            #expect(await node1.waitUntil { $0.received == 1 }, "door 1 still takes a well-behaved door's entries")
            #expect(await node1.snapshot.refused[.flood] == 2)
            await node1.stop()
            await node3.stop()
        }
    }

    @Test(
        "mesh-status-line: while a node runs, the door's screen shows the connected doors and how fresh each is, or that none is connected; without a node nothing is shown"
    )
    func statusLine() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            #expect(door1.tree().element(UIIdentifier.meshPeers) == nil, "no node, no line")
            let node1 = door1.makeMeshNode(helloInterval: .milliseconds(100), deadAfter: .seconds(60))
            let port = try await node1.listen(host: "127.0.0.1")
            door1.meshJoinCode = MeshJoinCode(host: "127.0.0.1", port: port, authority: door1.meshAuthorityFingerprint)
            let alone = try #require(door1.tree().element(UIIdentifier.meshPeers))
            #expect(alone.text.hasPrefix("Venue mesh: no other door connected"), "\(alone.text)")
            #expect(alone.attributes["peers"] == "0")
            #expect(alone.attributes["join"]?.hasPrefix("outpost-mesh://127.0.0.1:\(port)#") == true)
            let node2 = door2.makeMeshNode(helloInterval: .milliseconds(100), deadAfter: .seconds(60))
            await node2.keepJoined(host: "127.0.0.1", port: port)
            #expect(await node1.waitUntil { $0.peers.count == 1 })
            // The main actor takes the node's report after this turn.
            for _ in 0..<50 where door1.tree().element(UIIdentifier.meshPeers)?.attributes["peers"] != "1" {
                await Task.yield()
            }
            let line = try #require(door1.tree().element(UIIdentifier.meshPeers))
            #expect(line.attributes["peers"] == "1", "\(line)")
            #expect(line.text.contains("door \(MeshModule.shortDoor(door2.deviceId)) · "), "\(line.text)")
            #expect(line.text.contains(" s ago"), "\(line.text)")
            await node2.stop()
            #expect(await node1.waitUntil { $0.peers.isEmpty })
            for _ in 0..<50 where door1.tree().element(UIIdentifier.meshPeers)?.attributes["peers"] != "0" {
                await Task.yield()
            }
            #expect(door1.tree().element(UIIdentifier.meshPeers)?.attributes["peers"] == "0")
            await node1.stop()
        }
    }
}
