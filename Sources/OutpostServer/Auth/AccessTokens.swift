import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// Short-lived access tokens: `v1.<payload>.<mac>`, where the payload names the user, tenant,
/// role, expiry and the sign-in (refresh-token family) it belongs to (and `enroll` when the
/// session may only turn on two-factor sign-in), and the MAC is HMAC-SHA256
/// under a secret every server instance shares (kept in the database). Verification needs no
/// database access; whether the sign-in has ended is ``RevokedSessions``'s (from memory).
struct AccessTokens: Sendable {
    let key: SymmetricKey
    let lifetime: TimeInterval

    func issue(for caller: Caller, now: Date) -> String {
        let expiry = (now + lifetime).millisecondsSince1970
        var payload =
            "\(caller.userId.wire)|\(caller.tenantId.wire)|\(caller.role.rawValue)|\(expiry)"
        if let session = caller.session { payload += "|\(session.wire)" }
        // Only a session can be restricted: its token says so last.
        if caller.mustEnroll, caller.session != nil { payload += "|enroll" }
        let signed = "v1." + Base64URL.encode(Array(payload.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array(signed.utf8), using: key)
        return signed + "." + Base64URL.encode(mac)
    }

    /// The refresh token that follows `token` when it is rotated. Derived (HMAC under a key
    /// derived from the shared secret), not random, so a refresh whose answer was lost can be
    /// answered again with the same successor while the database keeps only hashes.
    func refreshSuccessor(of token: String) -> String {
        let successorKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, info: Data("outpost-refresh-successor-v1".utf8), outputByteCount: 32)
        return Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Array(token.utf8), using: successorKey))
    }

    /// The caller the token names, or nil when it is forged, altered or expired.
    func verify(_ token: String, now: Date) -> Caller? {
        guard token.utf8.count < 512 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let mac = Base64URL.decode(String(parts[2])) else { return nil }
        let signed = parts[0] + "." + parts[1]
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(signed.utf8), using: key),
            let payloadBytes = Base64URL.decode(String(parts[1])),
            let payload = String(validating: payloadBytes, as: UTF8.self)
        else { return nil }
        let fields = payload.split(separator: "|")
        guard (4...6).contains(fields.count), fields.count < 6 || fields[5] == "enroll",
            let userId = UserID(wire: String(fields[0])),
            let tenantId = TenantID(wire: String(fields[1])),
            let role = UserRole(rawValue: String(fields[2])), let expiry = Int64(fields[3]),
            now.millisecondsSince1970 < expiry
        else { return nil }
        var session: SignInID?
        if fields.count >= 5 {
            guard let family = SignInID(wire: String(fields[4])) else { return nil }
            session = family
        }
        return Caller(userId: userId, tenantId: tenantId, role: role, session: session, mustEnroll: fields.count == 6)
    }
}

/// Refresh tokens are 256 random bits; the database keeps only their SHA-256.
enum RefreshTokens {
    static func make() -> String {
        Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(token.utf8)))
    }
}
