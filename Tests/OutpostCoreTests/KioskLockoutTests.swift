import Foundation
import OutpostCore
import Testing

@Suite("Kiosk exit lockout")
struct KioskLockoutTests {
    @Test("three wrong passcodes lock for 60 s, then 300 s, then 600 s; a locked exit never checks the passcode")
    func escalation() {
        var lockout = KioskLockout()
        var now = Date(timeIntervalSince1970: 1_000)
        var checked = 0
        func wrong() -> KioskLockout.Outcome {
            lockout.attempt(at: now) {
                checked += 1
                return false
            }
        }
        #expect(wrong() == .wrong(remaining: 2))
        #expect(wrong() == .wrong(remaining: 1))
        #expect(wrong() == .lockedOut(seconds: 60))
        #expect(lockout.remaining(at: now) == 60)
        now += 59
        #expect(wrong() == .stillLocked(until: Date(timeIntervalSince1970: 1_060)))
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
        let now = Date(timeIntervalSince1970: 0)
        for _ in 0..<3 { _ = lockout.attempt(at: now) { false } }
        let restored = try JSONDecoder().decode(KioskLockout.self, from: JSONEncoder().encode(lockout))
        #expect(restored == lockout)
        var relaunched = restored
        #expect(relaunched.attempt(at: now + 10) { true } == .stillLocked(until: now + 60))
        #expect(relaunched.attempt(at: now + 60) { true } == .unlocked)
        #expect(relaunched == KioskLockout())
    }
}
