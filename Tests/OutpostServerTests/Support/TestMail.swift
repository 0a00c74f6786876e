import Foundation
import OutpostTestSupport

@testable import OutpostServer

extension TestAPI {
    /// A mail sender on this server's store, relay and clock, for a test to run by hand
    /// (`sendDue()`): the server is configured with `mailQueuePoll = nil`, so it queues but
    /// never sends, and what reaches the relay is exactly what the test drove.
    func mailSender() -> MailQueue {
        let queue = MailQueue.make(
            store: store, configuration: configuration, logger: TestSupport.logger, metrics: ServerMetrics())
        queue.markReady()
        return queue
    }

    /// Sends every mail due now (``mailSender()``).
    @discardableResult
    func sendQueuedMail() async -> MailQueue.Pass { await mailSender().sendDue() }
}
