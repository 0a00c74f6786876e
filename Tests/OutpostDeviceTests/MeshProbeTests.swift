import Foundation
import NIOConcurrencyHelpers
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostCheckIn
@testable import OutpostMesh
@testable import OutpostShell

/// The venue mesh on real doors against a real server: certified at sync, each confirmed
/// check-in signed into the door's log, exchanged door to door with the server out of reach.
/// The doors keep the server's (test) time: a certificate is checked against the door's clock.
@Suite("Venue mesh at the doors")
struct MeshProbeTests {
    @Test(
        "mesh-second-door-denied: with the server out of reach, a guest admitted at door 1 and exchanged to door 2 shows there as already checked in by door 1's staff (re-confirm, no green admit); back online, the server has one check-in, and peers' entries never enter door 2's outbox"
    )
    func secondDoorDenied() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            #expect(door1.meshHello() != nil && door2.meshHello() != nil, "each door was certified at its sync")
            door1.update { $0.online = false }
            door2.update { $0.online = false }
            let guest = lab.world.guests[0]
            door1.scan(try await lab.ticket(guest))
            await door1.confirm()
            #expect(door1.meshLog?.count == 1)
            // Door 2 meets door 1: only what it lacks comes over.
            let batch = try door1.meshBatch(for: try #require(door2.meshHello()))
            #expect(batch.entries.count == 1 && batch.certificates.count == 1)
            let receipt = door2.meshReceive(batch)
            #expect(receipt.added == 1 && receipt.refused.isEmpty, "\(receipt)")
            #expect(door2.meshReceive(batch).known == 1, "a replayed batch changes nothing")
            #expect(try door1.meshBatch(for: try #require(door2.meshHello())).entries.isEmpty)
            // The same ticket at door 2: already checked in, by Alex at door 1.
            door2.scan(try await lab.ticket(guest))
            let tree = door2.tree()
            let already = try #require(tree.elements(UIIdentifier.alreadyCheckedIn).first, "\(tree.elements)")
            #expect(already.text.contains("Alex on \(door1.deviceId)"), "\(already.text)")
            #expect(tree.elements(UIIdentifier.confirmButton).isEmpty)
            #expect(!tree.elements(UIIdentifier.reconfirmButton).isEmpty)
            door2.cancel()
            // Another guest is still a green admit at door 2.
            door2.scan(try await lab.ticket(lab.world.guests[1]))
            #expect(!door2.tree().elements(UIIdentifier.confirmButton).isEmpty)
            door2.cancel()
            #expect(door2.ledger.isEmpty, "a peer's entry is not door 2's to send")
            door1.update { $0.online = true }
            door2.update { $0.online = true }
            await door1.sync()
            await door2.sync()
            #expect(try await lab.serverCheckIns() == [guest.id: 1])
        }
    }

    @Test(
        "mesh-custody-upload: door 1 admits two guests offline and goes dark; door 2 heard them, its staff signs out offline and back in, and its sync hands them in: the server has both as Alex's on door 1; when door 1 comes back its own requests are answered as retries (no rejected check-ins) and fill in the method"
    )
    func custodyUpload() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            door1.update { $0.online = false }
            door2.update { $0.online = false }
            let guests = Array(lab.world.guests.prefix(2))
            for guest in guests {
                door1.scan(try await lab.ticket(guest))
                await door1.confirm()
            }
            try door2.meshTake(from: door1)
            #expect(door2.meshLog?.count == 2)
            let mesh2 = try #require(door2.meshModule)
            #expect(try mesh2.store.heldForServer(except: door2.deviceId).values.reduce(0, +) == 2)
            // Door 2's staff signs out offline: nothing of theirs waits, and the peers' entries
            // stay on the door for the server.
            #expect(door2.pendingCount == 0)
            await door2.signOut()
            #expect(!door2.isSignedIn)
            #expect(try mesh2.store.heldForServer(except: door2.deviceId).values.reduce(0, +) == 2)
            door2.update { $0.online = true }
            await door2.signIn(server: lab.serverURL, email: "bea@acme.test", password: DeviceLab.staffPassword)
            await door2.openEvent(lab.world.event.id)
            await door2.sync()
            #expect(try mesh2.store.heldForServer(except: door2.deviceId).isEmpty)
            #expect(try await lab.serverCheckIns() == [guests[0].id: 1, guests[1].id: 1])
            let audit = try await lab.audit().filter { $0.kind == .checkedIn }
            #expect(audit.count == 2)
            #expect(audit.allSatisfy { $0.deviceId == door1.deviceId && $0.method == "mesh" }, "\(audit)")
            // Door 1 comes back: its outbox drains as retries of what door 2 handed in.
            door1.update { $0.online = true }
            await door1.sync()
            #expect(door1.pendingCount == 0)
            #expect(door1.ledger.allSatisfy { $0.status == 201 }, "\(door1.ledger)")
            #expect(door1.tree().elements(UIIdentifier.syncRejectedBanner).isEmpty, "\(door1.tree().elements)")
            #expect(try await lab.serverCheckIns() == [guests[0].id: 1, guests[1].id: 1])
        }
    }

    @Test(
        "mesh-restored-numbering: a door whose store comes back from a backup without its last entries (the key store outside it kept the numbers it signed) numbers its next entry after them, never signing a number twice (a fork at every peer that had them)"
    )
    func restoredNumbering() async throws {
        try await DeviceLab.run { lab in
            let door = try await lab.meshDoor(1, clock: lab.api.clock.wallClock)
            door.update { $0.online = false }
            for guest in lab.world.guests.prefix(2) {
                door.scan(try await lab.ticket(guest))
                await door.confirm(replayAfter: false)
            }
            #expect(door.meshLog?.vector[door.deviceId] == 2)
            let mesh = try #require(door.meshModule)
            mesh.numbersRecorded()
            // The backup: the store without the door's two entries; the app launched again on it.
            try await mesh.store.queue.write { db in try db.execute(sql: "DELETE FROM mesh_entries") }
            let restored = try lab.launch("door1", clock: lab.api.clock.wallClock)
            await restored.openEvent(lab.world.event.id)
            restored.update { $0.online = false }
            #expect(restored.meshLog?.count == 0)
            restored.scan(try await lab.ticket(lab.world.guests[2]))
            await restored.confirm(replayAfter: false)
            let entry = try #require(restored.meshLog?.admissions(of: lab.world.guests[2].id).first)
            #expect(entry.seq == 3, "numbered after the two the key store recorded")
        }
    }

    @Test(
        "mesh-late-peer-admission: door 2's card is green when door 1's admission of the same guest arrives; confirm is then refused with why and commits nothing, the card shows already checked in, and a second confirm only re-confirms (no entry, no second admission in the mesh)"
    )
    func latePeerAdmission() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            door1.update { $0.online = false }
            door2.update { $0.online = false }
            let guest = lab.world.guests[0]
            door2.scan(try await lab.ticket(guest))
            #expect(!door2.tree().elements(UIIdentifier.confirmButton).isEmpty, "green at first")
            door1.scan(try await lab.ticket(guest))
            await door1.confirm()
            try door2.meshTake(from: door1)
            await door2.confirm(replayAfter: false)
            let refusal = try #require(door2.refusal)
            #expect(refusal.contains("checked in a moment ago by Alex on \(door1.deviceId)"), "\(refusal)")
            #expect(door2.ledger.isEmpty, "nothing committed")
            let tree = door2.tree()
            #expect(!tree.elements(UIIdentifier.alreadyCheckedIn).isEmpty, "\(tree.elements)")
            await door2.confirm(replayAfter: false)
            #expect(door2.refusal == nil)
            #expect(door2.ledger.count == 1, "the re-confirm is door 2's to send")
            #expect(door2.meshLog?.admissions(of: guest.id).count == 1, "one admission in the mesh")
        }
    }

    @Test(
        "mesh-trusted-time: a door whose clock falls three days behind after its sync (a kiosk without a real-time clock rebooted) still accepts its peers, checking their certificates at the server's time of its last certificate plus the time since; the trusted time never goes back past the wall clock"
    )
    func trustedTime() async throws {
        try await DeviceLab.run { lab in
            let behind = NIOLockedValueBox<TimeInterval>(0)
            let server = lab.api.clock.wallClock
            let skewed = WallClock { server.now().addingTimeInterval(-behind.withLockedValue { $0 }) }
            let door1 = try await lab.meshDoor(1, clock: server)
            let door2 = try await lab.meshDoor(2, clock: skewed)
            door1.update { $0.online = false }
            door2.update { $0.online = false }
            door1.scan(try await lab.ticket(lab.world.guests[0]))
            await door1.confirm()
            behind.withLockedValue { $0 = 3 * 86_400 }
            let receipt = try door2.meshTake(from: door1)
            #expect(receipt.added == 1 && receipt.refused.isEmpty, "\(receipt)")
            // The rule itself: the later of the wall clock and the anchor plus the monotonic time
            // since, on the same boot only.
            let anchor = (Date(timeIntervalSince1970: 1_000_000), MonotonicInstant(boot: "a", seconds: 100))
            let wall = Date(timeIntervalSince1970: 500)
            #expect(
                MeshModule.trustedTime(wall: wall, anchor: anchor, monotonic: .init(boot: "a", seconds: 160))
                    == Date(timeIntervalSince1970: 1_000_060))
            #expect(
                MeshModule.trustedTime(wall: wall, anchor: anchor, monotonic: .init(boot: "b", seconds: 160)) == wall)
            let ahead = Date(timeIntervalSince1970: 2_000_000)
            #expect(
                MeshModule.trustedTime(wall: ahead, anchor: anchor, monotonic: .init(boot: "a", seconds: 160)) == ahead)
        }
    }

    @Test(
        "mesh-kiosk-denied: a guest admitted at door 1 and exchanged to door 2 is already checked in to what the kiosk asks of check-in (by ticket and by e-mail), so a kiosk never welcomes them as new"
    )
    func kioskDenied() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            door1.update { $0.online = false }
            door2.update { $0.online = false }
            let guest = lab.world.guests[0]
            let desk: any CheckInDesk = try #require(door2.checkInModule)
            #expect(desk.guest(eventId: lab.world.event.id, id: guest.id)?.checkIn == nil)
            door1.scan(try await lab.ticket(guest))
            await door1.confirm()
            try door2.meshTake(from: door1)
            let seen = try #require(desk.guest(eventId: lab.world.event.id, id: guest.id))
            #expect(seen.checkIn?.byName == "Alex on \(door1.deviceId)", "\(String(describing: seen.checkIn))")
            let byEmail = desk.guests(eventId: lab.world.event.id, email: guest.email)
            #expect(!byEmail.isEmpty && byEmail.allSatisfy { $0.checkIn != nil })
        }
    }

    /// Answers 503 to the mesh's certificate request, and passes everything else on.
    struct NoMeshCertificates: Transport {
        let inner: any Transport

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            guard !request.path.hasSuffix("/mesh/certificate") else {
                return TransportResponse(status: 503, body: Data())
            }
            return try await inner.send(request)
        }
    }

    @Test(
        "mesh-no-credentials: a door whose certificate never came (the server refused it, a proxy ate it) checks guests in as before, offline too: the check-in commits, no entry is signed, nothing is read inside the check-in's transaction"
    )
    func noCredentials() async throws {
        try await DeviceLab.run { lab in
            let door = try await lab.readyDevice(
                "door", clock: lab.api.clock.wallClock, transport: { NoMeshCertificates(inner: $0) })
            #expect(door.meshHello() == nil)
            door.update { $0.online = false }
            for guest in lab.world.guests.prefix(2) {
                door.scan(try await lab.ticket(guest))
                await door.confirm()
            }
            #expect(door.ledger.count == 2)
            #expect(door.meshLog == nil)
            door.update { $0.online = true }
            await door.sync()
            #expect(try await lab.serverCheckIns().count == 2)
        }
    }

    @Test(
        "mesh-peer-refused: a door of another tenant is refused at hello (uncertified: another authority), as is a hello whose certificate is not one; a batch with a tampered entry keeps the rest and counts the refusal"
    )
    func peerRefused() async throws {
        try await DeviceLab.run { lab in
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            let stranger = try lab.launch("stranger", clock: lab.api.clock.wallClock)
            await stranger.signIn(server: lab.serverURL, email: "org@other.test", password: "organizer-pass")
            await stranger.openEvent(lab.world.otherEvent.id)
            let strangerHello = try #require(stranger.meshHello())
            #expect(throws: MeshRefusal.uncertified) { try door1.meshBatch(for: strangerHello) }
            #expect(throws: MeshRefusal.malformed) {
                try door1.meshBatch(for: MeshHello(certificate: [1, 2, 3], vector: VersionVector()))
            }
            door1.update { $0.online = false }
            for guest in lab.world.guests.prefix(2) {
                door1.scan(try await lab.ticket(guest))
                await door1.confirm()
            }
            var batch = try door1.meshBatch(for: try #require(door2.meshHello()))
            #expect(batch.entries.count == 2)
            batch.entries[0].scannedAt += 60_000
            let receipt = door2.meshReceive(batch)
            #expect(receipt.added == 1 && receipt.refused == [.badSignature: 1], "\(receipt)")
            // The stranger's own batch: its author's certificate is another authority's.
            let foreign = MeshBatch(
                certificates: [strangerHello.certificate], revocations: [], entries: [])
            #expect(door2.meshReceive(foreign).refused == [.uncertified: 1])
        }
    }
}

/// Revocation travels door to door: a peer refuses a revoked door once it has learnt of it
/// from anyone, without reaching the server itself.
@Suite("Venue mesh revocation")
struct MeshRevocationProbeTests {
    @Test(
        "mesh-revocation-gossip: the organizer ends every sign-in of door 3's user; door 1 learns it at its sync and passes it on; door 2, offline throughout, then refuses door 3's hello (revoked) and its new entries (unknown author), while door 3's earlier entry stays kept"
    )
    func revocationGossip() async throws {
        try await DeviceLab.run { lab in
            let clock = lab.api.clock.wallClock
            let door1 = try await lab.meshDoor(1)
            let door2 = try await lab.meshDoor(2)
            let carol = try await lab.api.createUser(
                lab.world.organizer, email: "carol@acme.test", role: .checkinStaff, name: "Carol")
            try await lab.api.assign(lab.world.organizer, staff: carol, to: lab.world.event)
            let door3 = try await lab.readyDevice("door3", email: "carol@acme.test", clock: clock)
            for door in [door2, door3] { door.update { $0.online = false } }
            // Door 3 admits a guest and door 2 learns it, door 3 still in good standing.
            door3.scan(try await lab.ticket(lab.world.guests[0]))
            await door3.confirm()
            #expect(door2.meshReceive(try door3.meshBatch(for: try #require(door2.meshHello()))).added == 1)
            // Carol's sign-ins end on the server; door 1 syncs and learns the revocation.
            let ended = try await lab.api.request(
                .post, API.signOutUser.path(carol.user.id), token: lab.world.organizer.accessToken)
            #expect((200..<300).contains(ended.status))
            await door1.sync()
            let fromDoor1 = try door1.meshBatch(for: try #require(door2.meshHello()))
            #expect(fromDoor1.revocations.count == 1)
            #expect(door2.meshReceive(fromDoor1).refused.isEmpty)
            // Door 2 now refuses door 3, which never heard of it.
            let door3Hello = try #require(door3.meshHello())
            #expect(throws: MeshRefusal.revoked) { try door2.meshBatch(for: door3Hello) }
            door3.scan(try await lab.ticket(lab.world.guests[1]))
            await door3.confirm()
            let late = try door3.meshBatch(for: try #require(door2.meshHello()))
            let receipt = door2.meshReceive(late)
            #expect(receipt.added == 0 && receipt.refused[.revoked] == 1, "\(receipt)")
            #expect(door2.meshLog?.count == 1, "door 3's earlier entry stays: it happened")
        }
    }
}
