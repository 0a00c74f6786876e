import Foundation
import OutpostLab
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

/// An SMTP sink on loopback and a server of `kind` whose relay it is and whose sender the test
/// drives (``TestAPI/sendQueuedMail()``); `configure` adds to that.
func withMailTestServer(
    _ kind: StoreKind, configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestAPI, SMTPSink) async throws -> Void
) async throws {
    let sink = try await SMTPSink.startForTest()
    defer { sink.stop() }
    try await withTestServer(
        kind,
        configure: {
            $0.smtpRelay = SMTPClient(relay: sink.relay)
            $0.mailQueuePoll = nil
            configure(&$0)
        }
    ) { api in try await body(api, sink) }
}
