import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// One guest: see them, edit them (organizer), cancel their registration (organizer). Each
/// change is the API's `PATCH /v1/events/{eventId}/guests/{guestId}`.
extension ConsoleRoutes {
    func registerGuest(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.guest, use: guest)
        group.on(ConsolePages.updateGuest, use: updateGuest)
        group.on(ConsolePages.cancelGuest, use: cancelGuest)
        registerCheckInDesk(on: group)
    }

    @Sendable func guest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (eventId, guestId) = try ConsolePages.guest.parameters(in: context)
        return try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(eventId, call)
            let id = detail.event.id
            let answer = try await call(API.showGuest.line(id, guestId), nil)
            guard answer.status == .ok else {
                if answer.status == .notFound { throw APIError.notFound }
                return try await problem(answer, session: session, back: ConsolePages.guests.path(id))
            }
            let guest = try answer.decode(GuestInfo.self)
            var values: [String: Any] = [
                "event": ["id": id.wire, "name": detail.event.name],
                "guest": [
                    "id": guest.id.wire, "name": guest.name, "email": guest.email, "code": guest.code,
                    "status": guest.status.rawValue, "notes": guest.notes,
                ],
                "accessTypes": detail.accessTypes.map {
                    ["id": $0.id.wire, "name": $0.name, "selected": $0.id == guest.accessTypeId]
                },
                "statuses": GuestStatus.allCases.map { ["value": $0.rawValue, "selected": $0 == guest.status] },
                "canEdit": Self.role(session, on: detail) == .organizer, "confirmed": guest.status == .confirmed,
            ]
            let clock = Self.localFormat(detail.event.timeZone)
            if let checkIn = guest.checkIn {
                values["checkedIn"] = clock.string(checkIn.at) + " by " + checkIn.byName
                values["checkIn"] = [
                    "id": checkIn.id?.wire ?? "", "at": clock.string(checkIn.at), "by": checkIn.byName,
                    "device": checkIn.deviceId,
                ]
            }
            // The check-in desk: the page's time is the check-in's, so sending the form twice
            // checks in once.
            values["desk"] = ["scannedAt": String(dependencies.clock.now().millisecondsSince1970)]
            // What happened to the guest, newest first, when the role may read the audit log.
            let history = try await call(
                API.audit.line(id, query: [("guestId", guest.id.wire), ("limit", "200")]), nil)
            if history.status == .ok {
                let entries = try history.decode(AuditPage.self).entries
                values["hasHistory"] = !entries.isEmpty
                values["history"] = entries.reversed().map { entry -> [String: Any] in
                    [
                        "at": clock.string(entry.at), "what": entry.kind.title, "by": entry.userName ?? "",
                        "device": entry.deviceId ?? "", "how": entry.method ?? "",
                    ]
                }
            }
            return try await page(
                "guest", title: "\(guest.name) · \(detail.event.name)", values, session: session,
                notice: Self.flash(request))
        }
    }

    @Sendable func updateGuest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, guestId) = try ConsolePages.updateGuest.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            guard let status = GuestStatus(rawValue: form["status"] ?? "") else {
                throw EventForm.Invalid(sentence: "Choose the guest's status.")
            }
            guard let accessType = form["accessTypeId"].flatMap(AccessTypeID.init(wire:)) else {
                throw EventForm.Invalid(sentence: "Choose the guest's access type.")
            }
            let body = try OutpostJSON.encode(
                UpdateGuestRequest(
                    status: status, name: form["name"] ?? "", email: form["email"] ?? "", notes: form["notes"] ?? "",
                    accessTypeId: accessType))
            let back = ConsolePages.guest.path(id, guestId)
            let answer = try await call(API.updateGuest.line(id, guestId), body)
            guard answer.status == .ok else { return .refused(answer, back: back) }
            return .redirect(back + "?done=guest")
        }
    }

    @Sendable func cancelGuest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, guestId) = try ConsolePages.cancelGuest.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let back = ConsolePages.guest.path(id, guestId)
            let body = try OutpostJSON.encode(UpdateGuestRequest(status: .cancelled))
            let answer = try await call(API.updateGuest.line(id, guestId), body)
            guard answer.status == .ok else { return .refused(answer, back: back) }
            return .redirect(back + "?done=cancelled")
        }
    }
}
