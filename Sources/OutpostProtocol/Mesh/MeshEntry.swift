import Crypto
import Foundation
import OutpostCore

/// One admission a device made, as it tells its peers: immutable and signed by the device that
/// made it, so a peer can forward it but not forge or change it. Each device numbers its own
/// entries 1, 2, 3… without gaps and links each to the one before (``previous``), so two
/// different entries under one number (a restored backup, a rogue device) show as a fork.
public struct MeshEntry: Hashable, Sendable {
    public enum Kind: UInt8, Sendable, Codable {
        /// A guest admitted (checked in).
        case admit = 1
    }

    public var event: EventID
    public var guest: GuestID
    public var kind: Kind
    /// The device that made and signed it (its certificate's device id).
    public var author: String
    /// The author's own count: 1 for its first entry.
    public var seq: UInt64
    /// ``id`` of the author's entry `seq - 1`; 32 zero bytes for the first.
    public var previous: [UInt8]
    /// When the guest was scanned, by the author's clock (milliseconds since 1970): with the
    /// author and the guest, the check-in's idempotency key, so the server dedupes a peer's
    /// upload of it against the author's own.
    public var scannedAt: Int64
    /// The door's name and the staff member's, for "checked in by Bea at 19:02 on door 3".
    public var door: String
    public var staff: String
    /// The author's P-256 signature over ``signedBytes`` (64 bytes, r then s).
    public var signature: [UInt8]

    public static let noPrevious = [UInt8](repeating: 0, count: 32)
    /// The longest encoded entry: the door and staff names are cut to 60 characters' bytes.
    public static let maximumSize = 1024

    public init(
        event: EventID, guest: GuestID, kind: Kind = .admit, author: String, seq: UInt64, previous: [UInt8],
        scannedAt: Int64, door: String, staff: String, signature: [UInt8] = []
    ) {
        self.event = event
        self.guest = guest
        self.kind = kind
        self.author = author
        self.seq = seq
        self.previous = previous
        self.scannedAt = scannedAt
        self.door = String(door.prefix(60))
        self.staff = String(staff.prefix(60))
        self.signature = signature
    }

    /// What the author signs: every field but the signature, in a fixed order.
    public var signedBytes: [UInt8] {
        var bytes = MeshBytes()
        bytes.append(tag: "outpost-mesh-entry/1")
        bytes.append(uuid: event.uuid)
        bytes.append(uuid: guest.uuid)
        bytes.append(byte: kind.rawValue)
        bytes.append(string: author)
        bytes.append(unsigned: seq)
        bytes.append(fixed: previous)
        bytes.append(int: scannedAt)
        bytes.append(string: door)
        bytes.append(string: staff)
        return bytes.bytes
    }

    /// The entry's identity: SHA-256 of what is signed (not of the signature, which ECDSA
    /// makes different each time the same entry is signed).
    public var id: [UInt8] { Array(SHA256.hash(data: signedBytes)) }

    /// The bytes sent: ``signedBytes`` then the signature, length-prefixed.
    public var encoded: [UInt8] {
        var bytes = MeshBytes()
        bytes.append(fixed: signedBytes)
        bytes.append(bytes: signature)
        return bytes.bytes
    }

    /// Decodes ``encoded``; anything else (short, long, another version) is
    /// ``MeshRefusal/malformed``, and over ``maximumSize`` ``MeshRefusal/oversize``.
    public init(decoding bytes: [UInt8]) throws {
        guard bytes.count <= Self.maximumSize else { throw MeshRefusal.oversize }
        var reader = MeshReader(bytes)
        try reader.tag("outpost-mesh-entry/1")
        let event = EventID(try reader.uuid())
        let guest = GuestID(try reader.uuid())
        guard let kind = Kind(rawValue: try reader.byte()) else { throw MeshRefusal.malformed }
        let author = try reader.string()
        let seq = try reader.unsigned()
        let previous = try reader.fixed(32)
        let scannedAt = try reader.int()
        let door = try reader.string()
        let staff = try reader.string()
        let signature = try reader.lengthPrefixed()
        guard reader.remaining == 0, seq >= 1, MeshIdentity.isValidDevice(author), door.count <= 60,
            staff.count <= 60
        else { throw MeshRefusal.malformed }
        self.init(
            event: event, guest: guest, kind: kind, author: author, seq: seq, previous: previous, scannedAt: scannedAt,
            door: door, staff: staff, signature: signature)
    }

    /// Signs the entry with the author's key.
    public mutating func sign(with key: P256.Signing.PrivateKey) throws {
        signature = Array(try key.signature(for: signedBytes).rawRepresentation)
    }

    /// Whether the signature is the author's: `key` is the public key of the author's
    /// certificate.
    public func isSigned(by key: P256.Signing.PublicKey) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.isValidSignature(signature, for: signedBytes)
    }
}
