import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

/// A simulated phone across launches: its clock, its biometric sensor and key store (which
/// outlive the app), and its process memory (which a cold launch loses).
@MainActor
final class Phone {
    let lab: DeviceLab
    let name: String
    let clock = ManualClock()
    let biometrics: SimulatedBiometrics
    private(set) var memory = InProcessMemory()
    var online = true
    var modules: DeviceModules = .eventDay

    init(_ lab: DeviceLab, _ name: String) {
        self.lab = lab
        self.name = name
        biometrics = SimulatedBiometrics(keyStore: lab.keyStore(name))
    }

    /// The app comes back from the background (the process kept running).
    func launch(biometrics override: (any Biometrics)? = nil) throws -> DeviceApp {
        try lab.launch(
            name, online: online, clock: clock.wallClock, monotonic: clock.monotonicClock, modules: modules,
            biometrics: override ?? biometrics, memory: memory)
    }

    /// The process was killed (force-quit, OS, reboot): a cold launch.
    func coldLaunch(biometrics override: (any Biometrics)? = nil) throws -> DeviceApp {
        memory = InProcessMemory()
        return try launch(biometrics: override)
    }

    /// Signed in as Alex, in the world's event with its roster, biometric unlock on.
    func ready() async throws -> DeviceApp {
        let app = try launch()
        await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
        try #require(app.isSignedIn)
        await app.openEvent(lab.world.event.id)
        app.setBiometricUnlock(true)
        try #require(app.biometricUnlockEnabled)
        return app
    }

    /// One check-in confirmed offline and left pending.
    func pendingCheckIn(_ app: DeviceApp) async throws {
        let ticket = try await lab.ticket(lab.world.guests[0])
        app.update { $0.online = false }
        app.scan(ticket)
        await app.confirm()
        try #require(app.pendingCount == 1)
    }
}

/// A port that answers "matched" without holding any secret: what an instrumented phone makes
/// of a boolean biometric check.
struct BooleanBiometrics: Biometrics {
    var kind: BiometryKind? { .faceID }
    func bind(_ secret: Data, named name: String) throws {}
    func release(named name: String, method: UnlockMethod, prompt: String) async -> Result<Data, BiometricFailure> {
        .success(Data(repeating: 0x41, count: 32))
    }
    func remove(named name: String) {}
}

/// The lock screen and the offline unlock window (seed 004's criteria 2 and
/// 5; seed 003's LockScreen), against a real server over loopback HTTP.
@Suite("Lock screen and offline unlock")
struct LockProbeTests {
    @Test(
        "lock-on-cold-launch: with biometric unlock on a cold launch is locked, staff actions are refused, a match opens it where it was"
    )
    func lockOnColdLaunch() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "cold")
            _ = try await phone.ready()
            let app = try phone.coldLaunch()
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.lockScreen)
            #expect(tree.element(UIIdentifier.lockUnlockBiometric)?.text == "Unlock with Face ID")
            #expect(tree.element(UIIdentifier.lockUnlockBiometric)?.attributes["autoPrompt"] == "true")
            #expect(tree.contains(UIIdentifier.lockUsePasscode) && tree.contains(UIIdentifier.lockSignInEmail))
            await app.showEvents()
            #expect(app.tree().screen == UIIdentifier.lockScreen, "nothing behind the lock runs")
            await app.unlock(with: .biometrics)?.value
            #expect(app.tree().screen == UIIdentifier.eventShell)
            // The next command of the same process stays unlocked.
            #expect(try phone.launch().tree().screen == UIIdentifier.eventShell)
        }
    }

    @Test(
        "biometric-bound-not-boolean: the tokens rest sealed under a key only the port releases; a port that just says yes opens nothing"
    )
    func boundNotBoolean() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "bound")
            _ = try await phone.ready()
            let hooked = try phone.coldLaunch(biometrics: BooleanBiometrics())
            await hooked.unlock(with: .biometrics)?.value
            #expect(hooked.tree().screen == UIIdentifier.lockScreen)
            #expect(!hooked.isSignedIn)
            #expect(hooked.tree().contains(UIIdentifier.lockMessage))
            // The real sensor still opens it.
            let app = try phone.coldLaunch()
            await app.unlock(with: .biometrics)?.value
            #expect(app.isSignedIn)
        }
    }

    @Test(
        "offline-relaunch-unlock (seed 004 criterion 2): offline, a cold relaunch unlocks with biometrics and shows the cached event and roster"
    )
    func offlineRelaunch() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "airplane")
            _ = try await phone.ready()
            phone.online = false
            let app = try phone.coldLaunch()
            #expect(app.tree().screen == UIIdentifier.lockScreen)
            await app.unlock(with: .biometrics)?.value
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.eventShell)
            #expect(tree.contains(UIIdentifier.offlineBanner))
            app.lookup(String(lab.world.guests[1].name.prefix(4)))
            #expect(
                !app.tree().elements(UIIdentifier.manualEntrySuggestion).isEmpty, "the cached roster answers offline")
        }
    }

    @Test("biometric-enrolment-changed: a changed enrolment destroys the bound key; the device passcode still unlocks")
    func enrolmentChanged() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "enrolment")
            _ = try await phone.ready()
            phone.biometrics.update { $0.enrolment += 1 }
            let app = try phone.coldLaunch()
            await app.unlock(with: .biometrics)?.value
            #expect(app.tree().screen == UIIdentifier.lockScreen)
            #expect(app.tree().element(UIIdentifier.lockMessage)?.text.contains("settings changed") == true)
            // Putting the old enrolment back does not bring the destroyed key back.
            phone.biometrics.update { $0.enrolment -= 1 }
            await app.unlock(with: .biometrics)?.value
            #expect(app.tree().screen == UIIdentifier.lockScreen)
            phone.biometrics.update { $0.typedPasscode = "123456" }
            await app.unlock(with: .devicePasscode)?.value
            #expect(app.tree().screen == UIIdentifier.eventShell)
        }
    }

    @Test(
        "biometric-lockout: five failed matches lock biometrics out; a wrong passcode is refused; the right one unlocks and clears it"
    )
    func lockout() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "lockout")
            _ = try await phone.ready()
            let app = try phone.coldLaunch()
            phone.biometrics.update { $0.presented = .noMatch }
            for _ in 0..<SimulatedBiometrics.lockoutAfter {
                await app.unlock(with: .biometrics)?.value
                #expect(app.tree().element(UIIdentifier.lockMessage)?.text.contains("didn't recognise") == true)
            }
            phone.biometrics.update { $0.presented = .match }
            await app.unlock(with: .biometrics)?.value
            #expect(app.tree().element(UIIdentifier.lockMessage)?.text.contains("locked after too many") == true)
            #expect(app.tree().screen == UIIdentifier.lockScreen, "even the right face is refused while locked out")
            phone.biometrics.update { $0.typedPasscode = "000000" }
            await app.unlock(with: .devicePasscode)?.value
            #expect(app.tree().element(UIIdentifier.lockMessage)?.text.contains("passcode is not correct") == true)
            phone.biometrics.update { $0.typedPasscode = "123456" }
            await app.unlock(with: .devicePasscode)?.value
            #expect(app.tree().screen == UIIdentifier.eventShell)
            #expect(!phone.biometrics.current.lockedOut)
        }
    }

    @Test(
        "offline-unlock-window: past 72 hours offline unlocking needs the network (nothing pending is lost); online, the server accepts it and it opens"
    )
    func offlineWindow() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "window")
            let first = try await phone.ready()
            try await phone.pendingCheckIn(first)
            phone.online = false
            phone.clock.advance(by: 71 * 3600)
            let withinWindow = try phone.coldLaunch()
            await withinWindow.unlock(with: .biometrics)?.value
            #expect(withinWindow.tree().screen == UIIdentifier.eventShell, "71 hours offline still unlocks")
            phone.clock.advance(by: 2 * 3600)
            let past = try phone.coldLaunch()
            await past.unlock(with: .biometrics)?.value
            #expect(past.tree().screen == UIIdentifier.lockScreen)
            #expect(past.tree().element(UIIdentifier.lockMessage)?.text.contains("more than 72 hours") == true)
            #expect(past.pendingCount == 1 && past.tree().contains(UIIdentifier.lockPending))
            // Setting the clock back does not reopen the window (the monotonic clock counts too).
            phone.clock.set(phone.clock.now.addingTimeInterval(-10 * 3600))
            let clockBack = try phone.coldLaunch()
            await clockBack.unlock(with: .biometrics)?.value
            #expect(clockBack.tree().screen == UIIdentifier.lockScreen)
            // Online, the server validates the session and the check-in goes out.
            phone.online = true
            let online = try phone.coldLaunch()
            await online.unlock(with: .biometrics)?.value
            #expect(online.tree().screen == UIIdentifier.eventShell)
            #expect(online.pendingCount == 0)
            #expect(try await lab.serverCheckIns()[lab.world.guests[0].id] == 1)
        }
    }

    @Test(
        "token-expiry-long-offline: days offline expire the access token; after unlock the sync refreshes silently and the screen stays"
    )
    func tokenExpiryLongOffline() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "days")
            let first = try await phone.ready()
            try await phone.pendingCheckIn(first)
            phone.online = false
            phone.clock.advance(by: 2 * 24 * 3600)
            lab.api.clock.advance(by: 2 * 24 * 3600)
            let app = try phone.coldLaunch()
            await app.unlock(with: .biometrics)?.value
            #expect(app.tree().screen == UIIdentifier.eventShell)
            // Connectivity returns mid-session: the background validation and replay run, the
            // user stays where they were.
            app.update { $0.online = true }
            await app.sync()
            #expect(app.tree().screen == UIIdentifier.eventShell)
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns()[lab.world.guests[0].id] == 1)
        }
    }

    @Test(
        "session-revoked-while-offline: when the network returns a revoked session locks the app with a clear message and keeps pending entries"
    )
    func revokedWhileOffline() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "revoked")
            let first = try await phone.ready()
            try await phone.pendingCheckIn(first)
            phone.online = false
            phone.clock.advance(by: 3600)
            let app = try phone.coldLaunch()
            await app.unlock(with: .biometrics)?.value
            #expect(app.tree().screen == UIIdentifier.eventShell)
            try await lab.revokeEverySignIn()
            app.update { $0.online = true }
            await app.sync()
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.signIn)
            #expect(tree.element(UIIdentifier.signInError)?.text.contains("1 saved entry is kept") == true)
            #expect(app.pendingCount == 1, "the outbox is untouched")
            // Signing in again as the same user sends it.
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns()[lab.world.guests[0].id] == 1)
        }
    }

    @Test("lock-after-background: back within the set time the app is open; after it, locked")
    func lockAfterBackground() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "background")
            let app = try await phone.ready()
            app.setLockAfter(seconds: 120)
            app.background()
            phone.clock.advance(by: 90)
            await app.foreground().value
            #expect(app.tree().screen == UIIdentifier.eventShell)
            app.background()
            phone.clock.advance(by: 121)
            await app.foreground().value
            #expect(app.tree().screen == UIIdentifier.lockScreen)
            // Setting the clock back while away does not keep it open (the monotonic clock counts).
            await app.unlock(with: .biometrics)?.value
            app.background()
            phone.clock.advance(by: 121)
            phone.clock.set(phone.clock.now.addingTimeInterval(-600))
            await app.foreground().value
            #expect(app.tree().screen == UIIdentifier.lockScreen)
            // The headless device: the time between two commands is time in the background.
            await app.unlock(with: .biometrics)?.value
            phone.clock.advance(by: 121)
            #expect(try phone.launch().tree().screen == UIIdentifier.lockScreen)
        }
    }

    @Test("lock-sign-in-with-email: a full sign-out that keeps pending entries for their user")
    func signInWithEmail() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "email")
            let first = try await phone.ready()
            try await phone.pendingCheckIn(first)
            let app = try phone.coldLaunch()
            app.signInWithEmail()
            #expect(app.tree().screen == UIIdentifier.signIn)
            #expect(app.pendingCount == 1)
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns()[lab.world.guests[0].id] == 1)
        }
    }

    @Test("biometric-toggle: hidden when the device has no biometrics; off puts the tokens back under the device key")
    func toggle() async throws {
        try await DeviceLab.run { lab in
            let phone = Phone(lab, "toggle")
            let app = try await phone.ready()
            app.showSettings()
            #expect(app.tree().element(UIIdentifier.settingsBiometricToggle)?.attributes["on"] == "true")
            app.setBiometricUnlock(false)
            let unlocked = try phone.coldLaunch()
            #expect(unlocked.isSignedIn && !unlocked.isLocked, "no lock with the toggle off")
            #expect(unlocked.tree().screen == UIIdentifier.settings)
            phone.biometrics.update { $0.enrolled = nil }
            let none = try phone.launch()
            none.showSettings()
            #expect(none.tree().screen == UIIdentifier.settings)
            #expect(!none.tree().contains(UIIdentifier.settingsBiometricToggle))
            none.setBiometricUnlock(true)
            #expect(!none.biometricUnlockEnabled)
        }
    }
}
