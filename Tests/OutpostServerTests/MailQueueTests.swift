import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The durable mail queue: requests queue their mail and answer at once; a
/// sender sends what is due, tries again while the relay is down, gives up after its tries, drops
/// a sign-in code's mail once the code expired, and never sends one mail from two senders.
@Suite("The durable mail queue")
struct MailQueueTests {
    /// A server whose relay is `port` on loopback (nothing need listen there), whose sender the
    /// test drives.
    static func withServer(
        _ kind: StoreKind, relayPort port: Int, _ body: @Sendable (TestAPI) async throws -> Void
    ) async throws {
        try await withTestServer(
            kind,
            configure: {
                // 30 s, not the default 10: with the whole suite on two cores a send to a relay that
                // is back once took longer than 10 s (a clean clone, 2026-11-27).
                $0.smtpRelay = SMTPClient(host: "127.0.0.1", port: port, timeout: .seconds(30))
                $0.mailQueuePoll = nil
            }, body)
    }

    /// The queue's rows as (state, attempts, due in seconds from now, last error).
    static func rows(_ api: TestAPI) async throws -> [(state: String, attempts: Int, dueIn: Double, error: String?)] {
        try await api.store.database.read { connection in
            try await connection.query(
                "SELECT state, attempts, next_attempt_at, last_error FROM mail_queue ORDER BY id", []
            ).map {
                (
                    try $0.text("state"), Int(try $0.int("attempts")),
                    try $0.date("next_attempt_at").timeIntervalSince(api.clock.now), try $0.optionalText("last_error")
                )
            }
        }
    }

    @Test(
        "mail-queue-relay-down: a code asked for while the relay is down is answered 202, waits with the reason, and goes out when the relay is back; once its ten minutes are over it is never sent",
        arguments: StoreKind.allCases)
    func relayDown(kind: StoreKind) async throws {
        // The relay comes back on this port: one no other server or connection of the parallel
        // run can take meanwhile (on one drawn from port 0, the sink once could not start).
        let port = try ServerHandle.returningPort()
        try await Self.withServer(kind, relayPort: port) { api in
            let asked = try await api.request(
                .post, "/v1/auth/email-code", json: EmailCodeRequest(email: "late@care.test", purpose: .register))
            #expect(asked.status == 202)
            #expect(await api.sendQueuedMail() == MailQueue.Pass(deferred: 1))
            var rows = try await Self.rows(api)
            #expect(rows.count == 1 && rows[0].state == "queued" && rows[0].attempts == 1)
            // A relay that is down refuses the connection; on a machine loaded enough the attempt
            // times out first. Either is the relay being down, and says so.
            #expect(
                rows[0].dueIn == MailRetryPolicy.firstDelay
                    && (rows[0].error?.contains("could not be reached") == true
                        || rows[0].error?.contains("did not answer in time") == true),
                "\(rows[0].error ?? "")")
            // Not due yet: nothing is tried.
            #expect(await api.sendQueuedMail() == MailQueue.Pass())
            // The relay comes back; the retry falls due.
            let sink = try await SMTPSink.startForTest(port: port)
            defer { sink.stop() }
            api.clock.advance(by: MailRetryPolicy.firstDelay)
            #expect(await api.sendQueuedMail() == MailQueue.Pass(sent: 1))
            let code = try await sink.code(for: "late@care.test")
            let created = try await EmailCodeContractTests.signIn(
                api, "late@care.test", code, name: "Late", consent: "2026-01")
            #expect(created.status == 200, "\(created.text)")
            rows = try await Self.rows(api)
            #expect(rows[0].state == "sent" && rows[0].attempts == 2)
            let dump = try await MentoringContractTests.dump(api.store, tables: ["mail_queue"])
            #expect(!dump.contains(code), "a sent mail's text is not kept")
            // The relay goes again; a code that cannot go out in its ten minutes never goes.
            sink.stop()
            #expect(
                try await api.request(
                    .post, "/v1/auth/email-code", json: EmailCodeRequest(email: "later@care.test", purpose: .register)
                ).status == 202)
            #expect(await api.sendQueuedMail() == MailQueue.Pass(deferred: 1))
            api.clock.advance(by: EmailCodeRoutes.codeLifetime)
            let back = try await SMTPSink.startForTest(port: port)
            defer { back.stop() }
            #expect(await api.sendQueuedMail() == MailQueue.Pass(expired: 1))
            #expect(back.messages().isEmpty)
            rows = try await Self.rows(api)
            #expect(rows.map(\.state) == ["sent", "expired"])
        }
    }

    @Test(
        "mail-queue-gives-up: a ticket mail is tried at growing intervals while the relay stays down, then given up with the reason; the organizer sees each step",
        arguments: StoreKind.allCases)
    func givesUp(kind: StoreKind) async throws {
        try await Self.withServer(kind, relayPort: try ServerHandle.freePort()) { api in
            let world = try await World.make(api, guests: 1)
            let id = world.event.id.wire
            let report: TicketMailReport = try await api.request(
                .post, "/v1/events/\(id)/ticket-mails", token: world.organizer.accessToken, json: TicketMailRequest()
            ).decode()
            #expect(report.queued == 1 && report.deliveries.first?.state == .queued)
            var waits: [Double] = []
            for attempt in 1...MailRetryPolicy.maxAttempts {
                let pass = await api.sendQueuedMail()
                if attempt < MailRetryPolicy.maxAttempts {
                    #expect(pass == MailQueue.Pass(deferred: 1), "try \(attempt)")
                    let row = try #require(try await Self.rows(api).first)
                    waits.append(row.dueIn)
                    api.clock.advance(by: row.dueIn)
                } else {
                    #expect(pass == MailQueue.Pass(failed: 1), "try \(attempt)")
                }
            }
            #expect(waits == [2, 8, 32, 128, 512, 2048, 3600])
            // Hours later: a new sign-in.
            let organizer = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
            let list: TicketMailList = try await api.request(
                .get, "/v1/events/\(id)/ticket-mails", token: organizer.accessToken
            ).decode()
            let delivery = try #require(list.deliveries.first)
            #expect(delivery.state == .failed && delivery.attempts == MailRetryPolicy.maxAttempts)
            #expect(delivery.error?.contains("could not be reached") == true && delivery.nextAttemptAt == nil)
            // Given up, the guest is sent again when "everyone" is asked for.
            let again: TicketMailReport = try await api.request(
                .post, "/v1/events/\(id)/ticket-mails", token: organizer.accessToken, json: TicketMailRequest()
            ).decode()
            #expect(again.queued == 1 && again.skipped == 0)
        }
    }

    @Test("mail-retry-policy: waits grow four times to an hour; a 5xx refusal or an unsendable message is final")
    func policy() {
        let now = Date(timeIntervalSince1970: 0)
        let down = MailError.connectionFailed("refused")
        #expect(MailRetryPolicy.afterFailure(attempts: 1, error: down, now: now) == .retry(at: now + 2))
        #expect(MailRetryPolicy.afterFailure(attempts: 3, error: MailError.timedOut, now: now) == .retry(at: now + 32))
        #expect(
            MailRetryPolicy.afterFailure(attempts: 2, error: MailError.rejected(code: 451, line: "busy"), now: now)
                == .retry(at: now + 8))
        #expect(
            MailRetryPolicy.afterFailure(attempts: 1, error: MailError.rejected(code: 550, line: "no"), now: now)
                == .failed)
        #expect(MailRetryPolicy.afterFailure(attempts: 1, error: MailError.invalidHeader, now: now) == .failed)
        #expect(MailRetryPolicy.afterFailure(attempts: MailRetryPolicy.maxAttempts, error: down, now: now) == .failed)
        #expect(MailRetryPolicy.delay(afterAttempt: 20) == MailRetryPolicy.longestDelay)
    }

    @Test(
        "mail-queue-one-sender-per-mail: two senders (two instances) draining one queue at once send each mail exactly once",
        arguments: StoreKind.allCases)
    func oneSender(kind: StoreKind) async throws {
        try await withMailTestServer(kind) { api, sink in
            let world = try await World.make(api, guests: 24)
            let report: TicketMailReport = try await api.request(
                .post, "/v1/events/\(world.event.id.wire)/ticket-mails", token: world.organizer.accessToken,
                json: TicketMailRequest()
            ).decode()
            #expect(report.queued == 24)
            let first = api.mailSender()
            let second = api.mailSender()
            async let a = first.sendDue(limit: 5)
            async let b = second.sendDue(limit: 5)
            let (passA, passB) = await (a, b)
            #expect(passA.sent + passB.sent == 24 && passA.failed + passB.failed == 0, "\(passA) \(passB)")
            let received = sink.messages().map(\.to)
            #expect(received.count == 24 && Set(received) == Set(world.guests.map(\.email)))
        }
    }
}
