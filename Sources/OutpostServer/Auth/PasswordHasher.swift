import Crypto
import Foundation
import HummingbirdBcrypt
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// bcrypt, run on NIO's thread pool so a slow hash never stalls an event loop, behind a
/// ``WorkGate`` so a burst of sign-ins is refused early instead of queueing without bound.
///
/// Passwords are pre-hashed: bcrypt reads at most 72 bytes and stops at a NUL, so `"\0abc"`
/// would match `""` and two long passphrases sharing 72 bytes would match each other. A stored
/// password hash is `sha256$` followed by the bcrypt of the password's SHA-256 (base64: 44
/// ASCII bytes, no NUL). Hashes from before (plain bcrypt) still verify, refuse any password with
/// a NUL, and are replaced on the next successful sign-in (``needsUpgrade(_:)``).
///
/// Kiosk passcodes are digits only (``PasscodePolicy``) and verified by devices offline with
/// plain bcrypt, so they are hashed without the prefix (``hashPasscode(_:)``).
public struct PasswordHasher: Sendable {
    /// The bcrypt cost (work factor); 12 in production, lower only in tests.
    public var cost: UInt8
    let gate: WorkGate

    static let prefix = "sha256$"

    public init(cost: UInt8 = 12) {
        self.init(cost: cost, gate: WorkGate(running: System.coreCount, waiting: 64))
    }

    init(cost: UInt8, gate: WorkGate) {
        self.cost = cost
        self.gate = gate
    }

    /// A stored hash for a new password.
    public func hashPassword(_ password: String) async throws -> String {
        let cost = cost
        let digest = Self.preHash(password)
        return try await work { Self.prefix + Bcrypt.hash(digest, cost: cost) }
    }

    /// The stored hash of an account nobody knows the password of (it signs in with mailed
    /// codes or single sign-on): a random password's, so no password ever matches it.
    func unusablePasswordHash() async throws -> String {
        try await hashPassword(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() })
    }

    /// A plain bcrypt hash of a kiosk passcode (devices verify it offline).
    public func hashPasscode(_ passcode: String) async throws -> String {
        let cost = cost
        return try await work { Bcrypt.hash(passcode, cost: cost) }
    }

    /// Whether `password` matches `storedHash`. With no stored hash (an unknown e-mail) a decoy
    /// hash of the same cost is verified, so the answer takes as long as for a known e-mail.
    public func verifyPassword(_ password: String, storedHash: String?) async throws -> Bool {
        let cost = cost
        return try await work {
            let decoy = Self.decoyHash(cost: cost)
            guard let storedHash else {
                _ = Bcrypt.verify(Self.preHash(password), hash: decoy)
                return false
            }
            if storedHash.hasPrefix(Self.prefix) {
                return Bcrypt.verify(Self.preHash(password), hash: String(storedHash.dropFirst(Self.prefix.count)))
            }
            // A plain bcrypt hash from before pre-hashing: bcrypt would stop at a NUL.
            guard !password.utf8.contains(0) else {
                _ = Bcrypt.verify(Self.preHash(password), hash: decoy)
                return false
            }
            return Bcrypt.verify(password, hash: storedHash)
        }
    }

    /// True for a stored hash of the old, plain form (replace it after a successful sign-in).
    public func needsUpgrade(_ storedHash: String) -> Bool { !storedHash.hasPrefix(Self.prefix) }

    /// The bcrypt cost a hash was made with (`$2b$12$...` is 12), or nil when it is not bcrypt.
    static func cost(of hash: String) -> UInt8? {
        let bcrypt = hash.hasPrefix(prefix) ? hash.dropFirst(prefix.count) : Substring(hash)
        let fields = bcrypt.split(separator: "$", omittingEmptySubsequences: true)
        return fields.count >= 2 ? UInt8(fields[1]) : nil
    }

    /// The password as bcrypt sees it: its SHA-256 in base64, 44 ASCII bytes.
    static func preHash(_ password: String) -> String {
        Data(SHA256.hash(data: Array(password.utf8))).base64EncodedString()
    }

    private func work<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        try await gate.run { try await NIOThreadPool.singleton.runIfActive(body) }
    }

    /// One decoy per cost, made on first use (on the thread pool, by the first verification): a
    /// hash of nothing anyone knows, at the configured cost, so a wrong e-mail takes exactly as
    /// long as a wrong password.
    static func decoyHash(cost: UInt8) -> String {
        decoys.withLockedValue { decoys in
            if let decoy = decoys[cost] { return decoy }
            let decoy = Bcrypt.hash(preHash("outpost-decoy-" + UUID().uuidString), cost: cost)
            decoys[cost] = decoy
            return decoy
        }
    }

    private static let decoys = NIOLockedValueBox<[UInt8: String]>([:])
}
