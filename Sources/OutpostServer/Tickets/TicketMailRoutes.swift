import Crypto
import Foundation
import Hummingbird
import OutpostCore
import OutpostDrawing
import OutpostProtocol

/// Tickets by e-mail (issue 16): `POST /v1/events/{eventId}/ticket-mails` sends each chosen
/// guest their ticket (a plain-text mail with the code, and the ticket page as a PDF to show at
/// the door) through the operator's SMTP relay, one mail at a time, and records each outcome;
/// `GET …/ticket-mails` lists every guest's last outcome, so a failed one can be sent again.
struct TicketMailRoutes {
    let dependencies: ServerDependencies

    /// Guests one request mails at most.
    static let maxBatch = 5_000

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.post("events/{eventId}/ticket-mails", use: send)
        group.get("events/{eventId}/ticket-mails", use: list)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .support])
        let event = try await EventRoutes.event(context, dependencies)
        return try HTTPHelpers.json(
            TicketMailList(deliveries: try await dependencies.store.ticketMails(eventId: event.id)))
    }

    @Sendable func send(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let event = try await EventRoutes.event(context, dependencies)
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
                        try await Store.guest($0, eventId: event.id, id: id.uuid)
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
                cursor = page.next.flatMap(GuestListCursor.init(token:))
            } while cursor != nil
        }
        let already = Set(try await store.ticketMails(eventId: event.id).filter { $0.state == .sent }.map(\.guestId))
        // A named guest is sent again when asked by id; "everyone" skips those already sent.
        let chosen = candidates.filter {
            $0.status == .confirmed && (resend || body.guestIds != nil || !already.contains($0.id))
        }
        let names = Dictionary(
            try await store.accessTypes(eventId: event.id).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let now = dependencies.clock.now()
        let key = try await store.signingKey(eventId: event.id, now: now)
        let signing = try Curve25519.Signing.PrivateKey(rawRepresentation: key.privateKey)
        var deliveries: [TicketMailDelivery] = []
        for guest in chosen {
            let text = try TicketRoutes.ticketText(
                event: event, guestId: guest.id.uuid, key: key, signing: signing, now: now)
            var state = TicketMailState.sent
            var failure: String?
            do {
                guard
                    let page = TicketSheet.page(
                        event: event.info,
                        ticket: TicketSheet.Ticket(
                            guest: guest, accessType: names[guest.accessTypeId] ?? "", text: text))
                else { throw MailError.invalidHeader }
                let message = TicketMail.message(
                    event: event.info, guest: guest, from: dependencies.configuration.mailFrom,
                    pdf: Array(try CairoCanvas.pdf([page])))
                try await relay.send(message, now: now)
            } catch {
                state = .failed
                failure = "\(error)"
                dependencies.logger.warning(
                    "ticket mail not sent",
                    metadata: ["event": "\(event.id)", "guest": "\(guest.id)", "error": "\(error)"])
            }
            try await store.recordTicketMail(
                eventId: event.id, guestId: guest.id.uuid, email: guest.email, state: state, error: failure, at: now)
            deliveries.append(
                TicketMailDelivery(
                    guestId: guest.id, guestName: guest.name, email: guest.email, state: state, attempts: 0,
                    error: failure, at: now))
        }
        let recorded = Dictionary(
            try await store.ticketMails(eventId: event.id).map { ($0.guestId, $0.attempts) },
            uniquingKeysWith: { a, _ in a })
        for index in deliveries.indices { deliveries[index].attempts = recorded[deliveries[index].guestId] ?? 1 }
        return try HTTPHelpers.json(
            TicketMailReport(
                sent: deliveries.filter { $0.state == .sent }.count,
                failed: deliveries.filter { $0.state == .failed }.count,
                skipped: candidates.count - chosen.count, deliveries: deliveries))
    }
}

/// A guest's ticket mail. Pure.
enum TicketMail {
    static func message(event: EventInfo, guest: GuestInfo, from: String, pdf: [UInt8]) -> MailMessage {
        MailMessage(
            from: from, to: guest.email, subject: "Your ticket: \(event.name)",
            body: """
                Your ticket for \(event.name) is attached.

                Hello \(guest.name),

                \(event.name) starts \(TicketSheet.when(event)). Show the attached ticket's QR code at
                the door, printed or on your phone. If it will not scan, give your code: \(guest.code)

                See you there.
                """,
            attachments: [MailMessage.Attachment(filename: "ticket.pdf", contentType: "application/pdf", bytes: pdf)])
    }
}
