import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Tickets by e-mail: send every confirmed guest who has not had theirs, see each guest's
/// delivery status, send one again (the API's `…/ticket-mails`).
extension ConsoleRoutes {
    func registerTicketMails(on group: RouterGroup<AppRequestContext>) {
        group.get("events/{eventId}/ticket-mails", use: ticketMails)
        group.post("events/{eventId}/ticket-mails", use: sendTicketMails)
        group.post("events/{eventId}/ticket-mails/{guestId}/resend", use: resendTicketMail)
    }

    @Sendable func ticketMails(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(context, call)
            let id = detail.event.id.wire
            let answer = try await call(.get, "/v1/events/\(id)/ticket-mails", nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: "/admin/events/\(id)")
            }
            let deliveries = try answer.decode(TicketMailList.self).deliveries
            let clock = Self.localFormat(detail.event.timeZone)
            return try await page(
                "ticketMails", title: "Tickets by e-mail · \(detail.event.name)",
                [
                    "event": ["id": id, "name": detail.event.name], "canEdit": Self.role(session) == .organizer,
                    "sent": deliveries.filter { $0.state == .sent }.count,
                    "waiting": deliveries.filter { $0.state == .queued }.count,
                    "failed": deliveries.filter { $0.state == .failed }.count,
                    "deliveries": deliveries.map {
                        [
                            "guestId": $0.guestId.wire, "guest": $0.guestName, "email": $0.email,
                            "state": Self.mailState($0, clock), "attempts": $0.attempts,
                            "at": clock.string($0.at), "error": $0.error ?? "",
                        ]
                    },
                ], session: session, notice: Self.flash(request))
        }
    }

    /// A delivery's status in words: sent, not sent, or waiting (and when it is tried next).
    static func mailState(_ delivery: TicketMailDelivery, _ clock: WallClockFormat) -> String {
        switch delivery.state {
        case .sent: "sent"
        case .failed: "not sent"
        case .queued:
            delivery.nextAttemptAt.map { "waiting (next try \(clock.string($0)))" } ?? "waiting"
        }
    }

    @Sendable func sendTicketMails(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.eventId(context)
        return try await changing(request, context) { _, _, call in
            let answer = try await call(
                .post, "/v1/events/\(id)/ticket-mails", try OutpostJSON.encode(TicketMailRequest()))
            guard answer.status == .ok, let report = try? answer.decode(TicketMailReport.self) else {
                return .refused(answer, back: "/admin/events/\(id)")
            }
            return .redirect(
                "/admin/events/\(id)/ticket-mails?done=mailed&queued=\(report.queued)&failed=\(report.failed)")
        }
    }

    @Sendable func resendTicketMail(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.eventId(context)
        let guestId = try Self.guestId(context)
        return try await changing(request, context) { _, _, call in
            guard let guest = UUID(wire: guestId) else { throw APIError.notFound }
            let body = try OutpostJSON.encode(TicketMailRequest(guestIds: [GuestID(guest)]))
            let answer = try await call(.post, "/v1/events/\(id)/ticket-mails", body)
            guard answer.status == .ok else { return .refused(answer, back: "/admin/events/\(id)/ticket-mails") }
            return .redirect("/admin/events/\(id)/ticket-mails?done=resent")
        }
    }
}
