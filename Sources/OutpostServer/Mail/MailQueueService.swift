import Foundation
import ServiceLifecycle

/// Runs the instance's ``MailQueue`` sender beside the HTTP server until shutdown.
struct MailQueueService: Service {
    let queue: MailQueue
    let interval: Duration

    func run() async throws {
        await cancelWhenGracefulShutdown { await queue.run(interval: interval) }
    }
}
