import Foundation
import OutpostCore
import Testing

@Suite("Kiosk exit lockout")
struct KioskLockoutTests {
    static func at(_ seconds: TimeInterval, boot: String = "b1") -> MonotonicInstant {
        MonotonicInstant(boot: boot, seconds: seconds)
    }

    @Test("three wrong passcodes lock for 60 s, then 300 s, then 600 s; a locked exit never checks the passcode")
    func escalation() {
        var lockout = KioskLockout()
        var now: TimeInterval = 1_000
        var checked = 0
        func wrong() -> KioskLockout.Outcome {
            lockout.attempt(at: Self.at(now)) {
                checked += 1
                return false
            }
        }
        #expect(wrong() == .wrong(remaining: 2))
        #expect(wrong() == .wrong(remaining: 1))
        #expect(wrong() == .lockedOut(seconds: 60))
        #expect(lockout.remaining(at: Self.at(now)) == 60)
        now += 59
        #expect(wrong() == .stillLocked(seconds: 1))
        #expect(checked == 3)
        now += 1
        for _ in 0..<2 { _ = wrong() }
        #expect(wrong() == .lockedOut(seconds: 300))
        now += 300
        for _ in 0..<2 { _ = wrong() }
        #expect(wrong() == .lockedOut(seconds: 600))
        now += 600
        for _ in 0..<2 { _ = wrong() }
        #expect(wrong() == .lockedOut(seconds: 600))
    }

    @Test("the right passcode unlocks and resets the schedule; the state survives encoding (a relaunch)")
    func reset() throws {
        var lockout = KioskLockout()
        for _ in 0..<3 { _ = lockout.attempt(at: Self.at(0)) { false } }
        let restored = try JSONDecoder().decode(KioskLockout.self, from: JSONEncoder().encode(lockout))
        #expect(restored == lockout)
        var relaunched = restored
        #expect(relaunched.attempt(at: Self.at(10)) { true } == .stillLocked(seconds: 50))
        #expect(relaunched.attempt(at: Self.at(60)) { true } == .unlocked)
        #expect(relaunched == KioskLockout())
    }

    @Test(
        "kiosk-lockout-reboot: a reboot (new boot, the monotonic clock back at zero) pauses the lockout and never shortens it"
    )
    func reboot() {
        var lockout = KioskLockout()
        for _ in 0..<3 { _ = lockout.attempt(at: Self.at(5_000)) { false } }
        #expect(lockout.remaining(at: Self.at(5_020)) == 40)
        // Rebooted 20 s in; the new boot's clock starts near zero.
        #expect(lockout.remaining(at: Self.at(3, boot: "b2")) == 60, "no credit for time it cannot measure")
        lockout.observe(Self.at(3, boot: "b2"))
        #expect(lockout.remaining(at: Self.at(33, boot: "b2")) == 30)
        #expect(lockout.attempt(at: Self.at(63, boot: "b2")) { true } == .unlocked)
    }

    @Test("kiosk-lockout-stricter: of two copies the one with more lockouts, failures or time left wins")
    func stricter() {
        var older = KioskLockout()
        _ = older.attempt(at: Self.at(0)) { false }
        var newer = older
        for _ in 0..<2 { _ = newer.attempt(at: Self.at(1)) { false } }
        #expect(KioskLockout.stricter(older, newer, at: Self.at(2)) == newer)
        #expect(KioskLockout.stricter(newer, older, at: Self.at(2)) == newer)
        #expect(KioskLockout.stricter(KioskLockout(), older, at: Self.at(2)) == older)
    }

    @Test("a lockout saved against the wall clock (before the monotonic clock) is kept at its longest")
    func legacyWallClockLockout() throws {
        let legacy = Data(#"{"failures":0,"lockouts":1,"lockedUntil":100}"#.utf8)
        let decoded = try JSONDecoder().decode(KioskLockout.self, from: legacy)
        #expect(decoded.lockouts == 1 && decoded.remaining(at: Self.at(0)) == 600)
    }
}
