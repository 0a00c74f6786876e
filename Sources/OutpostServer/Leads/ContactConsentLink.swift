import Crypto
import Foundation
import OutpostCore

/// The key in an attendee's consent link: their guest id and a MAC under a server secret, so
/// the link lets its holder change that one guest's consent and nothing else, without an
/// account. Pure.
struct ContactConsentLink: Sendable {
    let key: SymmetricKey

    /// `v1.<guest id, base64url>.<HMAC-SHA256 of it, base64url>`.
    func token(for guest: GuestID) -> String {
        let id = Base64URL.encode(Array(guest.uuid.bytes))
        return "v1.\(id).\(Base64URL.encode(mac(id)))"
    }

    /// The guest the token names, or nil when it is altered or not a token.
    func guest(in token: String) -> GuestID? {
        guard token.utf8.count < 200 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let given = Base64URL.decode(String(parts[2])),
            HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Array(parts[1].utf8), using: key),
            let bytes = Base64URL.decode(String(parts[1])), let uuid = UUID(bytes: bytes)
        else { return nil }
        return GuestID(uuid)
    }

    private func mac(_ id: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(id.utf8), using: key))
    }
}
