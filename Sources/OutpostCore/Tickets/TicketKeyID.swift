import Crypto

/// Names one event signing key inside a ticket: the first four bytes of SHA-256 of the raw
/// Ed25519 public key, written on the wire as eight lower-case hex digits.
public struct TicketKeyID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Derives the id of a public key.
    public init(publicKey: Curve25519.Signing.PublicKey) {
        let digest = Array(SHA256.hash(data: publicKey.rawRepresentation))
        rawValue = digest[0..<4].reduce(0) { ($0 << 8) | UInt32($1) }
    }

    /// Parses the eight-hex-digit wire form.
    public init?(hex: String) {
        guard hex.utf8.count == 8, let value = UInt32(hex, radix: 16) else { return nil }
        rawValue = value
    }

    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
