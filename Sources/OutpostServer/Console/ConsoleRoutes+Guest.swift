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
        group.on(ConsolePages.addGuestField, use: addGuestField)
        group.on(ConsolePages.removeGuestField, use: removeGuestField)
    }

    /// A new guest field at the end of the event's list: a label, a kind and, for a choice, its
    /// choices (one per line or comma-separated).
    @Sendable func addGuestField(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.addGuestField.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            // Another tenant's event is not found, whatever the form says.
            let answer = try await call(API.guestFields.line(id), nil)
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.event.path(id)) }
            var list = try answer.decode(GuestFieldList.self)
            guard let kind = GuestFieldKind(rawValue: form["kind"] ?? "") else {
                throw EventForm.Invalid(sentence: "Choose what the field holds: text, a choice or a checkbox.")
            }
            let choices =
                kind == .choice
                ? (form["choices"] ?? "").split(whereSeparator: { $0 == "," || $0.isNewline }).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }.filter { !$0.isEmpty } : []
            list.fields.append(GuestField(id: .random(), label: form["label"] ?? "", kind: kind, choices: choices))
            let saved = try await call(API.setGuestFields.line(id), try OutpostJSON.encode(list))
            guard saved.status == .ok else { return .refused(saved, back: ConsolePages.event.path(id)) }
            return .redirect(ConsolePages.event.path(id, query: [("done", "guest-field")]))
        }
    }

    /// A guest field taken off the event: guests' values of it are kept, no longer shown.
    @Sendable func removeGuestField(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, fieldId) = try ConsolePages.removeGuestField.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let answer = try await call(API.guestFields.line(id), nil)
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.event.path(id)) }
            var list = try answer.decode(GuestFieldList.self)
            guard list.fields.contains(where: { $0.id == fieldId }) else { throw APIError.notFound }
            list.fields.removeAll { $0.id == fieldId }
            let saved = try await call(API.setGuestFields.line(id), try OutpostJSON.encode(list))
            guard saved.status == .ok else { return .refused(saved, back: ConsolePages.event.path(id)) }
            return .redirect(ConsolePages.event.path(id, query: [("done", "guest-field-removed")]))
        }
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
            let fields = try await guestFields(id, call)
            let shown = GuestFieldRules.shown(guest.fields ?? [:], fields: fields)
            var values: [String: Any] = [
                "fields": Self.fieldInputs(fields, values: guest.fields ?? [:]),
                "shownFields": shown.map { ["label": $0.label, "value": $0.value] },
                "hasShownFields": !shown.isEmpty,
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
            // Every field of the event: an unticked box sends nothing, which is "no".
            let fields = try await guestFields(id, call)
            var values: GuestFieldValues = [:]
            for field in fields {
                let given = form["field.\(field.id.wire)"]
                values[field.id.wire] = field.kind == .checkbox ? (given == "on" ? "yes" : "no") : given ?? ""
            }
            let body = try OutpostJSON.encode(
                UpdateGuestRequest(
                    status: status, name: form["name"] ?? "", email: form["email"] ?? "", notes: form["notes"] ?? "",
                    accessTypeId: accessType, fields: values.isEmpty ? nil : values))
            let back = ConsolePages.guest.path(id, guestId)
            let answer = try await call(API.updateGuest.line(id, guestId), body)
            guard answer.status == .ok else { return .refused(answer, back: back) }
            return .redirect(back + "?done=guest")
        }
    }

    /// The event's guest fields (empty when the API does not answer them).
    func guestFields(_ id: EventID, _ call: Call) async throws -> [GuestField] {
        let answer = try await call(API.guestFields.line(id), nil)
        return answer.status == .ok ? try answer.decode(GuestFieldList.self).fields : []
    }

    /// The guest form's inputs for `fields`, filled with `values`.
    static func fieldInputs(_ fields: [GuestField], values: GuestFieldValues) -> [[String: Any]] {
        fields.map { field in
            let value = values[field.id.wire] ?? ""
            return [
                "id": field.id.wire, "label": field.label, "value": value,
                "isText": field.kind == .text, "isChoice": field.kind == .choice, "isCheckbox": field.kind == .checkbox,
                "checked": value == GuestFieldRules.ticked,
                "choices": field.choices.map { ["choice": $0, "selected": $0 == value] },
            ]
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
