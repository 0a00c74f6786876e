import Crypto
import Foundation
import OutpostCore

/// The owner of a user's demo records (`track seed-demo` once sent 14
/// invented days as real hours). A module keeps demo data under this owner instead of the
/// user's, so every query by the user's id leaves it out (views of their own hours, the CSV
/// and the privacy export), and the outbox refuses to queue anything of it
/// (``DeviceStore/enqueue(_:kind:eventId:idempotencyKey:request:owner:now:)``): demo data never
/// leaves its sandbox.
///
/// The id is derived from the user's: six marker bytes (with a version nibble of 0, so no
/// random v4 id is ever taken for one), then ten bytes of SHA-256 of the user's id.
public enum SandboxOwner {
    package static let marker: [UInt8] = [0xde, 0x40, 0x5a, 0xbd, 0x00, 0x0b]

    /// The sandbox of `user`'s demo records.
    public static func of(_ user: UserID) -> UserID {
        let digest = Array(SHA256.hash(data: Data(("outpost-demo:" + user.wire).utf8)))
        let bytes = marker + digest.prefix(10)
        let uuid = bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        return UserID(UUID(uuid: uuid))
    }

    /// True when `owner` is a sandbox, not a person.
    public static func contains(_ owner: UserID) -> Bool {
        withUnsafeBytes(of: owner.uuid.uuid) { Array($0.prefix(marker.count)) } == marker
    }
}

/// The outbox was asked to queue a sandbox's record.
public struct SandboxNeverSent: Error, CustomStringConvertible {
    public var description: String { "demo records are never queued for the server" }
}
