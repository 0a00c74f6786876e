import Foundation
import GRDB
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostShell

/// Seed 002 (EF-065 kiosk mode) probes, against a real server over loopback HTTP.
@Suite("Kiosk probes (seed 002)")
struct KioskProbeTests {
    static let passcode = "394817"

    /// A support user's device in the event, with the kiosk set up and entered.
    @MainActor
    static func kioskDevice(
        _ lab: DeviceLab, _ name: String, clock: ManualClock, camera: CameraPermission = .granted, online: Bool = true,
        battery: Int = 100
    ) async throws -> DeviceApp {
        let staff = try await lab.readyDevice(name, email: "support@acme.test")
        await staff.kioskSetUp(passcode: passcode, orientation: .landscape)
        let app = try lab.launch(
            name, online: online, camera: camera, clock: clock.wallClock, monotonic: clock.monotonicClock,
            battery: battery)
        app.enterKiosk()
        try #require(app.isKioskActive)
        return app
    }

    @Test("weak-passcode-rejected: 1234 and 111111 are refused with every broken rule in words; no way into kiosk mode")
    func weakPasscode() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("weak", email: "support@acme.test")
            await app.kioskSetUp(passcode: "1234", orientation: .portrait)
            var rules = app.tree().elements(UIIdentifier.kioskSetupRuleError).compactMap { $0.attributes["rule"] }
            #expect(rules == ["six_digits", "not_sequential", "not_common"])
            #expect(
                app.tree().elements(UIIdentifier.kioskSetupRuleError).first?.text
                    == "The passcode must be exactly six digits.")
            #expect(!app.tree().contains(UIIdentifier.kioskEnterCTA))
            app.enterKiosk()
            #expect(!app.isKioskActive)
            await app.kioskSetUp(passcode: "111111", orientation: .portrait)
            rules = app.tree().elements(UIIdentifier.kioskSetupRuleError).compactMap { $0.attributes["rule"] }
            #expect(rules == ["not_all_same", "not_common"])
            await app.kioskSetUp(passcode: Self.passcode, orientation: .portrait)
            #expect(app.tree().contains(UIIdentifier.kioskEnterCTA))
            // Check-in staff cannot set a kiosk up at all.
            let staff = try await lab.readyDevice("weak-staff")
            #expect(!staff.tree().contains(UIIdentifier.kioskSetupPasscodeInput))
        }
    }

    @Test(
        "attendee by ticket and by e-mail: welcome by first name, auto-dismissed after 5 s; orientation honoured; audited as kiosk"
    )
    func happyPath() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "happy", clock: clock)
            var tree = app.tree()
            #expect(tree.screen == UIIdentifier.kioskWelcomeScreen)
            #expect(tree.element(UIIdentifier.kioskWelcomeScreen)?.attributes["orientation"] == "landscape")
            #expect(tree.contains(UIIdentifier.kioskCamera) && tree.contains(UIIdentifier.kioskEmailInput))
            #expect(
                !tree.contains(UIIdentifier.signOut) && !tree.contains(UIIdentifier.tabCheckIn), "no staff navigation")
            await app.kioskCheckIn(ticket: try await lab.ticket(lab.world.guests[0]))
            tree = app.tree()
            #expect(
                tree.element(UIIdentifier.kioskConfirmation)?.text
                    == "Welcome, \(lab.world.guests[0].name)! You're checked in.")
            #expect(tree.element(UIIdentifier.kioskConfirmation)?.attributes["dismissAfter"] == "5")
            clock.advance(by: 5)
            #expect(app.tree().screen == UIIdentifier.kioskWelcomeScreen)
            await app.kioskCheckIn(email: lab.world.guests[1].email.uppercased())
            #expect(app.tree().screen == UIIdentifier.kioskConfirmation)
            let audit = try await lab.audit()
            #expect(audit.map(\.kind) == [.checkedIn, .checkedIn])
            #expect(audit.allSatisfy { $0.method == "kiosk" })
        }
    }

    @Test(
        "email-not-found-generic: unregistered, cancelled, revoked and other-event e-mails and bad tickets get one identical message"
    )
    func notFoundGeneric() async throws {
        try await DeviceLab.run(guests: 3) { lab in
            let organizer = try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass")
            for (guest, status) in zip(lab.world.guests.prefix(2), [GuestStatus.cancelled, .revoked]) {
                _ = try await lab.api.request(
                    .patch, "/v1/events/\(lab.world.event.id)/guests/\(guest.id)", token: organizer.accessToken,
                    json: UpdateGuestRequest(status: status))
            }
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "generic", clock: clock)
            var seen: [UIElement] = []
            for email in [
                "nobody@example.org", lab.world.guests[0].email, lab.world.guests[1].email, lab.world.otherGuest.email,
            ] {
                await app.kioskCheckIn(email: email)
                seen.append(try #require(app.tree().element(UIIdentifier.kioskEmailNotFoundMessage), "\(email)"))
                clock.advance(by: 5)
            }
            await app.kioskCheckIn(ticket: "OP1" + String(repeating: "Q", count: 194))
            seen.append(try #require(app.tree().element(UIIdentifier.kioskEmailNotFoundMessage)))
            #expect(Set(seen).count == 1, "one message for every reason")
            #expect(seen[0].text == "We can't find that email — please see staff.")
            #expect(try await lab.serverCheckIns().isEmpty)
        }
    }

    @Test("no-autofill-leak: the next attendee sees nothing of the previous one")
    func cleanSlate() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "slate", clock: clock)
            let guest = lab.world.guests[2]
            await app.kioskCheckIn(email: guest.email)
            #expect(app.tree().element(UIIdentifier.kioskConfirmation)?.text.contains(guest.name) == true)
            clock.advance(by: 5)
            let next = app.tree()
            let rendered = String(decoding: try OutpostJSON.encode(next), as: UTF8.self)
            for remnant in [guest.name, guest.email, guest.code, String(guest.email.prefix(5))] {
                #expect(!rendered.contains(remnant), "\(remnant) leaked into the next attendee's screen")
            }
            #expect(next.element(UIIdentifier.kioskEmailInput)?.text == "")
            #expect(!next.contains(UIIdentifier.manualEntrySuggestion))
            // A relaunch (crash) is just as clean.
            #expect(
                !String(
                    decoding: try OutpostJSON.encode(
                        try lab.launch("slate", clock: clock.wallClock, monotonic: clock.monotonicClock).tree()),
                    as: UTF8.self
                ).contains(guest.name))
        }
    }

    @Test("camera-revoked-fallback-works: the fallback banner, and e-mail entry still checks in")
    func cameraFallback() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "fallback", clock: clock, camera: .denied)
            let tree = app.tree()
            #expect(
                tree.element(UIIdentifier.kioskCameraFallbackBanner)?.text
                    == "Camera unavailable — please use email entry below.")
            #expect(!tree.contains(UIIdentifier.kioskCamera))
            #expect(tree.contains(UIIdentifier.kioskEmailInput))
            await app.kioskCheckIn(email: lab.world.guests[0].email)
            #expect(app.tree().screen == UIIdentifier.kioskConfirmation)
        }
    }

    @Test(
        "kiosk-not-saved-never-welcomes: a check-in the kiosk cannot save sends the attendee to staff, never a welcome")
    func notSaved() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "full-disk", clock: clock, online: false)
            // A real SQLite failure on the outbox: the disk is full.
            try await app.store.queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TRIGGER full_disk BEFORE INSERT ON outbox
                        BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                        """)
            }
            await app.kioskCheckIn(email: lab.world.guests[0].email)
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.kioskNotSavedMessage, "\(tree.elements)")
            #expect(!tree.contains(UIIdentifier.kioskConfirmation))
            #expect(app.pendingCount == 0)
            #expect(app.faults.all.map(\.what).contains("record a check-in"))

            try await app.store.queue.write { db in try db.execute(sql: "DROP TRIGGER full_disk") }
            clock.advance(by: 10)
            await app.kioskCheckIn(email: lab.world.guests[0].email)
            #expect(app.tree().screen == UIIdentifier.kioskConfirmation)
            #expect(app.pendingCount == 1)
        }
    }

    @Test(
        "offline-confirms-locally: offline the attendee sees the same welcome and no sync state; staff see the queue on exit"
    )
    func offline() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "offline", clock: clock, online: false)
            await app.kioskCheckIn(email: lab.world.guests[0].email)
            let tree = app.tree()
            #expect(tree.element(UIIdentifier.kioskConfirmation)?.text.hasPrefix("Welcome, ") == true)
            for staffOnly in [
                UIIdentifier.offlineBanner, UIIdentifier.pendingSyncBanner, UIIdentifier.syncingIndicator,
            ] {
                #expect(!tree.contains(staffOnly))
            }
            #expect(tree.pending == 0 && tree.user == nil)
            #expect(app.pendingCount == 1)
            for _ in 0..<3 { app.tapCorner() }
            app.exitKiosk(passcode: Self.passcode)
            let staff = app.tree()
            #expect(staff.screen == UIIdentifier.eventShell)
            #expect(staff.element(UIIdentifier.pendingSyncBanner)?.attributes["pending"] == "1")
            let online = try lab.launch("offline", clock: clock.wallClock, monotonic: clock.monotonicClock)
            await online.sync()
            #expect(try await lab.serverCheckIns() == [lab.world.guests[0].id: 1])
        }
    }

    @Test("already-checked-in-friendly: a friendly message, and the server's audit row kiosk_already_checked_in")
    func alreadyCheckedIn() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "friendly", clock: clock)
            let ticket = try await lab.ticket(lab.world.guests[0])
            await app.kioskCheckIn(ticket: ticket)
            clock.advance(by: 6)
            await app.kioskCheckIn(ticket: ticket)
            let message = try #require(app.tree().element(UIIdentifier.kioskAlreadyCheckedInMessage))
            #expect(message.text == "You're already checked in. Have a great event!")
            #expect(message.attributes["dismissAfter"] == "5")
            #expect(try await lab.audit().map(\.kind) == [.checkedIn, .kioskAlreadyCheckedIn])
            #expect(try await lab.serverCheckIns() == [lab.world.guests[0].id: 1])
        }
    }

    @Test(
        "exit-passcode-required: three corner taps show the prompt; 3 wrong lock 60 s, then 300 s; relaunching does not reset it"
    )
    func exitLockout() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            var app = try await Self.kioskDevice(lab, "exit", clock: clock)
            app.tapCorner()
            app.tapCorner()
            #expect(!app.tree().contains(UIIdentifier.kioskExitPrompt))
            clock.advance(by: 10)  // too slow: the taps expire
            app.tapCorner()
            #expect(!app.tree().contains(UIIdentifier.kioskExitPrompt))
            app.tapCorner()
            app.tapCorner()
            #expect(app.tree().screen == UIIdentifier.kioskExitPrompt)
            app.exitKiosk(passcode: "000001")
            app.exitKiosk(passcode: "000002")
            #expect(app.tree().element(UIIdentifier.signInError)?.text == "Wrong passcode. 1 attempt left.")
            app.exitKiosk(passcode: "000003")
            #expect(app.tree().element(UIIdentifier.kioskExitLockoutBanner)?.attributes["seconds"] == "60")
            // A relaunch keeps the lockout.
            app = try lab.launch("exit", clock: clock.wallClock, monotonic: clock.monotonicClock)
            #expect(app.isKioskActive)
            #expect(app.tree().element(UIIdentifier.kioskExitLockoutBanner)?.attributes["seconds"] == "60")
            app.exitKiosk(passcode: Self.passcode)
            #expect(app.isKioskActive, "the right passcode is not even checked while locked")
            clock.advance(by: 60)
            for wrong in ["1", "2", "3"] { app.exitKiosk(passcode: wrong) }
            #expect(app.tree().element(UIIdentifier.kioskExitLockoutBanner)?.attributes["seconds"] == "300")
            clock.advance(by: 300)
            app.exitKiosk(passcode: Self.passcode)
            #expect(!app.isKioskActive)
            #expect(app.tree().screen == UIIdentifier.eventShell)
        }
    }

    @Test(
        "kiosk-lockout-cannot-be-reset: setting the clock forward, deleting the kiosk's saved state or putting back an older copy of it neither ends kiosk mode nor shortens the exit lockout"
    )
    func lockoutCannotBeReset() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            var app = try await Self.kioskDevice(lab, "reset", clock: clock)
            let store = try DatabaseQueue(path: lab.home("reset").appendingPathComponent("device.sqlite").path)
            let blob = { try store.read { try Data.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'kiosk'") } }
            let pristine = try #require(try blob(), "the kiosk's sealed state before any wrong passcode")
            let relaunch = {
                app = try lab.launch("reset", clock: clock.wallClock, monotonic: clock.monotonicClock)
                return app.tree().element(UIIdentifier.kioskExitLockoutBanner)?.attributes["seconds"]
            }
            for _ in 0..<3 { app.tapCorner() }
            for wrong in ["000001", "000002", "000003"] { app.exitKiosk(passcode: wrong) }
            #expect(app.tree().element(UIIdentifier.kioskExitLockoutBanner)?.attributes["seconds"] == "60")

            // 1. The wall clock is set 700 s forward (`sim clock-skew 700` did end it before).
            clock.set(clock.now + 700)
            #expect(try relaunch() == "60")
            for _ in 0..<3 { app.tapCorner() }
            app.exitKiosk(passcode: Self.passcode)
            #expect(app.isKioskActive, "still locked: the right passcode is not checked")

            // 2. The kiosk's saved state is deleted from the device store.
            clock.advance(by: 10)
            try await store.write { try $0.execute(sql: "DELETE FROM meta WHERE key = 'kiosk'") }
            #expect(try relaunch() == "50")
            #expect(app.isKioskActive, "deleting the state does not leave kiosk mode")

            // 3. An older copy of it (kiosk on, no wrong passcodes yet) is put back.
            try await store.write {
                try $0.execute(sql: "UPDATE meta SET value = ? WHERE key = 'kiosk'", arguments: [pristine])
            }
            #expect(try relaunch() == "50")
            #expect(app.isKioskActive)

            // Time that really passes ends it; then the passcode leaves.
            clock.advance(by: 50)
            #expect(try relaunch() == nil)
            for _ in 0..<3 { app.tapCorner() }
            app.exitKiosk(passcode: Self.passcode)
            #expect(!app.isKioskActive)
        }
    }

    @Test(
        "kiosk-idle-reset: half-typed input stays while the attendee types, is gone 20 s after the last key, and the next keys start afresh; the passcode is masked"
    )
    func idleReset() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "idle", clock: clock)
            let field = { app.tree().element(UIIdentifier.kioskEmailInput)?.text }
            app.kioskType("half@")
            clock.advance(by: 15)
            app.kioskType("exa")
            clock.advance(by: 19)
            #expect(field() == "half@exa", "19 s after the last key it is still theirs")
            clock.advance(by: 1)
            #expect(field() == "", "20 s after the last key the next attendee sees a clean field")
            app.kioskType("n")
            #expect(field() == "n")
            #expect(app.kioskTakeDraft() == "n" && field() == "")
            for _ in 0..<3 { app.tapCorner() }
            app.kioskType("3948")
            #expect(app.tree().element(UIIdentifier.kioskPasscodeInput)?.text == "••••")
            clock.advance(by: 20)
            #expect(app.tree().element(UIIdentifier.kioskPasscodeInput)?.text == "")
        }
    }

    @Test(
        "kiosk-setup-orientation-lock: the orientation chosen at set-up reaches every kiosk screen, and a new set-up changes it"
    )
    func setupOrientationLock() async throws {
        try await DeviceLab.run { lab in
            for orientation in [KioskOrientation.portrait, .landscape] {
                let staff = try await lab.readyDevice("orient-\(orientation)", email: "support@acme.test")
                await staff.kioskSetUp(passcode: Self.passcode, orientation: orientation)
                staff.enterKiosk()
                try #require(staff.isKioskActive)
                let welcome = staff.tree()
                #expect(
                    welcome.element(UIIdentifier.kioskWelcomeScreen)?.attributes["orientation"] == orientation.rawValue)
                for _ in 0..<3 { staff.tapCorner() }
                #expect(
                    staff.tree().element(UIIdentifier.kioskExitPrompt)?.attributes["orientation"]
                        == orientation.rawValue)
                staff.exitKiosk(passcode: Self.passcode)
                #expect(!staff.isKioskActive)
            }
        }
    }

    @Test("battery-banners-thresholds: below 20% a subtle banner, below 10% a larger one")
    func battery() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            _ = try await Self.kioskDevice(lab, "battery", clock: clock)
            let full = try lab.launch("battery", clock: clock.wallClock, monotonic: clock.monotonicClock, battery: 50)
                .tree()
            #expect(
                !full.contains(UIIdentifier.kioskBatteryLowBanner)
                    && !full.contains(UIIdentifier.kioskBatteryCriticalBanner))
            let low = try lab.launch("battery", clock: clock.wallClock, monotonic: clock.monotonicClock, battery: 15)
                .tree()
            #expect(low.element(UIIdentifier.kioskBatteryLowBanner)?.attributes["size"] == "small")
            #expect(!low.contains(UIIdentifier.kioskBatteryCriticalBanner))
            let critical = try lab.launch(
                "battery", clock: clock.wallClock, monotonic: clock.monotonicClock, battery: 5
            )
            .tree()
            #expect(critical.element(UIIdentifier.kioskBatteryCriticalBanner)?.attributes["size"] == "large")
            #expect(!critical.contains(UIIdentifier.kioskBatteryLowBanner))
        }
    }

    @Test(
        "crash-recovery-resumes-kiosk: a relaunch with the kiosk flag set returns to the welcome screen without staff")
    func crashRecovery() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "crash", clock: clock)
            await app.kioskCheckIn(email: lab.world.guests[0].email)
            let relaunched = try lab.launch("crash", clock: clock.wallClock, monotonic: clock.monotonicClock)
            #expect(relaunched.isKioskActive)
            clock.advance(by: 5)
            #expect(relaunched.tree().screen == UIIdentifier.kioskWelcomeScreen)
        }
    }

    @Test(
        "kiosk-escape-engine: while kiosk mode holds the device, no staff action works: events, another event, sign-in, sign-out, check-in"
    )
    func engineRefusesStaffActions() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "escape", clock: clock)
            await app.kioskCheckIn(email: lab.world.guests[0].email)
            let event = try #require(app.currentEventId)
            await app.showEvents()
            await app.openEvent(event)
            await app.signOut(.discard)
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            app.lookup(lab.world.guests[1].name)
            app.checkIn(code: lab.world.guests[1].code)
            await app.confirm()
            app.choose(guestId: lab.world.guests[2].id)
            await app.confirm()
            #expect(app.isKioskActive && app.isHeld)
            #expect(app.currentEventId == event)
            #expect(app.isSignedIn)
            #expect(
                app.tree().screen == UIIdentifier.kioskWelcomeScreen
                    || app.tree().contains(UIIdentifier.kioskConfirmation))
            #expect(try await lab.serverCheckIns() == [lab.world.guests[0].id: 1], "only the attendee's own check-in")
            // The passcode is the way out; then staff actions work again.
            for _ in 0..<3 { app.tapCorner() }
            app.exitKiosk(passcode: Self.passcode)
            #expect(!app.isHeld)
            #expect(app.tree().user == "support@acme.test", "still the same staff session")
            await app.showEvents()
            #expect(app.tree().screen == UIIdentifier.eventPicker)
        }
    }

    @Test("kiosk-passcode-not-staff-password: no staff or organizer password exits kiosk mode")
    func staffPasswordNeverExits() async throws {
        try await DeviceLab.run { lab in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await Self.kioskDevice(lab, "passwords", clock: clock)
            for password in [DeviceLab.staffPassword, "organizer-pass"] {
                for _ in 0..<3 { app.tapCorner() }
                #expect(app.tree().screen == UIIdentifier.kioskExitPrompt)
                app.exitKiosk(passcode: password)
                #expect(app.isKioskActive, "\(password) must not exit kiosk mode")
                clock.advance(by: 120)  // past any lockout the wrong passcodes caused
                app.dismissExitPrompt()
            }
            for _ in 0..<3 { app.tapCorner() }
            app.exitKiosk(passcode: Self.passcode)
            #expect(!app.isKioskActive)
        }
    }
}
