import Crypto
import Foundation

/// The authority's signed word that one certificate is revoked (its user removed or signed out,
/// its device lost). It travels with the roster and between peers like an entry: a peer that
/// has learnt it refuses the certificate from then on, whoever forwarded it.
public struct MeshRevocation: Hashable, Sendable, Codable {
    /// The revoked certificate's serial number.
    public var serial: [UInt8]
    /// When the authority revoked it, in milliseconds since 1970.
    public var at: Int64
    /// The authority's P-256 signature over ``signedBytes`` (64 bytes, r then s).
    public var signature: [UInt8]

    public init(serial: [UInt8], at: Int64, signature: [UInt8]) {
        self.serial = serial
        self.at = at
        self.signature = signature
    }

    /// What the authority signs: a domain tag, the serial and the time.
    public var signedBytes: [UInt8] {
        var bytes = MeshBytes()
        bytes.append(tag: "outpost-mesh-revocation/1")
        bytes.append(bytes: serial)
        bytes.append(int: at)
        return bytes.bytes
    }

    /// The serial as lower-case hex, how revocations are looked up.
    public var serialHex: String { MeshBytes.hex(serial) }
}
