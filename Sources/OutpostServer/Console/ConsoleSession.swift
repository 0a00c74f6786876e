import Crypto
import Foundation
import OutpostCore

/// A signed-in browser of the organizer console: the API token pair it acts with, and a random
/// nonce its forms' CSRF tokens are made from. Kept whole in one cookie (`HttpOnly`,
/// `SameSite=Strict`, `Secure` over TLS, path `/admin`), so any server instance serves it; the
/// API checks every call it makes, exactly as for any other client.
struct ConsoleSession: Sendable, Equatable {
    static let cookieName = "outpost_console"
    /// Before sign-in: the nonce the sign-in form's CSRF token is made from.
    static let preCookieName = "outpost_console_pre"

    var nonce: String
    var accessToken: String
    var refreshToken: String
    /// The signed-in user's name, as the sign-in's (or the last refresh's) answer gave it: shown
    /// in the bar, never trusted (the API reads only the tokens).
    var name: String

    /// `nonce~access~refresh~name`, the name in base64url: the access token's dots and
    /// base64url never hold a `~`. A cookie of the three first parts (from before the name was
    /// kept) is read with no name.
    var cookieValue: String {
        [nonce, accessToken, refreshToken, Base64URL.encode(Array(name.utf8))].joined(separator: "~")
    }

    /// The most of a name the cookie keeps (names have no limit; a cookie does).
    static let nameLength = 100

    init(nonce: String = ConsoleSession.makeNonce(), accessToken: String, refreshToken: String, name: String = "") {
        self.nonce = nonce
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.name = name.count > Self.nameLength ? String(name.prefix(Self.nameLength - 1)) + "…" : name
    }

    init?(cookie: String) {
        let parts = cookie.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
        guard (3...4).contains(parts.count), parts[0..<3].allSatisfy({ !$0.isEmpty && $0.utf8.count < 1_024 }),
            parts.count == 3 || parts[3].utf8.count < 1_024
        else { return nil }
        let name =
            parts.count == 4 ? Base64URL.decode(parts[3]).flatMap { String(validating: $0, as: UTF8.self) } : nil
        self.init(nonce: parts[0], accessToken: parts[1], refreshToken: parts[2], name: name ?? "")
    }

    static func makeNonce() -> String {
        Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    }
}

/// CSRF tokens: an HMAC of the session's (or the sign-in form's) nonce under a key derived from
/// the secret every server instance shares; a form post must carry the token of the cookie it
/// comes with. Pure.
struct ConsoleCSRF: Sendable {
    let key: SymmetricKey

    init(secret: SymmetricKey) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret, info: Data("outpost-console-csrf-v1".utf8), outputByteCount: 32)
    }

    func token(for nonce: String) -> String {
        Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Array(nonce.utf8), using: key))
    }

    func isValid(_ token: String?, for nonce: String?) -> Bool {
        guard let token, let nonce, let mac = Base64URL.decode(token) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(nonce.utf8), using: key)
    }
}

/// Whether a state-changing request comes from the console's own pages: a browser says where a
/// request comes from (`Origin`, `Sec-Fetch-Site`); another site's is refused before anything
/// else, whatever it carries. Pure.
enum ConsoleOrigin {
    static func isSameOrigin(origin: String?, fetchSite: String?, host: String?) -> Bool {
        if let fetchSite, !["same-origin", "none"].contains(fetchSite.lowercased()) { return false }
        // No Origin (an older browser, a tool): the CSRF token alone decides.
        guard let origin else { return true }
        guard let host, let url = URL(string: origin), let originHost = url.host else { return false }
        let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
        return originAuthority.lowercased() == host.lowercased()
    }
}
