import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OutpostCore
import OutpostProtocol

/// The door dashboard, live: the page (`/admin/events/{eventId}/dashboard`) and its stream of
/// server-sent events (`…/dashboard/stream`). The stream reads the API's dashboard as the
/// session's user (its roles and tenant isolation) and sends the view again whenever the event's
/// change counter or a device's report moves, on any server instance (it polls the database's
/// cheap version, ``Store/dashboardVersion(eventId:)``), and when the minute turns. It ends after
/// ``ServerConfiguration/consoleStreamLifetime`` or when its access token expires; the browser
/// reconnects with `Last-Event-ID` and the reconnect refreshes the session's tokens.
extension ConsoleRoutes {
    func registerDashboard(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.dashboard, use: dashboard)
        group.on(ConsolePages.dashboardStream, use: dashboardStream)
        group.on(ConsolePages.dashboardScript) { _, _ in
            Self.asset(ConsoleAssets.dashboardScript, type: "text/javascript; charset=utf-8")
        }
    }

    @Sendable func dashboard(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.dashboard.parameters(in: context), call)
            let id = detail.event.id
            let answer = try await call(API.dashboard.line(id), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.event.path(id))
            }
            let view = DashboardView(try answer.decode(DoorDashboard.self), timeZone: detail.event.timeZone)
            // TV mode: the door manager's screen, the page alone in large type (still live).
            let tv = request.uri.queryParameters.get("tv") == "1"
            return try await page(
                "dashboard", title: "Doors · \(detail.event.name)",
                view.values.merging(["event": ["id": id.wire, "name": detail.event.name], "tv": tv]) { first, _ in first
                },
                session: session, bodyClass: tv ? "tv" : nil)
        }
    }

    @Sendable func dashboardStream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.dashboardStream.parameters(in: context)
        let eventId = id
        guard let start = Self.session(request) else {
            throw APIError(.unauthorized, .unauthorized, "Your sign-in has ended; sign in again.")
        }
        let detail: ConsoleAPI.Answer
        let first: ConsoleAPI.Answer
        var session = start
        do {
            detail = try await api.call(API.getEvent.line(id), session: session, from: request, context: context)
            session = detail.renewed ?? session
            first = try await api.call(
                API.dashboard.line(id), session: session, from: request, context: context)
            session = first.renewed ?? session
        } catch is ConsoleAPI.SessionEnded {
            throw APIError(.unauthorized, .unauthorized, "Your sign-in has ended; sign in again.")
        }
        guard detail.status == .ok, first.status == .ok else {
            let failed = detail.status == .ok ? first : detail
            throw APIError(failed.status, failed.status == .forbidden ? .forbidden : .notFound, failed.message)
        }
        let timeZone = try detail.decode(EventDetail.self).event.timeZone
        let store = dependencies.store
        let clock = dependencies.clock
        let configuration = dependencies.configuration
        let api = self.api
        let accessToken = session.accessToken
        let expiry = Self.tokenFields(session).flatMap { Int64($0[3]) }.map(Date.init(millisecondsSince1970:))
        let lastSeen = request.headers[.lastEventID]
        let body = ResponseBody { writer in
            let opened = clock.now()
            var deadline = opened.addingTimeInterval(configuration.consoleStreamLifetime)
            if let expiry { deadline = min(deadline, expiry) }
            func version() async throws -> String {
                let minute = clock.now().millisecondsSince1970 / 60_000
                return try await store.dashboardVersion(eventId: eventId) + ":\(minute)"
            }
            func send(_ answer: Data, id: String) async throws {
                let dashboard = try OutpostJSON.makeDecoder().decode(DoorDashboard.self, from: answer)
                let json = String(
                    decoding: try JSONEncoder().encode(DashboardView(dashboard, timeZone: timeZone)), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "id: \(id)\nevent: dashboard\ndata: \(json)\n\n"))
            }
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            var sent = try await version()
            if sent != lastSeen { try await send(first.body, id: sent) }
            var quiet = clock.now()
            while clock.now() < deadline, !Task.isCancelled {
                try await Task.sleep(for: configuration.consoleStreamPoll)
                let current = try await version()
                if current != sent {
                    let (status, data) = try await api.call(
                        API.dashboard.line(id), from: request, context: context, bearer: accessToken)
                    // Expired, removed from the staff, the event gone: the browser reconnects
                    // and the reconnect tells it which.
                    guard status == .ok else { break }
                    try await send(data, id: current)
                    sent = current
                    quiet = clock.now()
                } else if clock.now().timeIntervalSince(quiet) >= 15 {
                    // A comment keeps proxies and the server's idle timeout from closing it.
                    try await writer.write(ByteBuffer(string: ": still here\n\n"))
                    quiet = clock.now()
                }
            }
            try await writer.finish(nil)
        }
        var response = Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"], body: body)
        if session != start { response.setCookie(sessionCookie(session)) }
        return response
    }
}

extension HTTPField.Name {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
