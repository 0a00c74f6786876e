import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// Seed 001 (EF-061 check-in app) probes, against a real server over loopback HTTP.
@Suite("Check-in probes (seed 001)")
struct CheckInProbeTests {
    @Test(
        "launch-on-min-os and launch-on-too-old-os: iOS 16.0 and API 30 run; iOS 15 and API 28 see only the force-upgrade screen"
    )
    func forceUpgrade() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("os")  // caches the server's client policy
            for platform in [PlatformInfo(os: .ios, version: "16.0"), PlatformInfo(os: .android, version: "30")] {
                let tree = try lab.launch("os", platform: platform).tree()
                #expect(tree.screen == UIIdentifier.eventShell, "\(platform)")
                #expect(!tree.contains(UIIdentifier.forceUpgradeScreen))
            }
            for platform in [PlatformInfo(os: .ios, version: "15.7"), PlatformInfo(os: .android, version: "28")] {
                let app = try lab.launch("os", platform: platform)
                await app.openEvent(lab.world.event.id)
                app.scan(try await lab.ticket(lab.world.guests[0]))
                let tree = app.tree()
                #expect(tree.screen == UIIdentifier.forceUpgradeScreen, "\(platform)")
                #expect(tree.visible == [UIIdentifier.forceUpgradeScreen], "no other navigation")
                #expect(tree.element(UIIdentifier.forceUpgradeScreen)?.attributes["storeLink"]?.isEmpty == false)
            }
        }
    }

    @Test(
        "force-upgrade-first-contact: a fresh install on a too-old OS asks the server's policy before any password leaves, shows only the force-upgrade screen, and keeps it offline after a relaunch"
    )
    func forceUpgradeFirstContact() async throws {
        try await DeviceLab.run { lab in
            let old = PlatformInfo(os: .ios, version: "15.7")
            let (app, box) = try lab.launch("fresh-old", wrapping: { RecordingTransport($0) })
            app.update { $0.platform = old }
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(app.tree().screen == UIIdentifier.forceUpgradeScreen)
            #expect(!app.isSignedIn)
            let paths = box.value?.requests.map(\.path) ?? []
            #expect(paths == ["/v1/client-policy"], "no password was sent: \(paths)")
            let relaunched = try lab.launch("fresh-old", online: false, platform: old)
            #expect(relaunched.tree().visible == [UIIdentifier.forceUpgradeScreen], "the policy was cached")
            // The same install on a supported OS signs in.
            let current = try lab.launch("fresh-old")
            await current.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(current.isSignedIn)
        }
    }

    @Test(
        "force-upgrade-no-bypass: below the policy the engine itself refuses opening events, scanning, manual entry, confirming, the event list, sign-out and kiosk mode"
    )
    func forceUpgradeNoBypass() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("bypass")
            let ticket = try await lab.ticket(lab.world.guests[0])
            let app = try lab.launch("bypass", platform: PlatformInfo(os: .ios, version: "15.7"))
            #expect(app.upgradeRequired)
            await app.showEvents()
            await app.openEvent(lab.world.event.id)
            app.scan(ticket)
            app.lookup("Guest")
            app.checkIn(code: "NOPE")
            await app.confirm()
            app.enterKiosk()
            await app.signOut(.keep)
            #expect(app.tree().visible == [UIIdentifier.forceUpgradeScreen])
            #expect(app.isSignedIn && app.pendingCount == 0 && !app.isKioskActive)
            // Nothing happened underneath: on a supported OS the device is where it was.
            let current = try lab.launch("bypass")
            #expect(current.tree().screen == UIIdentifier.eventShell)
            #expect(current.pendingCount == 0)
            #expect(try await lab.serverCheckIns().isEmpty)
        }
    }

    @Test(
        "scan-valid-guest: the confirmation screen shows name, access type, status and notes; confirm shows the green card"
    )
    func scanValidGuest() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("scan")
            let guest = lab.world.guests[1]
            app.scan(try await lab.ticket(guest))
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.confirmationScreen)
            let screen = try #require(tree.element(UIIdentifier.confirmationScreen))
            #expect(screen.text == guest.name)
            #expect(screen.attributes["accessType"] == "General")
            #expect(screen.attributes["status"] == "confirmed")
            #expect(screen.attributes["notes"] == guest.notes)
            #expect(tree.contains(UIIdentifier.confirmButton) && tree.contains(UIIdentifier.cancelButton))
            await app.confirm()
            let after = app.tree()
            #expect(after.screen == UIIdentifier.eventShell)
            #expect(after.element(UIIdentifier.checkedInCard)?.attributes["dismissAfter"] == "1.5")
            #expect(!after.contains(UIIdentifier.syncingIndicator), "online: synced right away")
            #expect(try await lab.serverCheckIns() == [guest.id: 1])
        }
    }

    @Test("cancel on the confirmation screen writes nothing")
    func cancelWritesNothing() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("cancel")
            app.scan(try await lab.ticket(lab.world.guests[0]))
            app.cancel()
            #expect(app.tree().screen == UIIdentifier.eventShell)
            #expect(app.tree().pending == 0)
            #expect(try await lab.serverCheckIns().isEmpty)
        }
    }

    @Test("wrong-event-banner and tampered-qr-banner: identical element structure, no network call for either")
    func banners() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("banners")
            let (app, recorder) = try lab.launch("banners", wrapping: { inner in RecordingTransport(inner) })
            await app.openEvent(lab.world.event.id)
            let requestsBefore = recorder.value?.requests.count ?? 0
            // A ticket of another event of the same tenant, and of another tenant.
            let second = try await lab.api.createEvent(lab.world.organizer, name: "Second")
            let secondType = try await lab.api.createAccessType(lab.world.organizer, event: second)
            let elsewhere = try await lab.api.createGuest(
                lab.world.organizer, event: second, accessType: secondType, name: "Elsewhere")
            let otherEventTicket = try await lab.ticket(elsewhere, event: second)
            app.scan(otherEventTicket)
            let wrongEvent = try #require(app.tree().element(UIIdentifier.crossEventBanner))
            #expect(!wrongEvent.text.contains("Second"), "the banner never names the other event")
            var forged = Array(try await lab.ticket(lab.world.guests[0]))
            forged[150] = forged[150] == "A" ? "B" : "A"
            app.scan(String(forged))
            let tampered = try #require(app.tree().element(UIIdentifier.tamperedBanner))
            #expect(Set(wrongEvent.attributes.keys) == Set(tampered.attributes.keys))
            #expect(app.tree().screen == UIIdentifier.eventShell)
            app.scan("not a ticket at all")
            #expect(app.tree().contains(UIIdentifier.tamperedBanner))
            #expect((recorder.value?.requests.count ?? 0) == requestsBefore, "no network call for a refused ticket")
            #expect(app.tree().pending == 0)
        }
    }

    @Test(
        "camera-revoked-manual-entry-works: with the camera denied, a guest is found by name and by code and checked in"
    )
    func manualEntryWithoutCamera() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("manual")
            let app = try lab.launch("manual", camera: .denied)
            await app.openEvent(lab.world.event.id)
            #expect(app.tree().contains(UIIdentifier.cameraPermissionPrompt))
            let guest = lab.world.guests[2]
            app.lookup(String(guest.name.prefix(7)).lowercased())
            let suggestion = try #require(app.tree().elements(UIIdentifier.manualEntrySuggestion).first)
            #expect(suggestion.attributes["guestId"] == guest.id.wire)
            app.choose(guestId: guest.id)
            #expect(app.tree().screen == UIIdentifier.confirmationScreen)
            await app.confirm()
            app.checkIn(code: lab.world.guests[0].code.lowercased())
            #expect(app.tree().element(UIIdentifier.confirmationScreen)?.attributes["method"] == "manual")
            await app.confirm()
            app.checkIn(code: "NOSUCHCODE")
            #expect(app.tree().contains(UIIdentifier.notInRosterBanner))
            #expect(try await lab.serverCheckIns() == [guest.id: 1, lab.world.guests[0].id: 1])
            let methods = try await lab.audit().map(\.method)
            #expect(methods == ["manual", "manual"])
        }
    }

    @Test("network-flaky-no-duplicates: 50% of requests and 50% of responses dropped; 10 scans, exactly 10 rows")
    func flaky10() async throws {
        try await flaky(scans: 10, seed: 10)
    }

    @Test("network-flaky-no-duplicates: the same with 200 scans")
    func flaky200() async throws {
        try await flaky(scans: 200, seed: 200)
    }

    func flaky(scans: Int, seed: UInt64) async throws {
        try await DeviceLab.run(guests: scans) { lab in
            _ = try await lab.readyDevice("flaky")
            let (app, faults) = try lab.launch(
                "flaky", wrapping: { inner in FlakyTransport(inner, dropRequests: 0.5, dropResponses: 0.5, seed: seed) }
            )
            await app.openEvent(lab.world.event.id)
            for guest in lab.world.guests {
                app.checkIn(code: guest.code)
                await app.confirm()
            }
            var rounds = 0
            while app.pendingCount > 0, rounds < 50 * scans {
                await app.sync()
                rounds += 1
            }
            #expect(app.pendingCount == 0)
            let rows = try await lab.serverCheckIns()
            #expect(rows.count == scans)
            #expect(rows.values.allSatisfy { $0 == 1 })
            #expect((faults.value?.droppedRequests ?? 0) > 0 && (faults.value?.droppedResponses ?? 0) > 0)
        }
    }

    @Test("clock-skew-server-ts-wins: a device 5 minutes ahead; the server row and the UI use server time")
    func clockSkew() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("skew")
            let skewed = lab.api.clock.now + 300
            let app = try lab.launch("skew", clock: WallClock { skewed })
            await app.openEvent(lab.world.event.id)
            let guest = lab.world.guests[0]
            app.scan(try await lab.ticket(guest))
            await app.confirm()
            let audit = try await lab.audit()
            #expect(audit.first?.at == lab.api.clock.now)
            #expect(audit.first?.clientAt == skewed)
            app.scan(try await lab.ticket(guest))
            #expect(
                app.tree().element(UIIdentifier.alreadyCheckedIn)?.attributes["at"]
                    == OutpostJSON.format(lab.api.clock.now))
        }
    }

    @Test(
        "already-checked-in-screen: a second scan shows the prior time and who; re-confirm adds an event row, never a check-in row"
    )
    func alreadyCheckedIn() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("again")
            let guest = lab.world.guests[0]
            let ticket = try await lab.ticket(guest)
            app.scan(ticket)
            await app.confirm()
            app.scan(ticket)
            var tree = app.tree()
            #expect(tree.screen == UIIdentifier.confirmationScreen)
            #expect(tree.element(UIIdentifier.alreadyCheckedIn)?.text.contains("by Alex") == true)
            #expect(tree.contains(UIIdentifier.reconfirmButton) && !tree.contains(UIIdentifier.confirmButton))
            app.cancel()  // dismiss: nothing written
            #expect(
                try await lab.api.store.checkInCounts(
                    eventId: lab.world.event.id, guestId: guest.id) == (1, 0))
            app.scan(ticket)
            await app.confirm(note: "lost wristband")
            tree = app.tree()
            #expect(tree.pending == 0)
            let counts = try await lab.api.store.checkInCounts(
                eventId: lab.world.event.id, guestId: guest.id)
            #expect(counts.checkIns == 1 && counts.events == 1)
            #expect(try await lab.audit().map(\.kind) == [.checkedIn, .reconfirmed])
        }
    }

    @Test(
        "cross-tenant-qr-404: a ticket signed by another tenant is refused locally, and the server answers 404 if sent anyway"
    )
    func crossTenant() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("tenant")
            let foreign = try await lab.ticket(
                lab.world.otherGuest, event: lab.world.otherEvent, as: lab.world.otherOrganizer)
            app.scan(foreign)
            #expect(app.tree().contains(UIIdentifier.crossEventBanner))
            // Defence in depth: the same guest id posted with this staff token is a 404, audited.
            let response = try await lab.api.checkIn(
                try await lab.api.signIn(email: "alex@acme.test", password: DeviceLab.staffPassword),
                event: lab.world.otherEvent.id, guest: lab.world.otherGuest.id, ticket: foreign)
            #expect(response.status == 404)
            #expect(response.errorCode == "not_found")
        }
    }

    @Test(
        "checkin-undo-reaches-door: a check-in the organizer takes back is gone from the door after its next sync; an offline scan checks the guest in again, a new check-in the server takes"
    )
    func undoneCheckInReachesDoor() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("undone")
            let guest = lab.world.guests[0]
            let ticket = try await lab.ticket(guest)
            app.scan(ticket)
            await app.confirm()
            #expect(app.tree().pending == 0)
            let organizer = try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass")
            let first = try #require(
                try await lab.api.lab(organizer).call(API.showGuest, lab.world.event.id, guest.id, what: "guest")
                    .checkIn?.id)
            _ = try await lab.api.lab(organizer).call(
                API.undoCheckIn, lab.world.event.id, first, json: UndoCheckInRequest(reason: "wrong guest"),
                what: "undo")
            await app.sync()
            app.update { $0.online = false }
            app.scan(ticket)
            var tree = app.tree()
            #expect(tree.screen == UIIdentifier.confirmationScreen)
            #expect(!tree.contains(UIIdentifier.alreadyCheckedIn) && tree.contains(UIIdentifier.confirmButton))
            await app.confirm()
            #expect(app.tree().pending == 1)
            app.update { $0.online = true }
            await app.sync()
            tree = app.tree()
            #expect(tree.pending == 0)
            let again = try await lab.api.lab(organizer).call(
                API.showGuest, lab.world.event.id, guest.id, what: "guest")
            #expect(again.checkIn?.id != nil && again.checkIn?.id != first)
            #expect(try await lab.audit().map(\.kind) == [.checkedIn, .checkInUndone, .checkedIn])
        }
    }

    @Test("cancelled and revoked guests are refused offline after the next delta")
    func revokedOffline() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("revoked")
            let guest = lab.world.guests[0]
            let ticket = try await lab.ticket(guest)
            _ = try await lab.api.request(
                .patch, "/v1/events/\(lab.world.event.id)/guests/\(guest.id)",
                token: try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass").accessToken,
                json: UpdateGuestRequest(status: .revoked))
            await app.sync()
            app.update { $0.online = false }
            app.scan(ticket)
            #expect(app.tree().contains(UIIdentifier.notAdmissibleBanner))
            #expect(app.tree().screen == UIIdentifier.eventShell)
        }
    }

    @Test("a check-in the server refuses for good is shown and not retried forever")
    func finalRefusal() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("refused")
            let guest = lab.world.guests[0]
            app.update { $0.online = false }
            app.scan(try await lab.ticket(guest))
            await app.confirm()
            _ = try await lab.api.request(
                .patch, "/v1/events/\(lab.world.event.id)/guests/\(guest.id)",
                token: try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass").accessToken,
                json: UpdateGuestRequest(status: .cancelled))
            app.update { $0.online = true }
            await app.sync()
            let tree = app.tree()
            #expect(tree.pending == 0)
            #expect(tree.element(UIIdentifier.syncRejectedBanner)?.text.contains("guest_not_admissible") == true)
            let local = try #require(try app.checkInStore.guest(eventId: lab.world.event.id, id: guest.id))
            #expect(local.checkIn == nil, "the refused check-in is undone on the device")
            await app.sync()
            #expect(try await lab.audit().map(\.kind) == [.rejectedNotAdmissible], "sent once, not retried")
        }
    }
}

/// A value shared between a test and a transport factory.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
