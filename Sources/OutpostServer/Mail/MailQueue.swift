import Foundation
import Logging
import OutpostCore

/// The durable mail queue's sender: requests queue their mail in the database
/// (``Store/enqueueMail(_:_:now:)``) and answer at once; this sends what is due through the
/// relay, one mail at a time, and records each outcome (``MailRetryPolicy``). Every instance
/// runs one; a claim keeps two from sending the same mail, and a mail whose sender died
/// mid-send is due again when its lease ends (so a mail may, rarely, arrive twice; it is never
/// lost).
final class MailQueue: Sendable {
    /// Makes a queued request into the mail to send (stored back in the queue with whatever it
    /// needs, in one transaction); nil when there is nothing to send.
    typealias Preparer = @Sendable (_ request: QueuedMail, _ now: Date, _ relay: SMTPClient) async throws -> QueuedMail?

    let store: Store
    let preparers: [MailPurpose: Preparer]
    let relay: SMTPClient?
    let clock: WallClock
    let logger: Logger
    let metrics: ServerMetrics
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let readiness = Readiness()

    /// What one pass sent, put off and gave up.
    struct Pass: Sendable, Equatable {
        var sent = 0
        var deferred = 0
        var failed = 0
        var expired = 0
        var dropped = 0
        /// Due mails another sender had claimed.
        var skipped = 0
    }

    init(
        store: Store, relay: SMTPClient?, clock: WallClock, logger: Logger, metrics: ServerMetrics,
        preparers: [MailPurpose: Preparer] = [:]
    ) {
        self.store = store
        self.preparers = preparers
        self.metrics = metrics
        self.relay = relay
        self.clock = clock
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The sender a server runs: its relay and clock, and what makes code requests into mails.
    static func make(
        store: Store, configuration: ServerConfiguration, logger: Logger, metrics: ServerMetrics
    ) -> MailQueue {
        let codes = EmailCodeMail.preparer(store: store)
        return MailQueue(
            store: store, relay: configuration.smtpRelay, clock: configuration.clock, logger: logger, metrics: metrics,
            preparers: [.signInCode: codes, .registrationCode: codes])
    }

    /// Asks the sender to look now (a mail was just queued).
    func nudge() { wake.yield() }

    /// The store is migrated: the sender may start (it does nothing before).
    func markReady() {
        readiness.set()
        nudge()
    }

    /// Sends every mail due now; returns what happened. Never throws: a store error is logged
    /// and the next pass tries again.
    @discardableResult
    func sendDue(limit: Int = 100) async -> Pass {
        var pass = Pass()
        guard let relay, readiness.isSet else { return pass }
        do {
            while true {
                let due = try await store.dueMails(now: clock.now(), limit: limit)
                for mail in due {
                    try await send(mail, relay: relay, into: &pass)
                }
                if due.count < limit { break }
            }
            if pass != Pass() {
                let counts = try await store.mailQueueCounts()
                metrics.setMailQueue(
                    Dictionary(uniqueKeysWithValues: MailQueueState.allCases.map { ($0.rawValue, counts[$0] ?? 0) }))
            }
        } catch {
            logger.warning("the mail queue could not be read", metadata: ["error": "\(error)"])
        }
        return pass
    }

    private func send(_ mail: QueuedMail, relay: SMTPClient, into pass: inout Pass) async throws {
        let now = clock.now()
        if let expiresAt = mail.expiresAt, expiresAt <= now {
            try await store.settleMail(id: mail.id, state: .expired, error: nil, now: now)
            pass.expired += 1
            logger.notice(
                "a queued mail expired unsent", metadata: ["mail": "\(mail.id)", "purpose": "\(mail.purpose)"])
            return
        }
        guard try await store.claimMail(mail, now: now, lease: MailRetryPolicy.lease) else {
            pass.skipped += 1
            return
        }
        let attempts = mail.attempts + 1
        var mail = mail
        if mail.isRequest {
            guard let prepare = preparers[mail.purpose] else {
                try await store.settleMail(
                    id: mail.id, state: .failed, error: "nothing makes this request a mail", now: now)
                pass.failed += 1
                return
            }
            guard let prepared = try await prepare(mail, now, relay) else {
                try await store.settleMail(id: mail.id, state: .dropped, error: nil, now: now)
                pass.dropped += 1
                return
            }
            mail = prepared
        }
        do {
            try await relay.send(rendered: mail.rendered, from: mail.from, to: mail.to)
            try await store.settleMail(id: mail.id, state: .sent, error: nil, now: clock.now())
            pass.sent += 1
        } catch {
            let failedAt = clock.now()
            let reason = "\(error)"
            switch MailRetryPolicy.afterFailure(attempts: attempts, error: error, now: failedAt) {
            case .retry(let at):
                try await store.deferMail(id: mail.id, error: reason, until: at)
                pass.deferred += 1
                logger.warning(
                    "a mail was not sent; it will be tried again",
                    metadata: ["mail": "\(mail.id)", "attempts": "\(attempts)", "error": "\(reason)"])
            case .failed:
                try await store.settleMail(id: mail.id, state: .failed, error: reason, now: failedAt)
                pass.failed += 1
                logger.error(
                    "a mail was given up",
                    metadata: ["mail": "\(mail.id)", "attempts": "\(attempts)", "error": "\(reason)"])
            }
        }
    }

    /// Runs the sender until cancelled: a pass whenever a mail is queued, and every `interval`
    /// for retries that fell due.
    func run(interval: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wake] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    wake.yield()
                }
            }
            group.addTask { [self] in
                for await _ in wakes {
                    if Task.isCancelled { break }
                    await sendDue()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Ends ``run(interval:)``'s wait for wake-ups.
    func finish() { wake.finish() }

    private final class Readiness: @unchecked Sendable {
        private let lock = NSLock()
        private var ready = false
        var isSet: Bool { lock.withLock { ready } }
        func set() { lock.withLock { ready = true } }
    }
}
