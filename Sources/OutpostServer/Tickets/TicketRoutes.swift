import Crypto
import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// `GET /v1/events/{eventId}/guests/{guestId}/ticket?format=text|svg|png`.
struct TicketRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.get("events/{eventId}/guests/{guestId}/ticket", use: ticket)
    }

    @Sendable func ticket(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let event = try await EventRoutes.event(context, dependencies)
        let guestId = try HTTPHelpers.uuid("guestId", in: context)
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
        let text = try TicketCodec.encode(
            TicketPayload(
                keyID: key.keyID, tenantId: event.tenantId, eventId: event.id, guestId: guestId, issuedAt: now),
            signingKey: try Curve25519.Signing.PrivateKey(rawRepresentation: key.privateKey))
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
