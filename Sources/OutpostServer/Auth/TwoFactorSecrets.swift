import Crypto
import Foundation
import OutpostCore

/// What two-factor sign-in keeps secret, and how: a TOTP secret is sealed (AES-GCM, bound to its
/// user) under a key derived from the shared secret, so a copy of the database alone makes no
/// codes; a recovery code is kept as its SHA-256; a sign-in's challenge (the ticket between the
/// password and the code) is signed, not stored.
struct TwoFactorSecrets: Sendable {
    private let sealingKey: SymmetricKey
    private let challengeKey: SymmetricKey

    /// How long the code may follow the password.
    static let challengeLifetime: TimeInterval = 300

    init(secret: SymmetricKey) {
        sealingKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret, info: Data("outpost-two-factor-secret-v1".utf8), outputByteCount: 32)
        challengeKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret, info: Data("outpost-sign-in-challenge-v1".utf8), outputByteCount: 32)
    }

    /// A new TOTP secret: 160 random bits, RFC 4226's recommended length.
    static func makeSecret() -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: 160)).withUnsafeBytes { Array($0) }
    }

    func seal(_ secret: [UInt8], for user: UserID) throws -> [UInt8] {
        guard let combined = try AES.GCM.seal(secret, using: sealingKey, authenticating: Array(user.wire.utf8)).combined
        else { throw CryptoKitError.incorrectParameterSize }
        return Array(combined)
    }

    func open(_ sealed: [UInt8], for user: UserID) throws -> [UInt8] {
        Array(
            try AES.GCM.open(
                AES.GCM.SealedBox(combined: sealed), using: sealingKey, authenticating: Array(user.wire.utf8)))
    }

    /// Ten recovery codes, `XXXXX-XXXXX` (50 random bits each).
    static func makeRecoveryCodes() -> [String] {
        (0..<10).map { _ in
            let bytes = SymmetricKey(size: SymmetricKeySize(bitCount: 56)).withUnsafeBytes { Array($0) }
            let text = String(Base32.encode(bytes).prefix(10))
            return String(text.prefix(5)) + "-" + String(text.suffix(5))
        }
    }

    /// A recovery code as kept: SHA-256 of its letters and digits, upper-case (so `abcde fghij`
    /// and `ABCDE-FGHIJ` are the same code); nil for anything that cannot be one.
    static func recoveryHash(_ code: String) -> String? {
        let letters = code.uppercased().filter { $0.isLetter || $0.isNumber }
        guard letters.count == 10, letters.allSatisfy(\.isASCII) else { return nil }
        return SHA256.hash(data: Array(letters.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// `c1.<user|expiry|device>.<mac>`: the password was right for this user on this device.
    func challenge(user: UserID, deviceId: String, now: Date) -> String {
        let expiry = (now + Self.challengeLifetime).millisecondsSince1970
        let signed = "c1." + Base64URL.encode(Array("\(user.wire)|\(expiry)|\(deviceId)".utf8))
        return signed + "."
            + Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Array(signed.utf8), using: challengeKey))
    }

    /// The user and device a challenge names, or nil when it is forged, altered or expired.
    func verifyChallenge(_ token: String, now: Date) -> (user: UserID, deviceId: String)? {
        guard token.utf8.count < 1_024 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "c1", let mac = Base64URL.decode(String(parts[2])) else { return nil }
        let signed = parts[0] + "." + parts[1]
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(signed.utf8), using: challengeKey),
            let bytes = Base64URL.decode(String(parts[1])), let payload = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let fields = payload.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let user = UserID(wire: String(fields[0])), let expiry = Int64(fields[1]),
            now.millisecondsSince1970 < expiry
        else { return nil }
        return (user, String(fields[2]))
    }
}
