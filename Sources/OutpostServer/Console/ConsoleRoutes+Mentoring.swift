import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The coordinator's pages (an organizer of a peer-mentoring tenant): the contacts (add one,
/// assign a mentor, erase one) and the activities report with its filters (mentor, contact,
/// period) and the funder's CSV. All through the API's contacts and activities routes.
extension ConsoleRoutes {
    func registerMentoring(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.contacts, use: contacts)
        group.on(ConsolePages.createContact, use: createContact)
        group.on(ConsolePages.assignMentor, use: assignMentor)
        group.on(ConsolePages.eraseContact, use: eraseContact)
        group.on(ConsolePages.activities, use: activities)
        group.on(ConsolePages.activitiesCSV, use: activitiesCSV)
        registerContactPage(on: group)
    }

    /// The tenant's mentors, by id (for names and pickers).
    func mentors(_ call: Call) async throws -> [UserInfo] {
        let answer = try await call(API.listUsers.line(), nil)
        guard answer.status == .ok else { return [] }
        return try answer.decode(UserList.self).users.filter { $0.role == .mentor }
    }

    @Sendable func contacts(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            try await contactsPage(request, session, call, draft: nil)
        }
    }

    func contactsPage(
        _ request: Request, _ session: ConsoleSession, _ call: Call, draft: FormDraft?
    ) async throws -> Response {
        let answer = try await call(API.listContacts.line(), nil)
        guard answer.status == .ok else {
            return try await problem(answer, session: session, back: ConsolePages.events.path())
        }
        let mentors = try await mentors(call)
        let names = Dictionary(mentors.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var values: [String: Any] = [
            "contacts": try answer.decode(ContactList.self).contacts.map { contact -> [String: Any] in
                [
                    "id": contact.id.wire, "name": contact.name, "area": contact.area,
                    "lastVisit": contact.lastVisit ?? "none yet",
                    "mentors": contact.mentorIds.compactMap { names[$0] }.joined(separator: ", "),
                    "sensitive": contact.sensitiveFields.joined(separator: ", "),
                    "assignable": mentors.filter { !contact.mentorIds.contains($0.id) }.map {
                        ["id": $0.id.wire, "name": $0.name]
                    },
                ]
            },
            "hasMentors": !mentors.isEmpty,
        ]
        draft?.apply(to: &values)
        return try await page("contacts", title: "Contacts", values, session: session, notice: Self.flash(request))
    }

    @Sendable func createContact(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changing(
            request, context,
            redisplay: { draft, session, call in try await contactsPage(request, session, call, draft: draft) }
        ) { _, form, call in
            func given(_ name: String) -> String? {
                let value = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
            let body = try OutpostJSON.encode(
                CreateContactRequest(
                    name: form["name"] ?? "", area: form["area"] ?? "", address: given("address"),
                    phone: given("phone"), healthNotes: given("healthNotes")))
            let answer = try await call(API.createContact.line(), body)
            guard answer.status == .created || answer.status == .ok else {
                return .refused(answer, back: ConsolePages.contacts.path())
            }
            return .redirect(ConsolePages.contacts.path(query: [("done", "contact")]))
        }
    }

    @Sendable func assignMentor(_ request: Request, context: AppRequestContext) async throws -> Response {
        let contact = try ConsolePages.assignMentor.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            guard let mentor = form["mentorId"].flatMap(UserID.init(wire:)) else {
                throw EventForm.Invalid(sentence: "Choose a mentor.")
            }
            let answer = try await call(API.assignMentor.line(contact, mentor), nil)
            guard answer.status == .noContent else { return .refused(answer, back: ConsolePages.contacts.path()) }
            return .redirect(ConsolePages.contacts.path(query: [("done", "assigned")]))
        }
    }

    @Sendable func eraseContact(_ request: Request, context: AppRequestContext) async throws -> Response {
        let contact = try ConsolePages.eraseContact.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let answer = try await call(API.eraseContact.line(contact), nil)
            guard answer.status == .noContent else { return .refused(answer, back: ConsolePages.contacts.path()) }
            return .redirect(ConsolePages.contacts.path(query: [("done", "erased")]))
        }
    }

    /// The report's filters of a request, as the API takes them.
    static func activityFilters(_ request: Request) -> [(String, String?)] {
        given(request, ["mentor", "contact", "from", "to"])
    }

    @Sendable func activities(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let filters = Self.activityFilters(request)
            var query = filters + [("limit", "200")]
            if let after = request.uri.queryParameters.get("after"), !after.isEmpty { query.append(("after", after)) }
            let answer = try await call(API.listActivities.line(query: query), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.activities.path())
            }
            let list = try answer.decode(ActivityList.self)
            let contactsAnswer = try await call(API.listContacts.line(), nil)
            let contacts = contactsAnswer.status == .ok ? try contactsAnswer.decode(ContactList.self).contacts : []
            let contactNames = Dictionary(contacts.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let mentors = try await mentors(call)
            let mentorNames = Dictionary(mentors.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let live = list.activities.filter { !$0.deleted }
            let chosen = Dictionary(filters.map { ($0.0, $0.1 ?? "") }, uniquingKeysWith: { first, _ in first })
            var values: [String: Any] = [
                "activities": live.map { activity -> [String: Any] in
                    [
                        "date": activity.date, "type": activity.type.rawValue.capitalized,
                        "minutes": activity.durationMinutes, "mentor": mentorNames[activity.mentorId] ?? "",
                        "contact": contactNames[activity.contactId] ?? "(erased)",
                    ]
                },
                "count": Self.grouped(live.count) + (live.count == 1 ? " activity" : " activities"),
                "minutes": Self.grouped(live.reduce(0) { $0 + $1.durationMinutes }),
                "mentors": mentors.map {
                    ["id": $0.id.wire, "name": $0.name, "selected": chosen["mentor"] == $0.id.wire]
                },
                "contacts": contacts.map {
                    ["id": $0.id.wire, "name": $0.name, "selected": chosen["contact"] == $0.id.wire]
                },
                "from": chosen["from"] ?? "", "to": chosen["to"] ?? "",
                "csv": ConsolePages.activitiesCSV.path(query: filters),
            ]
            if let next = list.next {
                values["next"] = ConsolePages.activities.path(query: filters + [("after", next)])
            }
            return try await page(
                "activities", title: "Activities", values, session: session, notice: Self.flash(request))
        }
    }

    /// The funder's report as CSV, with the page's filters (the API's, as it wrote it).
    @Sendable func activitiesCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await download(
            request, context, API.listActivities.line(query: Self.activityFilters(request) + [("format", "csv")]),
            type: "text/csv; charset=utf-8", name: "activities.csv", back: ConsolePages.activities.path())
    }
}

/// One contact's page: its edit form and the reveals of its sealed fields.
extension ConsoleRoutes {
    func registerContactPage(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.contact, use: contact)
        group.on(ConsolePages.updateContact, use: updateContact)
    }

    /// The sealed fields as the form names them.
    static let sealedFields: [(name: String, title: String, type: String)] = [
        ("address", "Address", "text"), ("phone", "Phone", "tel"), ("healthNotes", "Health notes", "text"),
    ]

    @Sendable func contact(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.contact.parameters(in: context)
        return try await signedIn(request, context) { session, call in
            try await contactPage(request, id, session, call, draft: nil)
        }
    }

    func contactPage(
        _ request: Request, _ id: ContactID, _ session: ConsoleSession, _ call: Call, draft: FormDraft?
    ) async throws -> Response {
        let list = try await call(API.listContacts.line(), nil)
        guard list.status == .ok else {
            return try await problem(list, session: session, back: ConsolePages.contacts.path())
        }
        // Another tenant's contact, or an erased one's id: the console's not-found page.
        guard let contact = try list.decode(ContactList.self).contacts.first(where: { $0.id == id }) else {
            throw APIError.notFound
        }
        let revealsAnswer = try await call(API.contactReveals.line(id), nil)
        guard revealsAnswer.status == .ok else {
            return try await problem(revealsAnswer, session: session, back: ConsolePages.contacts.path())
        }
        let users = try await call(API.listUsers.line(), nil)
        let names =
            users.status == .ok
            ? Dictionary(
                try users.decode(UserList.self).users.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            : [:]
        let reveals = try revealsAnswer.decode(ContactRevealList.self).reveals.reversed()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.dateFormat = "d MMM yyyy, HH:mm"
        formatter.timeZone = TimeZone(identifier: "UTC")
        var values: [String: Any] = [
            "contact": ["id": contact.id.wire, "name": contact.name],
            "form": ["name": contact.name, "area": contact.area],
            "sealed": Self.sealedFields.map { field -> [String: Any] in
                [
                    "name": field.name, "title": field.title, "lowerTitle": field.title.lowercased(),
                    "type": field.type, "isSet": contact.sensitiveFields.contains(field.name),
                ]
            },
            "hasReveals": !reveals.isEmpty,
            "reveals": reveals.map {
                [
                    "at": ISO8601DateFormatter().string(from: $0.at), "when": formatter.string(from: $0.at) + " UTC",
                    "who": names[$0.userId] ?? "a removed user",
                ]
            },
        ]
        draft?.apply(to: &values)
        return try await page(
            "contact", title: "\(contact.name) · Contacts", values, session: session, notice: Self.flash(request))
    }

    /// The edit: name and area as typed; a sealed field changes only when retyped, or goes when
    /// its "remove" box is ticked.
    @Sendable func updateContact(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.updateContact.parameters(in: context)
        return try await changing(
            request, context,
            redisplay: { draft, session, call in try await contactPage(request, id, session, call, draft: draft) }
        ) { _, form, call in
            func sealed(_ name: String) -> String? {
                if form["remove-\(name)"] == "1" { return "" }
                let value = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
            let body = try OutpostJSON.encode(
                UpdateContactRequest(
                    name: form["name"] ?? "", area: form["area"] ?? "", address: sealed("address"),
                    phone: sealed("phone"), healthNotes: sealed("healthNotes")))
            let answer = try await call(API.updateContact.line(id), body)
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.contact.path(id)) }
            return .redirect(ConsolePages.contact.path(id, query: [("done", "contact-saved")]))
        }
    }
}
