import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostCheckIn
@testable import OutpostMesh
@testable import OutpostShell

/// The venue mesh over real sockets: two doors' nodes on loopback, mutual TLS 1.3 with the
/// tenant authority's certificates, the server out of reach.
@Suite("Venue mesh over the network")
struct MeshNetworkTests {
    @Test(
        "mesh-mtls-loopback: door 2 joins door 1 over mutual TLS; a check-in confirmed at door 1 reaches door 2 by push (no later hello: their interval is an hour here), where the same ticket then shows as already checked in"
    )
    func loopback() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            let node1 = door1.makeMeshNode(helloInterval: .seconds(3600))
            let node2 = door2.makeMeshNode(helloInterval: .seconds(3600))
            let port = try await node1.listen(host: "127.0.0.1")
            let session = await node2.joinInBackground(host: "127.0.0.1", port: port)
            let (id1, id2) = (door1.deviceId, door2.deviceId)
            #expect(await node1.waitUntil { $0.peers == [id2] }, "door 1 sees door 2")
            #expect(await node2.waitUntil { $0.peers == [id1] }, "door 2 sees door 1")
            door1.update { $0.online = false }
            door2.update { $0.online = false }
            let guest = lab.world.guests[0]
            door1.scan(try await lab.ticket(guest))
            let started = ContinuousClock.now
            await door1.confirm()
            #expect(await node2.waitUntil { $0.received == 1 }, "the entry reached door 2")
            print("mesh-mtls-loopback: confirm at door 1 to kept at door 2 in \(ContinuousClock.now - started)")
            #expect(door2.meshLog?.count == 1)
            door2.scan(try await lab.ticket(guest))
            #expect(!door2.tree().elements(UIIdentifier.alreadyCheckedIn).isEmpty, "\(door2.tree().elements)")
            door2.cancel()
            let refusals = (await node1.snapshot.refused, await node2.snapshot.refused)
            #expect(refusals.0.isEmpty && refusals.1.isEmpty, "\(refusals)")
            await node2.stop()
            await node1.stop()
            session.cancel()
        }
    }

    @Test(
        "mesh-mtls-refused: a door of another tenant cannot join: it refuses door 1's certificate (another authority's), and a rogue that skips that check is refused by door 1's handshake, each counted as uncertified; door 1 keeps serving its own doors"
    )
    func refused() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let stranger = try lab.launch("stranger", clock: lab.api.clock.wallClock)
            await stranger.signIn(server: lab.serverURL, email: "org@other.test", password: "organizer-pass")
            await stranger.openEvent(lab.world.otherEvent.id)
            let node1 = door1.makeMeshNode()
            let port = try await node1.listen(host: "127.0.0.1")
            let strangerNode = stranger.makeMeshNode()
            await #expect(throws: (any Error).self) { try await strangerNode.join(host: "127.0.0.1", port: port) }
            #expect(await strangerNode.snapshot.refused == [.uncertified: 1])
            // A rogue: the stranger's credentials, accepting any server.
            let strangerModule = try #require(stranger.meshModule)
            let rogue = MeshNode(
                host: MeshNode.Host(
                    credentials: { strangerModule.nodeCredentials() }, hello: { strangerModule.hello() },
                    batch: { hello throws(MeshRefusal) in try strangerModule.batch(for: hello) },
                    receive: { strangerModule.receive($0) }, check: { _ in nil }))
            await #expect(throws: (any Error).self) { try await rogue.join(host: "127.0.0.1", port: port) }
            let counted = await node1.waitUntil { $0.refused[.uncertified] == 1 }
            let snapshot = await node1.snapshot
            #expect(counted, "\(snapshot.refused)")
            #expect(snapshot.peers.isEmpty)
            // Door 2 of the same tenant still joins.
            let door2 = try await lab.meshDoor(2)
            let node2 = door2.makeMeshNode()
            let session = await node2.joinInBackground(host: "127.0.0.1", port: port)
            let id2 = door2.deviceId
            #expect(await node1.waitUntil { $0.peers == [id2] })
            await node2.stop()
            await node1.stop()
            await strangerNode.stop()
            await rogue.stop()
            session.cancel()
        }
    }
}
