import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Lead retrieval (EFx): `GET` and `PUT /v1/events/{eventId}/booths` (the organizer's booths,
/// their questions and exhibitors), `GET /v1/me/booths` (an exhibitor's own booths),
/// `PUT /v1/booths/{boothId}/leads/{leadId}` (a lead captured or edited over its version),
/// `GET /v1/booths/{boothId}/leads` and `leads.csv` (the booth's leads, formula-safe), and
/// `PUT …/guests/{guestId}/contact-consent` (whether an attendee shares contact details).
/// Exhibitors reach nothing of the event but their booths: they are on no event's staff.
struct LeadRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.booths, use: booths)
        group.on(API.setBooths, use: setBooths)
        group.on(API.myBooths, use: myBooths)
        group.on(API.showBooth, use: showBooth)
        group.on(API.writeLead, use: write)
        group.on(API.leads, use: leads)
        group.on(API.exportLeads, use: export)
        group.on(API.setContactConsent, use: consent)
    }

    @Sendable func booths(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.booths.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(try await dependencies.store.booths(eventId: event.id))
    }

    @Sendable func setBooths(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try API.setBooths.parameters(in: context)
        _ = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        let list = try Self.validated(try await HTTPHelpers.decode(BoothList.self, from: request))
        switch try await dependencies.store.setBooths(caller: context.caller, eventId: eventId, list: list) {
        case .saved(let saved): return try HTTPHelpers.json(saved)
        case .boothInUse(let name):
            throw APIError(.conflict, .versionConflict, "\(name) has leads; it stays (rename it instead).")
        case .notAnExhibitor:
            throw APIError.invalidRequest(
                "A booth names a user who is not an exhibitor of this organization.", status: .unprocessableContent)
        case .boothIdTaken:
            throw APIError(
                .conflict, .versionConflict, "A booth id is another event's booth; a new booth needs its own.")
        case .notFound: throw APIError.notFound
        }
    }

    /// The list with names trimmed; a refusal says which booth and what.
    static func validated(_ body: BoothList) throws -> BoothList {
        guard body.booths.count <= BoothList.maxBooths else {
            throw APIError.invalidRequest(
                "An event has at most \(BoothList.maxBooths) booths.", status: .unprocessableContent)
        }
        var list = body
        var ids: Set<BoothID> = []
        for index in list.booths.indices {
            var booth = list.booths[index]
            booth.name = booth.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...Booth.maxNameLength).contains(booth.name.count) else {
                throw APIError.invalidRequest(
                    "A booth's name has 1 to \(Booth.maxNameLength) characters.", status: .unprocessableContent)
            }
            guard ids.insert(booth.id).inserted else {
                throw APIError.invalidRequest("Booth ids must differ (\(booth.name)).", status: .unprocessableContent)
            }
            let keys = booth.questions.map(\.key)
            guard booth.questions.count <= Booth.maxQuestions, Set(keys).count == keys.count,
                keys.allSatisfy({
                    (1...40).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
                }),
                booth.questions.allSatisfy({ (1...BoothQuestion.maxTextLength).contains($0.text.count) })
            else {
                throw APIError.invalidRequest(
                    "\(booth.name): at most \(Booth.maxQuestions) questions, each with its own key (letters, digits, -) "
                        + "and a text of 1 to \(BoothQuestion.maxTextLength) characters.", status: .unprocessableContent
                )
            }
            list.booths[index] = booth
        }
        return list
    }

    @Sendable func myBooths(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.exhibitor])
        return try HTTPHelpers.json(
            try await dependencies.store.myBooths(caller: context.caller, now: dependencies.clock.now()))
    }

    /// One booth with its event and ticket keys, for whoever may work it.
    @Sendable func showBooth(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, booth) = try await booth(API.showBooth.parameters(in: context), context)
        let now = dependencies.clock.now()
        let (event, keys) = try await dependencies.store.database.read { connection in
            (
                try await Store.event(connection, eventId),
                try await Store.rosterKeys(connection, eventId: eventId, now: now)
            )
        }
        guard let event else { throw APIError.notFound }
        return try HTTPHelpers.json(MyBooth(booth: booth, event: event.info, keys: keys))
    }

    /// The booth when the caller may work it; another booth (or tenant) is not found.
    private func booth(_ id: BoothID, _ context: AuthenticatedContext) async throws -> (EventID, Booth) {
        guard let found = try await dependencies.store.booth(id, workableBy: context.caller) else {
            throw APIError.notFound
        }
        return found
    }

    @Sendable func write(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .exhibitor])
        let (boothId, leadId) = try API.writeLead.parameters(in: context)
        let body = try await HTTPHelpers.decode(LeadWrite.self, from: request)
        let (_, booth) = try await booth(boothId, context)
        try Self.validate(body, booth: booth)
        switch try await dependencies.store.writeLead(
            leadId, boothId: boothId, write: body, caller: context.caller, now: dependencies.clock.now())
        {
        case .created(let lead): return try HTTPHelpers.json(lead, status: .created)
        case .updated(let lead), .replayed(let lead): return try HTTPHelpers.json(lead)
        case .conflict(let current):
            return try HTTPHelpers.json(
                LeadConflict(
                    message: "This lead was changed after your copy was made (now version \(current.version)).",
                    current: current), status: .conflict)
        case .idTaken:
            throw APIError(
                .conflict, .versionConflict, "Another lead already has this id, or it is another attendee's lead.")
        case .unknownGuest:
            throw APIError.invalidRequest("The ticket is not one of this event's.", status: .unprocessableContent)
        case .notFound: throw APIError.notFound
        }
    }

    static func validate(_ body: LeadWrite, booth: Booth) throws {
        let content = body.content
        guard body.baseVersion >= 0 else {
            throw APIError.invalidRequest("'baseVersion' is 0 for a new lead, else the version edited.")
        }
        guard (0...5).contains(content.rating) else {
            throw APIError.invalidRequest("A rating is from 0 (none) to 5.", status: .unprocessableContent)
        }
        guard IdempotencyKey.accepts(deviceId: content.deviceId) else {
            throw APIError.invalidRequest("The deviceId must be ASCII without spaces.", status: .unprocessableContent)
        }
        guard content.notes.count <= LeadContent.maxNotesLength else {
            throw APIError.invalidRequest(
                "Notes have at most \(LeadContent.maxNotesLength) characters.", status: .unprocessableContent)
        }
        let keys = Set(booth.questions.map(\.key))
        guard content.answers.keys.allSatisfy(keys.contains),
            content.answers.values.allSatisfy({ $0.count <= LeadContent.maxAnswerLength })
        else {
            throw APIError.invalidRequest(
                "Answers go to the booth's own questions, each at most \(LeadContent.maxAnswerLength) characters.",
                status: .unprocessableContent)
        }
    }

    @Sendable func leads(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let boothId = try API.leads.parameters(in: context)
        _ = try await booth(boothId, context)
        return try HTTPHelpers.json(LeadList(leads: try await dependencies.store.leads(boothId: boothId)))
    }

    /// The booth's leads as CSV, newest first: captured (the event's clock), name and e-mail (only
    /// while shared; else the ticket's opaque id), rating, notes, one column per question, who
    /// captured it, the version. Formula-safe.
    @Sendable func export(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let boothId = try API.exportLeads.parameters(in: context)
        let (eventId, booth) = try await booth(boothId, context)
        guard let event = try await dependencies.store.database.read({ try await Store.event($0, eventId) }) else {
            throw APIError.notFound
        }
        let leads = try await dependencies.store.leads(boothId: boothId)
        let document = LeadCSV.document(
            questions: booth.questions,
            rows: leads.map {
                LeadCSV.Row(content: $0.content, contact: $0.contact, capturedBy: $0.capturedBy, version: $0.version)
            }, timestamp: { ExportRoutes.timestamp($0, event.timeZone) })
        return ExportRoutes.csv("leads-\(boothId.wire).csv") { writer in
            try await writer.write(ByteBuffer(string: document))
        }
    }

    @Sendable func consent(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, guestId) = try API.setContactConsent.parameters(in: context)
        let body = try await HTTPHelpers.decode(ContactConsent.self, from: request)
        let event = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        guard
            try await dependencies.store.setContactConsent(
                eventId: event.id, guestId: guestId, shares: body.sharesContact, changedBy: context.caller.userId.wire,
                now: dependencies.clock.now())
        else { throw APIError.notFound }
        return try HTTPHelpers.json(body)
    }
}
