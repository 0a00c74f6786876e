import Crypto
import Foundation
import Hummingbird
import OutpostCore
import OutpostDrawing
import OutpostProtocol

/// `GET /v1/events/{eventId}/guests/{guestId}/ticket?format=text|svg|png`, and every ticket of
/// an event as one PDF to print, `GET /v1/events/{eventId}/tickets.pdf`.
struct TicketRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.ticket, use: ticket)
        group.on(API.ticketSheet, use: sheet)
    }

    /// Guests one PDF holds at most; a larger event prints by access type.
    static let maxSheet = 5_000

    /// Every confirmed guest's ticket (of one access type with `accessTypeId`), a page each, by
    /// name.
    @Sendable func sheet(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.ticketSheet.parameters(in: context), context, dependencies, requiring: [.organizer])
        var filter = GuestFilter(status: GuestStatus.confirmed.rawValue)
        if let accessType = request.uri.queryParameters.get("accessTypeId") {
            guard let id = AccessTypeID(wire: accessType) else {
                throw APIError.invalidRequest("'accessTypeId' must be an access type's id.")
            }
            filter.accessTypeId = id
        }
        let store = dependencies.store
        var guests: [GuestInfo] = []
        var cursor: GuestListCursor?
        repeat {
            // Counted once, on the first page (the sheet's limit); the rest are read as they come.
            let page = try await store.guestList(
                event: event, filter: filter, after: cursor, limit: 500, counted: cursor == nil)
            guard page.total <= Self.maxSheet else {
                throw APIError.invalidRequest(
                    "\(page.total) tickets are more than one PDF holds (\(Self.maxSheet)); print them by access type.",
                    status: .unprocessableContent)
            }
            guests += page.guests
            cursor = page.next.flatMap { GuestListCursor(token: $0, sort: filter.sort) }
        } while cursor != nil
        guard !guests.isEmpty else {
            throw APIError.invalidRequest("No confirmed guest has a ticket to print.", status: .unprocessableContent)
        }
        let names = Dictionary(
            try await store.accessTypes(eventId: event.id).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let now = dependencies.clock.now()
        let key = try await store.signingKey(eventId: event.id, now: now)
        let signing = try Curve25519.Signing.PrivateKey(rawRepresentation: key.privateKey)
        let pages = try guests.compactMap { guest -> ReportPage? in
            let text = try Self.ticketText(event: event, guestId: guest.id, key: key, signing: signing, now: now)
            return TicketSheet.page(
                event: event.info,
                ticket: TicketSheet.Ticket(guest: guest, accessType: names[guest.accessTypeId] ?? "", text: text))
        }
        let pdf = try CairoCanvas.pdf(pages)
        var response = HTTPHelpers.bytes(Array(pdf), status: .ok, contentType: "application/pdf")
        response.headers[.contentDisposition] = "attachment; filename=\"tickets.pdf\""
        return response
    }

    /// A guest's signed ticket text (what the QR code carries), issued `now` under the event's key.
    static func ticketText(
        event: EventRecord, guestId: GuestID, key: EventKeyRecord, signing: Curve25519.Signing.PrivateKey, now: Date
    ) throws -> String {
        try TicketCodec.encode(
            TicketPayload(
                keyID: key.keyID, tenantId: event.tenantId.uuid, eventId: event.id.uuid, guestId: guestId.uuid,
                issuedAt: now),
            signingKey: signing)
    }

    @Sendable func ticket(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, guest) = try API.ticket.parameters(in: context)
        let event = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        let guestId = guest
        let format = request.uri.queryParameters.get("format") ?? "text"
        guard ["text", "svg", "png"].contains(format) else {
            throw APIError.invalidRequest("'format' must be text, svg or png.")
        }
        let exists = try await dependencies.store.database.read {
            try await Store.guest($0, eventId: event.id, id: guestId)
        }
        guard exists != nil else { throw APIError.notFound }
        let now = dependencies.clock.now()
        let key = try await dependencies.store.signingKey(eventId: event.id, now: now)
        let text = try Self.ticketText(
            event: event, guestId: guestId, key: key,
            signing: try Curve25519.Signing.PrivateKey(rawRepresentation: key.privateKey), now: now)
        switch format {
        case "svg":
            guard let code = QRCode(text: text) else {
                throw APIError(.internalServerError, .internalError, "The ticket does not fit a QR code.")
            }
            return HTTPHelpers.bytes(Array(code.svg().utf8), status: .ok, contentType: "image/svg+xml")
        case "png":
            guard let code = QRCode(text: text) else {
                throw APIError(.internalServerError, .internalError, "The ticket does not fit a QR code.")
            }
            return HTTPHelpers.bytes(code.png(), status: .ok, contentType: "image/png")
        default:
            return HTTPHelpers.bytes(Array((text + "\n").utf8), status: .ok, contentType: "text/plain; charset=utf-8")
        }
    }
}
