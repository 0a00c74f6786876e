import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as authenticator apps make
/// them: HMAC-SHA-1 of the 30-second step number, dynamically truncated to six digits. Pure: the
/// secret, the time and the code in, the decision out.
enum TOTP {
    static let period: TimeInterval = 30
    static let digits = 6

    /// The step a moment falls in (seconds since 1970 over the period).
    static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / period).rounded(.down))
    }

    /// The code of `step` (`digits` wide, zero-padded), with `hash` as RFC 6238's test vectors
    /// vary it.
    static func code<H: HashFunction>(secret: [UInt8], step: Int64, digits: Int = digits, hash: H.Type) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = Array(HMAC<H>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    static func code(secret: [UInt8], step: Int64) -> String {
        code(secret: secret, step: step, hash: Insecure.SHA1.self)
    }

    /// The step `code` was made for, among the current step and one either side (a phone's
    /// clock a little off, a code typed as it turned), and only after `after` (a code is used
    /// once); nil when it matches none.
    static func matchingStep(_ code: String, secret: [UInt8], now: Date, after: Int64) -> Int64? {
        let typed = code.filter { !$0.isWhitespace }
        guard typed.count == digits, typed.allSatisfy(\.isASCII), typed.allSatisfy(\.isNumber) else { return nil }
        let current = step(at: now)
        for candidate in (current - 1)...(current + 1) where candidate > after {
            // Compared in full whatever matches first, so the time taken tells nothing.
            if constantTimeEqual(Self.code(secret: secret, step: candidate), typed) { return candidate }
        }
        return nil
    }

    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// The `otpauth://` URI authenticator apps scan.
    static func uri(secret: String, account: String, issuer: String = "Outpost") -> String {
        var components = URLComponents()
        components.scheme = "otpauth"
        components.host = "totp"
        components.path = "/" + issuer + ":" + account
        components.queryItems = [
            URLQueryItem(name: "secret", value: secret), URLQueryItem(name: "issuer", value: issuer),
            URLQueryItem(name: "algorithm", value: "SHA1"), URLQueryItem(name: "digits", value: String(digits)),
            URLQueryItem(name: "period", value: String(Int(period))),
        ]
        return components.string ?? ""
    }
}
