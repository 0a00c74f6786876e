import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OutpostCore
import OutpostProtocol

/// The event's audit log with its filters (what, device, who), 100 entries a page, and the
/// downloads: the filtered audit and the check-ins as CSV (the API's, as it wrote them).
extension ConsoleRoutes {
    func registerAudit(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.audit, use: audit)
        group.on(ConsolePages.auditCSV, use: auditCSV)
        group.on(ConsolePages.checkInsCSV, use: checkInsCSV)
        group.on(ConsolePages.guestsCSV, use: guestsCSV)
        group.on(ConsolePages.importTemplate, use: importTemplate)
    }

    /// A file to fill in for the import: its header and two example rows with the event's
    /// access types (formula-safe, as every CSV the console gives).
    @Sendable func importTemplate(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.importTemplate.parameters(in: context)
        return try await signedIn(request, context) { _, call in
            let detail = try await eventDetail(id, call)
            let types = detail.accessTypes.map(\.name)
            // The event's own fields too, a column each, headed by the label the import reads.
            let fields = try await guestFields(id, call)
            let example = { (index: Int) in
                fields.map { field in
                    switch field.kind {
                    case .text: ""
                    case .choice: field.choices[index % field.choices.count]
                    case .checkbox: index == 0 ? "yes" : "no"
                    }
                }
            }
            let csv = CSVWriter.document(
                header: ["name", "email", "access_type", "notes"] + fields.map(\.label),
                rows: [
                    ["Ada Lovelace", "ada@example.org", types.first ?? "General", "wheelchair user"] + example(0),
                    ["Alan Turing", "alan@example.org", types.dropFirst().first ?? types.first ?? "General", ""]
                        + example(1),
                ])
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/csv; charset=utf-8",
                    .contentDisposition: "attachment; filename=\"guests-template.csv\"",
                ],
                body: .init(byteBuffer: ByteBuffer(string: csv)))
        }
    }

    /// The attendee list with the guest list's filters (the API's, as it wrote it).
    @Sendable func guestsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.guestsCSV.parameters(in: context)
        let filters = Self.given(request, Self.guestListFilterNames)
        return try await download(
            request, context, API.exportGuests.line(id, query: filters), type: "text/csv; charset=utf-8",
            name: "guests.csv", back: ConsolePages.guests.path(id, query: filters))
    }

    /// The audit filters of the request, as query pairs (empty ones left out).
    static func auditQuery(_ request: Request) -> [(String, String?)] {
        given(request, ["kind", "deviceId", "userId"])
    }

    @Sendable func audit(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.audit.parameters(in: context), call)
            let id = detail.event.id
            let filters = Self.auditQuery(request)
            var query = filters + [("limit", "100")]
            if let since = request.uri.queryParameters.get("since"), !since.isEmpty { query.append(("since", since)) }
            let answer = try await call(API.audit.line(id, query: query), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.event.path(id))
            }
            let page = try answer.decode(AuditPage.self)
            let staff = try await call(API.listStaff.line(id), nil)
            let users = staff.status == .ok ? try staff.decode(UserList.self).users : []
            let chosen: String? = request.uri.queryParameters.get("userId")
            let clock = Self.localFormat(detail.event.timeZone)
            var values: [String: Any] = [
                "event": ["id": id.wire, "name": detail.event.name],
                "kinds": AuditKind.allCases.map {
                    [
                        "value": $0.rawValue, "title": $0.title,
                        "selected": request.uri.queryParameters.get("kind") == $0.rawValue,
                    ]
                },
                "deviceId": request.uri.queryParameters.get("deviceId") ?? "",
                "users": users.map { ["id": $0.id.wire, "name": $0.name, "selected": $0.id.wire == chosen] },
                "csv": ConsolePages.auditCSV.path(id, query: filters),
                "entries": page.entries.map { entry -> [String: Any] in
                    [
                        "at": clock.string(entry.at), "kind": entry.kind.title,
                        "guest": entry.guestName ?? entry.guestId?.wire ?? "", "user": entry.userName ?? "",
                        "device": entry.deviceId ?? "", "method": entry.method ?? "",
                    ]
                },
            ]
            if page.hasMore { values["next"] = ConsolePages.audit.path(id, query: filters + [("since", page.cursor)]) }
            if request.uri.queryParameters.get("since") != nil {
                values["first"] = ConsolePages.audit.path(id, query: filters)
            }
            return try await self.page("audit", title: "Audit · \(detail.event.name)", values, session: session)
        }
    }

    @Sendable func auditCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.auditCSV.parameters(in: context)
        return try await download(
            request, context, API.exportAudit.line(id, query: Self.auditQuery(request)),
            type: "text/csv; charset=utf-8", name: "audit.csv", back: ConsolePages.audit.path(id))
    }

    @Sendable func checkInsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.checkInsCSV.parameters(in: context)
        return try await download(
            request, context, API.exportCheckIns.line(id), type: "text/csv; charset=utf-8", name: "checkins.csv",
            back: ConsolePages.event.path(id))
    }

    /// A file the API makes (CSV, PDF), handed to the browser as an attachment.
    func download(
        _ request: Request, _ context: AppRequestContext, _ line: RequestLine, type: String, name: String, back: String
    ) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let answer = try await call(line, nil)
            guard answer.status == .ok else {
                if answer.status == .notFound { throw APIError.notFound }
                return try await problem(answer, session: session, back: back)
            }
            return Response(
                status: .ok,
                headers: [.contentType: type, .contentDisposition: "attachment; filename=\"\(name)\""],
                body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
    }
}
