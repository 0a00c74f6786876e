import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Lead retrieval in the console: the organizer's booths of an event (each with its exhibitors,
/// questions and lead count, and a form to add one) and a booth's leads, which its exhibitors
/// see too (their booth only: another is the console's 404), with the CSV.
extension ConsoleRoutes {
    func registerLeads(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.booths, use: booths)
        group.on(ConsolePages.addBooth, use: addBooth)
        group.on(ConsolePages.boothLeads, use: boothLeads)
        group.on(ConsolePages.boothLeadsCSV, use: boothLeadsCSV)
    }

    @Sendable func booths(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.booths.parameters(in: context), call)
            let id = detail.event.id
            let answer = try await call(API.booths.line(id), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.event.path(id))
            }
            let list = try answer.decode(BoothList.self)
            let canEdit = Self.role(session) == .organizer
            let users = canEdit ? try await call(API.listUsers.line(), nil).decode(UserList.self).users : []
            let exhibitors = users.filter { $0.role == .exhibitor }
            let names = Dictionary(users.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            var rows: [[String: Any]] = []
            for booth in list.booths {
                let leads = try await call(API.leads.line(booth.id), nil)
                rows.append([
                    "id": booth.id.wire, "name": booth.name,
                    "exhibitors": booth.exhibitors.map { names[$0] ?? "an exhibitor" }.joined(separator: ", "),
                    "questions": booth.questions.map(\.text).joined(separator: " · "),
                    "leads": leads.status == .ok ? (try leads.decode(LeadList.self)).leads.count : 0,
                ])
            }
            return try await self.page(
                "booths", title: "Booths · \(detail.event.name)",
                [
                    "event": ["id": id.wire, "name": detail.event.name], "booths": rows, "canEdit": canEdit,
                    "exhibitors": exhibitors.map { ["id": $0.id.wire, "name": $0.name] },
                ], session: session,
                notice: request.uri.queryParameters.get("done") == "booth"
                    ? "The booth was added; its exhibitors have it at their next sync." : nil)
        }
    }

    @Sendable func addBooth(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.addBooth.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let back = ConsolePages.booths.path(id)
            let listed = try await call(API.booths.line(id), nil)
            guard listed.status == .ok else { return .refused(listed, back: back) }
            var list = try listed.decode(BoothList.self)
            let users = try await call(API.listUsers.line(), nil).decode(UserList.self).users
            list.booths.append(try Self.booth(form, exhibitors: users.filter { $0.role == .exhibitor }))
            let saved = try await call(API.setBooths.line(id), try OutpostJSON.encode(list))
            guard saved.status == .ok else { return .refused(saved, back: back) }
            return .redirect(ConsolePages.booths.path(id, query: [("done", "booth")]))
        }
    }

    /// The booth the form describes: its name, the exhibitors ticked, a question per line (keyed
    /// `q1`, `q2`, … in order).
    static func booth(_ form: [String: String], exhibitors: [UserInfo]) throws -> Booth {
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw EventForm.Invalid(sentence: "Give the booth a name.") }
        let questions = (form["questions"] ?? "").split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return Booth(
            id: .random(), name: name,
            questions: questions.enumerated().map { BoothQuestion(key: "q\($0.offset + 1)", text: $0.element) },
            exhibitors: exhibitors.filter { form["exhibitor-\($0.id.wire)"] == "on" }.map(\.id))
    }

    @Sendable func boothLeads(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let id = try ConsolePages.boothLeads.parameters(in: context)
            let shown = try await call(API.showBooth.line(id), nil)
            let answer = try await call(API.leads.line(id), nil)
            guard shown.status == .ok, answer.status == .ok else {
                return try await problem(
                    shown.status == .ok ? answer : shown, session: session, back: ConsolePages.events.path())
            }
            let mine = try shown.decode(MyBooth.self)
            let clock = Self.localFormat(mine.event.timeZone)
            let leads = try answer.decode(LeadList.self).leads
            return try await self.page(
                "leads", title: "Leads · \(mine.booth.name)",
                [
                    "event": mine.event.name, "booth": mine.booth.name, "boothId": id.wire,
                    "questions": mine.booth.questions.map(\.text),
                    "leads": leads.map { lead -> [String: Any] in
                        [
                            "at": clock.string(lead.content.capturedAt),
                            "attendee": lead.contact?.name ?? "Attendee \(lead.content.guestId.wire)",
                            "email": lead.contact?.email ?? "not shared",
                            "rating": lead.content.rating == 0
                                ? "" : String(repeating: "★", count: lead.content.rating),
                            "notes": lead.content.notes,
                            "answers": mine.booth.questions.map { lead.content.answers[$0.key] ?? "" },
                            "by": lead.capturedBy,
                        ]
                    },
                ], session: session)
        }
    }

    /// The API's CSV, passed through (it is formula-safe already).
    @Sendable func boothLeadsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let id = try ConsolePages.boothLeadsCSV.parameters(in: context)
            let answer = try await call(API.exportLeads.line(id), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.events.path())
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/csv; charset=utf-8",
                    .contentDisposition: "attachment; filename=\"leads-\(id.wire).csv\"",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
    }
}
