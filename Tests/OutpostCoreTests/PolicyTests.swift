import Foundation
import OutpostCore
import Testing

@Suite("Kiosk passcode policy")
struct PasscodePolicyTests {
    @Test(
        "weak-passcode-rejected: every broken rule is named at once",
        arguments: [
            ("1234", [PasscodeRule.sixDigits, .notSequential, .notCommon]),
            ("111111", [.notAllSame, .notCommon]),
            ("123456", [.notSequential, .notCommon]),
            ("654321", [.notSequential, .notCommon]),
            ("345678", [.notSequential]),
            ("876543", [.notSequential]),
            ("12a456", [.sixDigits]),
            ("", [.sixDigits]),
            ("1234567", [.sixDigits, .notSequential]),
            ("112233", [.notCommon]),
            ("０１２３４５", [.sixDigits]),
        ])
    func weak(passcode: String, rules: [PasscodeRule]) {
        #expect(PasscodePolicy.brokenRules(passcode) == rules)
    }

    @Test("strong passcodes pass", arguments: ["394817", "508213", "720946"])
    func strong(passcode: String) {
        #expect(PasscodePolicy.brokenRules(passcode).isEmpty)
    }

    @Test("the common list has at least 20 six-digit PINs")
    func commonList() {
        #expect(PasscodePolicy.commonPasscodes.filter { $0.count == 6 }.count >= 20)
    }
}

@Suite("Idempotency key")
struct IdempotencyKeyTests {
    @Test("formats and parses deviceId:guestId:scannedAtMillis, device ids may hold colons")
    func roundTrip() throws {
        let guest = UUID()
        for device in ["ipad-7", "a:b:c", "0f8e"] {
            let key = IdempotencyKey(deviceId: device, guestId: guest, scannedAtMillis: 1_795_000_000_123)
            #expect(key.description == "\(device):\(guest.lowercasedString):1795000000123")
            #expect(IdempotencyKey(parsing: key.description) == key)
        }
    }

    @Test(
        "malformed keys are refused",
        arguments: [
            "", "device", "device:guest:1", "device:00000000-0000-0000-0000-000000000000:",
            ":00000000-0000-0000-0000-000000000000:1",
            "dev ice:00000000-0000-0000-0000-000000000000:1", "d:00000000-0000-0000-0000-000000000000:-1",
            "d:00000000-0000-0000-0000-000000000000:1.5", "d:00000000-0000-0000-0000-000000000000:99999999999999999999",
        ])
    func malformed(text: String) {
        #expect(IdempotencyKey(parsing: text) == nil)
    }
}

@Suite("Check-in rules")
struct CheckInRulesTests {
    let event = UUID()

    @Test("decisions follow event, status, then prior check-in")
    func decisions() {
        let now = Date()
        #expect(CheckInRules.decide(guest: nil, eventId: event, reconfirm: false) == .notFound)
        #expect(
            CheckInRules.decide(
                guest: .init(eventId: UUID(), status: .confirmed, checkedInAt: nil), eventId: event, reconfirm: false)
                == .notFound)
        #expect(
            CheckInRules.decide(
                guest: .init(eventId: UUID(), status: .revoked, checkedInAt: nil), eventId: event, reconfirm: false)
                == .notFound)
        #expect(
            CheckInRules.decide(
                guest: .init(eventId: event, status: .cancelled, checkedInAt: nil), eventId: event, reconfirm: false)
                == .notAdmissible)
        #expect(
            CheckInRules.decide(
                guest: .init(eventId: event, status: .revoked, checkedInAt: now), eventId: event, reconfirm: true)
                == .notAdmissible)
        #expect(
            CheckInRules.decide(
                guest: .init(eventId: event, status: .confirmed, checkedInAt: nil), eventId: event, reconfirm: true)
                == .checkIn)
        #expect(
            CheckInRules.decide(
                guest: .init(eventId: event, status: .confirmed, checkedInAt: now), eventId: event, reconfirm: false)
                == .alreadyCheckedIn)
        #expect(
            CheckInRules.decide(
                guest: .init(eventId: event, status: .confirmed, checkedInAt: now), eventId: event, reconfirm: true)
                == .reconfirm)
    }

    @Test("a repeat within the dedupe window is concurrent, later a repeat")
    func repeatKind() {
        let first = Date(timeIntervalSince1970: 1000)
        #expect(CheckInRules.repeatKind(firstAt: first, now: first + 30, dedupeWindow: 30) == .concurrent)
        #expect(CheckInRules.repeatKind(firstAt: first, now: first + 30.001, dedupeWindow: 30) == .repeat)
    }
}
