import Foundation
import GRDB
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

/// Ordinary conditions that used to lose confirmed check-ins: each test drives a real
/// server over loopback HTTP the way a door would meet the condition.
@Suite("Nothing confirmed is lost: scanner suffixes, captive portals, token rotation, shared devices")
struct KeepsConfirmedWorkTests {
    static let scannerSuffixes = [" ", "\r", "\n", "\r\n", "\t", " \r\n"]

    @Test("scanner-suffix: a ticket scanned with a keyboard-wedge suffix is sent as verified and accepted (201)")
    func scannerSuffix() async throws {
        try await DeviceLab.run(guests: Self.scannerSuffixes.count) { lab in
            let app = try await lab.readyDevice("suffix")
            for (guest, suffix) in zip(lab.world.guests, Self.scannerSuffixes) {
                app.scan(try await lab.ticket(guest) + suffix)
                #expect(app.tree().screen == UIIdentifier.confirmationScreen, "suffix \(suffix.debugDescription)")
                await app.confirm()
            }
            await app.sync()
            #expect(app.pendingCount == 0)
            #expect(!app.tree().contains(UIIdentifier.syncRejectedBanner))
            #expect(app.ledger.map(\.status) == Array(repeating: 201, count: Self.scannerSuffixes.count))
            #expect(try await lab.serverCheckIns().count == Self.scannerSuffixes.count)
        }
    }

    @Test(
        "captive-portal: 403, 407, 413, an HTML 404, a 302 and an HTML 200 leave the check-in queued; it is sent once the portal is gone",
        arguments: [403, 407, 413, 404, 302, 200, 500])
    func captivePortal(status: Int) async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("portal")
            let (app, portal) = try lab.launch("portal", wrapping: { inner in CaptivePortalTransport(inner) })
            await app.openEvent(lab.world.event.id)
            let guest = lab.world.guests[0]
            portal.value?.portal(status)
            app.scan(try await lab.ticket(guest))
            await app.confirm()
            await app.sync()
            #expect((portal.value?.answered ?? 0) > 0)
            var tree = app.tree()
            #expect(tree.pending == 1, "the portal's \(status) is not the server's answer")
            #expect(!tree.contains(UIIdentifier.syncRejectedBanner))
            #expect(app.isSignedIn)
            portal.value?.portal(nil)
            await app.sync()
            tree = app.tree()
            #expect(tree.pending == 0)
            #expect(try await lab.serverCheckIns() == [guest.id: 1])
        }
    }

    @Test("refresh-rotation-saved: when the request retried after a refresh fails, the rotated token is kept")
    func rotationSavedWhenRetryFails() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("rotation")
            let (app, faults) = try lab.launch("rotation", wrapping: { inner in ScriptedFaultTransport(inner) })
            await app.showEvents()  // the transport exists from here on
            lab.api.clock.advance(by: 16 * 60)  // the access token has expired
            // The first request after the refresh (the retried one) never arrives.
            faults.value?.failOnce(.dropRequest) { request, refreshes in
                refreshes == 1 && request.path != "/v1/auth/refresh"
            }
            await app.showEvents()
            #expect(
                faults.value?.faults == 1 && faults.value?.refreshes == 1,
                "faults \(faults.value?.faults ?? -1), refreshes \(faults.value?.refreshes ?? -1)")
            #expect(app.isSignedIn)
            // A new launch with a working network: the stored refresh token is the rotated one.
            lab.api.clock.advance(by: 16 * 60)
            let relaunched = try lab.launch("rotation")
            await relaunched.showEvents()
            #expect(relaunched.isSignedIn, "the stored refresh token was the one already rotated")
            #expect(relaunched.tree().elements(UIIdentifier.eventRow).count == 1)
        }
    }

    @Test(
        "refresh-response-lost: a refresh answer lost in transit does not sign the device out; pending check-ins sync")
    func refreshResponseLost() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("lost-refresh")
            let (app, faults) = try lab.launch("lost-refresh", wrapping: { inner in ScriptedFaultTransport(inner) })
            await app.openEvent(lab.world.event.id)
            app.update { $0.online = false }
            app.scan(try await lab.ticket(lab.world.guests[0]))
            await app.confirm()
            app.update { $0.online = true }
            lab.api.clock.advance(by: 16 * 60)
            faults.value?.failOnce(.dropResponse) { request, _ in request.path == "/v1/auth/refresh" }
            await app.sync()
            #expect(faults.value?.faults == 1)
            #expect(app.isSignedIn)
            await app.sync()
            #expect(app.isSignedIn, "the retried refresh got the same successor within the grace window")
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns() == [lab.world.guests[0].id: 1])
        }
    }

    @Test("shared-device-kept-outbox: a kept outbox neither blocks the next user nor is sent under their token")
    func keptOutboxOtherUser() async throws {
        try await DeviceLab.run { lab in
            let alexId = lab.world.staff1.user.id
            let beaId = lab.world.staff2.user.id
            let alex = try await lab.readyDevice("shared")
            alex.update { $0.online = false }
            alex.scan(try await lab.ticket(lab.world.guests[0]))
            await alex.confirm()
            alex.update { $0.online = true }
            await alex.signOut(.keep)
            #expect(!alex.isSignedIn)
            // Bea signs in on the same device and checks a guest in.
            let bea = try await lab.readyDevice("shared", email: "bea@acme.test")
            bea.scan(try await lab.ticket(lab.world.guests[1]))
            await bea.confirm()
            await bea.sync()
            #expect(try await lab.serverCheckIns() == [lab.world.guests[1].id: 1], "Alex's entry waits for Alex")
            #expect(try await lab.audit().map(\.userId) == [beaId])
            // Bea signs out with nothing of her own pending: Alex's kept entry stays.
            await bea.signOut()
            #expect(!bea.isSignedIn)
            let again = try await lab.readyDevice("shared")
            await again.sync()
            #expect(again.pendingCount == 0)
            #expect(
                try await lab.serverCheckIns() == [lab.world.guests[0].id: 1, lab.world.guests[1].id: 1])
            #expect(try await lab.audit().map(\.userId) == [beaId, alexId], "each entry under its own user")
        }
    }

    @Test("signin-over-session: signing in as another user over a session keeps the first user's entries theirs")
    func signInOverSession() async throws {
        try await DeviceLab.run { lab in
            let alex = try await lab.readyDevice("over")
            alex.update { $0.online = false }
            alex.scan(try await lab.ticket(lab.world.guests[0]))
            await alex.confirm()
            alex.update { $0.online = true }
            // Without signing out, Bea signs in on the same app.
            await alex.signIn(server: lab.serverURL, email: "bea@acme.test", password: DeviceLab.staffPassword)
            #expect(alex.tree().user == "bea@acme.test")
            await alex.sync()
            #expect(try await lab.serverCheckIns().isEmpty, "Alex's check-in is never sent as Bea")
            await alex.signOut()
            let again = try await lab.readyDevice("over")
            await again.sync()
            #expect(try await lab.serverCheckIns() == [lab.world.guests[0].id: 1])
            #expect(try await lab.audit().map(\.userId) == [lab.world.staff1.user.id])
        }
    }

    @Test("outbox-quarantine: a row that cannot be unsealed is set aside and kept on disk; the rest replay")
    func quarantine() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("damaged")
            app.update { $0.online = false }
            for guest in lab.world.guests {
                app.scan(try await lab.ticket(guest))
                await app.confirm()
            }
            #expect(app.pendingCount == 3)
            // Damage the middle entry's sealed request on disk.
            let database = try DatabaseQueue(path: lab.home("damaged").appendingPathComponent("device.sqlite").path)
            try await database.write { db in
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM outbox ORDER BY id")
                try db.execute(
                    sql: "UPDATE outbox SET request = ? WHERE id = ?",
                    arguments: [Data(repeating: 7, count: 64), ids[1]])
            }
            try database.close()
            let relaunched = try lab.launch("damaged")
            await relaunched.sync()
            #expect(
                try await lab.serverCheckIns() == [lab.world.guests[0].id: 1, lab.world.guests[2].id: 1],
                "replay goes on past the damaged row")
            let tree = relaunched.tree()
            #expect(tree.pending == 0)
            #expect(tree.element(UIIdentifier.syncQuarantinedBanner)?.attributes["count"] == "1")
            let onDisk = try DatabaseQueue(path: lab.home("damaged").appendingPathComponent("device.sqlite").path)
            #expect(try await onDisk.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") } == 1)
            try onDisk.close()
        }
    }

    @Test(
        "outbox-damage-simulator-kind: the simulator damages the newest pending check-in, not a newer entry of another module (a soak counted a damaged walk-in as a lost check-in)"
    )
    func damageSimulatorKind() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("damaged-kind")
            app.update { $0.online = false }
            app.scan(try await lab.ticket(lab.world.guests[0]))
            await app.confirm()
            let checkInKey = try #require(app.ledger.first?.idempotencyKey)
            // A newer pending entry of another module (a walk-in's, as the soak makes).
            let path = lab.home("damaged-kind").appendingPathComponent("device.sqlite").path
            let database = try DatabaseQueue(path: path)
            try await database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO outbox (event_id, idempotency_key, request, created_at, next_attempt_at, kind, owner)
                        SELECT event_id, 'walkin-newer', request, created_at + 1, 0, 'walkin', owner FROM outbox
                        """)
            }
            try database.close()
            let relaunched = try lab.launch("damaged-kind")
            #expect(relaunched.simulateDamagedOutboxEntry(kind: .checkIn) == checkInKey)
            let onDisk = try DatabaseQueue(path: path)
            let damaged = try await onDisk.read {
                try String.fetchAll(
                    $0, sql: "SELECT idempotency_key FROM outbox WHERE request = ?",
                    arguments: [
                        Data(repeating: 0x5A, count: 64)
                    ])
            }
            #expect(damaged == [checkInKey], "the walk-in's entry is untouched")
            try onDisk.close()
        }
    }
}
