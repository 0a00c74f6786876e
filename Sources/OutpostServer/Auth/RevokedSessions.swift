import Foundation
import OutpostCore

/// The sign-ins that ended (a sign-out, a password change, a removal, a refresh token used
/// twice), as every instance learns them: the revoked refresh-token families whose access tokens
/// could still be live (a copied console cookie kept working for up to 15
/// minutes after "Sign out", and a removed user's access token too).
///
/// Each access token names its family; ``isRevoked(family:now:)`` answers from memory, and the
/// set is read again from the store when it is older than ``refreshInterval`` of the server's
/// clock (one indexed query a second per instance, not one per request). The read starts a few
/// seconds before the last one (``overlap``), so a revocation committed while a read ran, or
/// stamped by an instance whose clock is a little behind, is still seen; families revoked longer
/// ago than an access token lives are forgotten.
///
/// A lock, not an actor: the check is on every authenticated request (the check-in path), and an
/// actor would send every request through one executor; here a request takes the lock for one
/// dictionary lookup, and only a stale set waits for the one read under way.
final class RevokedSessions: @unchecked Sendable {
    static let refreshInterval: TimeInterval = 1
    static let overlap: TimeInterval = 5

    private let store: Store
    private let tokenLifetime: TimeInterval
    private let lock = NSLock()
    private var revoked: [SignInID: Date] = [:]
    private var readAt: Date?
    private var reading: Task<Void, any Error>?

    init(store: Store, tokenLifetime: TimeInterval) {
        self.store = store
        self.tokenLifetime = tokenLifetime
    }

    /// True when `family`'s sign-in ended; read again from the store first when the set is stale.
    func isRevoked(family: SignInID, now: Date) async throws -> Bool {
        let (fresh, found) = lock.withLock { () -> (Bool, Bool) in
            let fresh = readAt.map { now.timeIntervalSince($0) < Self.refreshInterval && now >= $0 } ?? false
            return (fresh, revoked[family] != nil)
        }
        if fresh { return found }
        try await refresh(now: now)
        return lock.withLock { revoked[family] != nil }
    }

    /// This instance just ended a sign-in: the next check reads the store again, so here the
    /// change holds at once (the other instances learn it within ``refreshInterval``).
    func invalidate() { lock.withLock { readAt = nil } }

    /// One read at a time: concurrent requests wait for the read under way.
    private func refresh(now: Date) async throws {
        let task = lock.withLock { () -> Task<Void, any Error> in
            if let reading { return reading }
            let since = max(
                (readAt ?? .distantPast).addingTimeInterval(-Self.overlap),
                now.addingTimeInterval(-tokenLifetime - Self.overlap))
            let task = Task { [store] in
                let found = try await store.familiesRevoked(since: since)
                self.merge(found, now: now)
            }
            reading = task
            return task
        }
        defer { lock.withLock { if reading == task { reading = nil } } }
        try await task.value
    }

    private func merge(_ found: [(family: SignInID, at: Date)], now: Date) {
        lock.withLock {
            for (family, at) in found { revoked[family] = at }
            let horizon = now.addingTimeInterval(-tokenLifetime - Self.overlap)
            revoked = revoked.filter { $0.value >= horizon }
            readAt = now
        }
    }
}

extension Store {
    /// The refresh-token families revoked at or after `since`, each with when.
    func familiesRevoked(since: Date) async throws -> [(family: SignInID, at: Date)] {
        try await database.read { connection in
            try await connection.query(
                "SELECT family_id, MAX(revoked_at) AS at FROM refresh_tokens WHERE revoked_at >= ? GROUP BY family_id",
                [.date(since)]
            ).map { row in (try row.id("family_id"), try row.date("at")) }
        }
    }
}
