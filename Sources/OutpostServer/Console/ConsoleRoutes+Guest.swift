import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// One guest: see them, edit them (organizer), cancel their registration (organizer). Each
/// change is the API's `PATCH /v1/events/{eventId}/guests/{guestId}`.
extension ConsoleRoutes {
    func registerGuest(on group: RouterGroup<AppRequestContext>) {
        group.get("events/{eventId}/guests/{guestId}", use: guest)
        group.post("events/{eventId}/guests/{guestId}", use: updateGuest)
        group.post("events/{eventId}/guests/{guestId}/cancel", use: cancelGuest)
    }

    static func guestId(_ context: AppRequestContext) throws -> String {
        guard let text = context.parameters.get("guestId"), let id = UUID(wire: text) else { throw APIError.notFound }
        return id.lowercasedString
    }

    @Sendable func guest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let guestId = try Self.guestId(context)
        return try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(context, call)
            let id = detail.event.id.wire
            let answer = try await call(.get, "/v1/events/\(id)/guests/\(guestId)", nil)
            guard answer.status == .ok else {
                if answer.status == .notFound { throw APIError.notFound }
                return try await problem(answer, session: session, back: "/admin/events/\(id)/guests")
            }
            let guest = try answer.decode(GuestInfo.self)
            var values: [String: Any] = [
                "event": ["id": id, "name": detail.event.name],
                "guest": [
                    "id": guest.id.wire, "name": guest.name, "email": guest.email, "code": guest.code,
                    "status": guest.status.rawValue, "notes": guest.notes,
                ],
                "accessTypes": detail.accessTypes.map {
                    ["id": $0.id.wire, "name": $0.name, "selected": $0.id == guest.accessTypeId]
                },
                "statuses": GuestStatus.allCases.map { ["value": $0.rawValue, "selected": $0 == guest.status] },
                "canEdit": Self.role(session) == .organizer, "confirmed": guest.status == .confirmed,
            ]
            if let checkIn = guest.checkIn {
                values["checkedIn"] =
                    Self.local(checkIn.at, detail.event.timeZone, display: true) + " by " + checkIn.byName
            }
            return try await page(
                "guest", title: "\(guest.name) · \(detail.event.name)", values, session: session,
                notice: Self.flash(request))
        }
    }

    @Sendable func updateGuest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.eventId(context)
        let guestId = try Self.guestId(context)
        return try await changing(request, context) { _, form, call in
            guard let status = GuestStatus(rawValue: form["status"] ?? "") else {
                throw EventForm.Invalid(sentence: "Choose the guest's status.")
            }
            guard let accessType = form["accessTypeId"].flatMap(UUID.init(wire:)) else {
                throw EventForm.Invalid(sentence: "Choose the guest's access type.")
            }
            let body = try OutpostJSON.encode(
                UpdateGuestRequest(
                    status: status, name: form["name"] ?? "", email: form["email"] ?? "", notes: form["notes"] ?? "",
                    accessTypeId: AccessTypeID(accessType)))
            let back = "/admin/events/\(id)/guests/\(guestId)"
            let answer = try await call(.patch, "/v1/events/\(id)/guests/\(guestId)", body)
            guard answer.status == .ok else { return .refused(answer, back: back) }
            return .redirect(back + "?done=guest")
        }
    }

    @Sendable func cancelGuest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.eventId(context)
        let guestId = try Self.guestId(context)
        return try await changing(request, context) { _, _, call in
            let back = "/admin/events/\(id)/guests/\(guestId)"
            let body = try OutpostJSON.encode(UpdateGuestRequest(status: .cancelled))
            let answer = try await call(.patch, "/v1/events/\(id)/guests/\(guestId)", body)
            guard answer.status == .ok else { return .refused(answer, back: back) }
            return .redirect(back + "?done=cancelled")
        }
    }
}
