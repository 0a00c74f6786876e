import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the S256 method: the party that starts an
/// authorization keeps a random verifier and sends only its challenge; whoever redeems the code
/// must show the verifier. The device and the console use it with Outpost's single sign-on, and
/// the server with the identity provider.
public enum PKCE {
    /// A fresh verifier: 32 random bytes as base64url (43 characters, RFC 7636 §4.1).
    public static func makeVerifier() -> String {
        Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// The S256 challenge of `verifier`.
    public static func challenge(of verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }

    /// A verifier's allowed form (RFC 7636 §4.1): 43 to 128 unreserved characters.
    public static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.count)
            && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) }
    }

    /// A random opaque value for `state`, `nonce` and one-time codes: 16 bytes as base64url.
    public static func randomToken() -> String {
        Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    }
}
