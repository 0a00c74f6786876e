import Foundation
import Logging
import OutpostCore
import ServiceLifecycle

extension Store {
    /// Deletes stored idempotency answers created before `cutoff`; returns how many.
    @discardableResult
    func purgeIdempotencyKeys(createdBefore cutoff: Date) async throws -> Int {
        try await database.transaction { connection in
            let rows = try await connection.query(
                "DELETE FROM idempotency_keys WHERE created_at < ? RETURNING key", [.date(cutoff)])
            return rows.count
        }
    }
}

/// Keeps every idempotency answer at least ``retention`` (72 hours by default), then deletes it,
/// checking once every ``interval``. Ends on graceful shutdown.
struct IdempotencyRetentionService: Service {
    let store: Store
    let clock: WallClock
    var retention: TimeInterval = 72 * 3600
    var interval: Duration = .seconds(3600)
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    // Waiting first keeps the first purge after start-up migrations.
                    try await Task.sleep(for: interval)
                    await purgeOnce()
                }
            }
        } catch is CancellationError {
            return
        }
    }

    func purgeOnce() async {
        do {
            let purged = try await store.purgeIdempotencyKeys(createdBefore: clock.now() - retention)
            if purged > 0 { logger.info("purged expired idempotency answers", metadata: ["count": "\(purged)"]) }
        } catch {
            logger.warning("could not purge idempotency answers", metadata: ["error": "\(error)"])
        }
    }
}
