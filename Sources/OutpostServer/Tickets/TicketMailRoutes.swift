import Crypto
import Foundation
import Hummingbird
import OutpostCore
import OutpostDrawing
import OutpostProtocol

/// Tickets by e-mail: `POST /v1/events/{eventId}/ticket-mails` queues each chosen
/// guest's ticket (a plain-text mail with the code, and the ticket page as a PDF to show at the
/// door) in the durable mail queue and answers; the queue sends them through the operator's SMTP
/// relay, trying again while it is down (``MailQueue``). `GET …/ticket-mails` lists where every
/// guest's last mail stands, so a failed one can be sent again.
struct TicketMailRoutes {
    let dependencies: ServerDependencies

    /// Guests one request mails at most.
    static let maxBatch = 5_000

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.mailTickets, use: send)
        group.on(API.ticketMails, use: list)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.ticketMails.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(
            TicketMailList(deliveries: try await dependencies.store.ticketMails(eventId: event.id).map(\.delivery)))
    }

    @Sendable func send(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.mailTickets.parameters(in: context), context, dependencies, requiring: [.organizer])
        let body = try await HTTPHelpers.decode(TicketMailRequest.self, from: request)
        guard let relay = dependencies.configuration.smtpRelay else {
            throw APIError(.serviceUnavailable, .mailUnavailable, "\(MailError.notConfigured).")
        }
        let store = dependencies.store
        let resend = body.resend ?? false
        var candidates: [GuestInfo] = []
        if let ids = body.guestIds {
            guard ids.count <= Self.maxBatch else {
                throw APIError.invalidRequest("At most \(Self.maxBatch) guests a request.")
            }
            for id in ids {
                guard
                    let guest = try await store.database.read({
                        try await Store.guest($0, eventId: event.id, id: id)
                    })
                else { throw APIError.notFound }
                candidates.append(guest)
            }
        } else {
            var cursor: GuestListCursor?
            repeat {
                let page = try await store.guestList(
                    event: event, filter: GuestFilter(status: GuestStatus.confirmed.rawValue), after: cursor, limit: 500
                )
                guard page.total <= Self.maxBatch else {
                    throw APIError.invalidRequest(
                        "\(page.total) guests are more than one request mails (\(Self.maxBatch)); choose them by id.",
                        status: .unprocessableContent)
                }
                candidates += page.guests
                cursor = page.next.flatMap { GuestListCursor(token: $0) }
            } while cursor != nil
        }
        let previous = try await store.ticketMails(eventId: event.id)
        let waiting = Dictionary(
            previous.compactMap { row in row.waitingMail.map { (row.delivery.guestId, $0) } },
            uniquingKeysWith: { a, _ in a })
        let already = Set(previous.filter { $0.delivery.state != .failed }.map(\.delivery.guestId))
        // A named guest is sent again when asked by id; "everyone" skips those sent or waiting,
        // and a ticket block's unnamed tickets (no one to mail yet).
        let chosen = candidates.filter {
            $0.status == .confirmed && !$0.email.isEmpty
                && (resend || body.guestIds != nil || !already.contains($0.id))
        }
        let names = Dictionary(
            try await store.accessTypes(eventId: event.id).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let now = dependencies.clock.now()
        let key = try await store.signingKey(eventId: event.id, now: now)
        let signing = try Curve25519.Signing.PrivateKey(rawRepresentation: key.privateKey)
        var failed = 0
        for guest in chosen {
            if let mailId = waiting[guest.id] {
                // Still waiting in the queue: asked again, it is tried now rather than mailed twice.
                try await store.retryMailNow(id: mailId, now: now)
                continue
            }
            let made = try await queueTicket(
                event: event, guest: guest, accessType: names[guest.accessTypeId] ?? "", key: key, signing: signing,
                relay: relay, now: now)
            if !made { failed += 1 }
        }
        dependencies.mailQueue.nudge()
        let chosenIds = Set(chosen.map(\.id))
        let deliveries = try await store.ticketMails(eventId: event.id).map(\.delivery).filter {
            chosenIds.contains($0.guestId)
        }
        return try HTTPHelpers.json(
            TicketMailReport(
                queued: chosen.count - failed, failed: failed, skipped: candidates.count - chosen.count,
                deliveries: deliveries))
    }
}

extension TicketMailRoutes {
    /// Makes a guest's ticket mail (the signed ticket, its page as a PDF) and queues it; false
    /// when it could not be made (recorded as failed, with why, so it can be sent again).
    func queueTicket(
        event: EventRecord, guest: GuestInfo, accessType: String, key: EventKeyRecord,
        signing: Curve25519.Signing.PrivateKey, relay: SMTPClient, now: Date
    ) async throws -> Bool {
        let store = dependencies.store
        do {
            let text = try TicketRoutes.ticketText(
                event: event, guestId: guest.id, key: key, signing: signing, now: now)
            guard
                let page = TicketSheet.page(
                    event: event.info, ticket: TicketSheet.Ticket(guest: guest, accessType: accessType, text: text))
            else { throw MailError.invalidHeader }
            let message = TicketMail.message(
                event: event.info, guest: guest, from: dependencies.configuration.mailFrom,
                pdf: Array(try CairoCanvas.pdf([page])), consentLink: try await consentLink(guest.id))
            try await store.queueTicketMail(
                eventId: event.id, guestId: guest.id, email: guest.email,
                mail: try OutgoingMail(purpose: .ticket, message: message, messageID: relay.newMessageID(), now: now),
                now: now)
            return true
        } catch let error as MailError {
            try await store.recordUnsendableTicketMail(
                eventId: event.id, guestId: guest.id, email: guest.email, error: "\(error)", at: now)
            dependencies.logger.warning(
                "ticket mail not made", metadata: ["event": "\(event.id)", "guest": "\(guest.id)", "error": "\(error)"])
            return false
        }
    }

    /// The attendee's own consent page, where the server knows its public address (the mail is
    /// read elsewhere: a link to a guessed host would be wrong); nil otherwise.
    func consentLink(_ guest: GuestID) async throws -> String? {
        guard let base = dependencies.configuration.publicURL?.absoluteString else { return nil }
        let token = try await dependencies.contactConsentLinks().token(for: guest)
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + ConsolePages.attendeeContact.path(token)
    }
}

/// A guest's ticket mail. Pure.
enum TicketMail {
    static func message(
        event: EventInfo, guest: GuestInfo, from: String, pdf: [UInt8], consentLink: String? = nil
    ) -> MailMessage {
        let exhibitors =
            consentLink.map {
                "\n\nExhibitors who scan your badge see your name and e-mail only if you say so:\n\($0)"
            } ?? ""
        return MailMessage(
            from: from, to: guest.email, subject: "Your ticket: \(event.name)",
            body: """
                Your ticket for \(event.name) is attached.

                Hello \(guest.name),

                \(event.name) starts \(TicketSheet.when(event)). Show the attached ticket's QR code at
                the door, printed or on your phone. If it will not scan, give your code: \(guest.code)

                See you there.\(exhibitors)
                """,
            attachments: [MailMessage.Attachment(filename: "ticket.pdf", contentType: "application/pdf", bytes: pdf)])
    }
}
