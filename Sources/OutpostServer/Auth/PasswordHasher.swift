import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run on NIO's thread pool so a slow hash never stalls an event loop.
public struct PasswordHasher: Sendable {
    /// The bcrypt cost (work factor); 12 in production, lower only in tests.
    public var cost: UInt8

    public init(cost: UInt8 = 12) { self.cost = cost }

    public func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// A hash of nothing anyone knows, verified against when the e-mail is unknown so a wrong
    /// e-mail takes as long as a wrong password.
    static let decoyHash = Bcrypt.hash("outpost-decoy-password", cost: 10)
}
