import Foundation
import HTTPTypes
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Tickets by e-mail through a real SMTP server on loopback (aiosmtpd): each guest's
/// ticket as a PDF attachment, a delivery status per guest, and a resend.
@Suite("Tickets by e-mail")
struct TicketMailTests {
    /// The first attachment of a received mail, decoded.
    static func attachment(_ message: SMTPSink.Message) -> [UInt8]? {
        guard let start = message.body.range(of: "Content-Transfer-Encoding: base64\n\n") else { return nil }
        let rest = message.body[start.upperBound...]
        let encoded = rest.prefix { $0 != "-" }.replacingOccurrences(of: "\n", with: "")
        return Data(base64Encoded: encoded).map(Array.init)
    }

    @Test(
        "console-email-tickets: the console e-mails each confirmed guest their ticket (the PDF attached, the name as text), once; the status per guest; a relay that is gone is recorded with its reason and a resend tries again",
        arguments: StoreKind.allCases)
    func emailTickets(kind: StoreKind) async throws {
        try await withMailTestServer(kind) { api, sink in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let hostile = try await api.createGuest(
                world.organizer, event: world.event, accessType: world.accessType, name: "<img src=x onerror=alert(1)>")
            _ = try await api.request(
                .patch, "/v1/events/\(id)/guests/\(world.guests[2].id.wire)", token: world.organizer.accessToken,
                json: UpdateGuestRequest(status: .cancelled))
            let browser = try await ConsoleTests.signedIn(api)
            let event = try await browser.get("/admin/events/\(id)")
            #expect(event.text.contains("id=\"mail-tickets\""))
            let sent = try await browser.post("/admin/events/\(id)/ticket-mails", [])
            #expect(
                sent.headers[.location] == "/admin/events/\(id)/ticket-mails?done=mailed&queued=3&failed=0",
                "\(sent.text)")
            // Queued, not sent: the answer came before any mail went.
            #expect(sink.messages().isEmpty)
            let queued = try await browser.get("/admin/events/\(id)/ticket-mails")
            #expect(queued.text.contains("0 sent, 3 waiting, 0 not sent"), "\(queued.text)")
            #expect(await api.sendQueuedMail() == MailQueue.Pass(sent: 3))
            let mails = sink.messages()
            #expect(Set(mails.map(\.to)) == Set([world.guests[0].email, world.guests[1].email, hostile.email]))
            let toHostile = try #require(mails.first { $0.to == hostile.email })
            #expect(toHostile.headers["subject"] == "Your ticket: \(world.event.name)")
            #expect(toHostile.headers["content-type"]?.hasPrefix("multipart/mixed; boundary=") == true)
            #expect(toHostile.body.contains("Hello <img src=x onerror=alert(1)>,"), "plain text, as it is")
            #expect(toHostile.body.contains(hostile.code))
            #expect(
                !toHostile.body.contains("attendee/contact"), "no public address: no consent link (lead-consent-link)")
            let pdf = try #require(Self.attachment(toHostile))
            #expect(pdf.starts(with: Array("%PDF-".utf8)) && pdf.count > 1_000)
            // The status page; sending again skips those already sent.
            let status = try await browser.get("/admin/events/\(id)/ticket-mails?done=mailed&queued=3&failed=0")
            #expect(status.text.contains("3 sent, 0 waiting, 0 not sent") && status.text.contains("3 ticket(s) queued"))
            #expect(status.text.contains("&lt;img src=x onerror=alert(1)&gt;") && !status.text.contains("<img src=x"))
            let again: TicketMailReport = try await api.request(
                .post, "/v1/events/\(id)/ticket-mails", token: world.organizer.accessToken, json: TicketMailRequest()
            ).decode()
            #expect(again.queued == 0 && again.skipped == 3)
            #expect(await api.sendQueuedMail() == MailQueue.Pass() && sink.messages().count == 3)
            // The relay goes away: the resend waits in the queue with the reason, counted as a try.
            sink.stop()
            let resend = try await browser.post(
                "/admin/events/\(id)/ticket-mails/\(world.guests[0].id.wire)/resend", [])
            #expect(resend.headers[.location] == "/admin/events/\(id)/ticket-mails?done=resent")
            #expect(await api.sendQueuedMail() == MailQueue.Pass(deferred: 1))
            let list: TicketMailList = try await api.request(
                .get, "/v1/events/\(id)/ticket-mails", token: world.support.accessToken
            ).decode()
            let first = try #require(list.deliveries.first { $0.guestId == world.guests[0].id })
            #expect(first.state == .queued && first.attempts == 2 && first.error?.contains("SMTP relay") == true)
            #expect(first.nextAttemptAt == api.clock.now.addingTimeInterval(MailRetryPolicy.delay(afterAttempt: 1)))
            let page = try await browser.get("/admin/events/\(id)/ticket-mails")
            #expect(
                page.text.contains("2 sent, 1 waiting, 0 not sent") && page.text.contains("could not be reached")
                    && page.text.contains("waiting (next try"), "\(page.text)")
            // Staff may not send; a cancelled guest asked for by id is skipped.
            #expect(
                try await api.request(
                    .post, "/v1/events/\(id)/ticket-mails", token: world.staff1.accessToken, json: TicketMailRequest()
                ).status == 403)
            let cancelled: TicketMailReport = try await api.request(
                .post, "/v1/events/\(id)/ticket-mails", token: world.organizer.accessToken,
                json: TicketMailRequest(guestIds: [world.guests[2].id])
            ).decode()
            #expect(cancelled.queued == 0 && cancelled.failed == 0 && cancelled.skipped == 1)
        }
    }

    @Test("console-email-tickets-no-relay: without an SMTP relay the API says so and the console shows its sentence")
    func noRelay() async throws {
        try await withTestServer(.sqlite) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let answer = try await api.request(
                .post, "/v1/events/\(id)/ticket-mails", token: world.organizer.accessToken, json: TicketMailRequest())
            #expect(
                answer.status == 503 && answer.errorCode == "mail_unavailable" && answer.text.contains("--smtp-relay"))
            let browser = try await ConsoleTests.signedIn(api)
            try await browser.get("/admin/events/\(id)")
            let page = try await browser.post("/admin/events/\(id)/ticket-mails", [])
            #expect(page.text.contains("no SMTP relay is configured"))
        }
    }

    @Test("mail-attachment: a mail with a file is multipart/mixed, the text first, the file in base64 lines of 76")
    func attachmentRendering() throws {
        let bytes = Array(repeating: UInt8(0x25), count: 200)
        let message = MailMessage(
            from: "a@b.c", to: "d@e.f", subject: "Ticket", body: ".starts with a dot\nsecond",
            attachments: [.init(filename: "ticket.pdf", contentType: "application/pdf", bytes: bytes)])
        let text = try message.rendered(date: Date(millisecondsSince1970: 0), messageID: "abc-123@x")
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.contains("Content-Type: multipart/mixed; boundary=\"=_outpost_abc123x\""))
        #expect(lines.contains("..starts with a dot"), "dot-stuffed")
        #expect(lines.contains("--=_outpost_abc123x--"))
        let encoded = Data(bytes).base64EncodedString()
        #expect(lines.contains(String(encoded.prefix(76))) && lines.allSatisfy { $0.count <= 998 })
        let bad = MailMessage(
            from: "a@b.c", to: "d@e.f", subject: "x", body: "",
            attachments: [.init(filename: "a\"\r\nBcc: x", contentType: "text/plain", bytes: [])])
        #expect(throws: MailError.invalidHeader) { try bad.rendered(date: Date(), messageID: "m") }
    }
}
