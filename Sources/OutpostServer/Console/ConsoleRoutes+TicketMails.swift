import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Tickets by e-mail: send every confirmed guest who has not had theirs, see each guest's
/// delivery status, send one again (the API's `…/ticket-mails`).
extension ConsoleRoutes {
    func registerTicketMails(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.ticketMails, use: ticketMails)
        group.on(ConsolePages.mailTickets, use: sendTicketMails)
        group.on(ConsolePages.resendTicket, use: resendTicketMail)
        group.on(ConsolePages.mailGuests, use: mailGuests)
    }

    @Sendable func ticketMails(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.ticketMails.parameters(in: context), call)
            let id = detail.event.id
            let answer = try await call(API.ticketMails.line(id), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.event.path(id))
            }
            let deliveries = try answer.decode(TicketMailList.self).deliveries
            let clock = Self.localFormat(detail.event.timeZone)
            return try await page(
                "ticketMails", title: "Tickets by e-mail · \(detail.event.name)",
                [
                    "event": ["id": id.wire, "name": detail.event.name],
                    "canEdit": Self.role(session, on: detail) == .organizer,
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
        let id = try ConsolePages.mailTickets.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let answer = try await call(
                API.mailTickets.line(id), try OutpostJSON.encode(TicketMailRequest()))
            guard answer.status == .ok, let report = try? answer.decode(TicketMailReport.self) else {
                return .refused(answer, back: ConsolePages.event.path(id))
            }
            return .redirect(
                ConsolePages.ticketMails.path(
                    id,
                    query: [("done", "mailed"), ("queued", String(report.queued)), ("failed", String(report.failed))]))
        }
    }

    /// Every guest the list's filters show gets their ticket by e-mail (the confirmed ones with
    /// an address; a ticket sent before is sent again): the API's ticket mail, by id, as many
    /// requests as its limit needs.
    @Sendable func mailGuests(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.mailGuests.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let filters = Self.guestListFilters(form["list"] ?? "")
            var ids: [GuestID] = []
            var after: String?
            repeat {
                let answer = try await call(
                    API.listGuests.line(id, query: filters + [("limit", "500"), ("after", after)]), nil)
                guard answer.status == .ok else { return .refused(answer, back: ConsolePages.guests.path(id)) }
                let page = try answer.decode(GuestPage.self)
                ids += page.guests.filter { $0.status == .confirmed && !$0.email.isEmpty }.map(\.id)
                after = page.next
            } while after != nil
            var queued = 0
            var failed = 0
            for start in stride(from: 0, to: ids.count, by: TicketMailRoutes.maxBatch) {
                let chunk = Array(ids[start..<min(start + TicketMailRoutes.maxBatch, ids.count)])
                let answer = try await call(
                    API.mailTickets.line(id), try OutpostJSON.encode(TicketMailRequest(guestIds: chunk)))
                guard answer.status == .ok, let report = try? answer.decode(TicketMailReport.self) else {
                    return .refused(answer, back: ConsolePages.guests.path(id, query: filters))
                }
                queued += report.queued
                failed += report.failed
            }
            return .redirect(
                ConsolePages.ticketMails.path(
                    id, query: [("done", "mailed"), ("queued", String(queued)), ("failed", String(failed))]))
        }
    }

    @Sendable func resendTicketMail(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, guestId) = try ConsolePages.resendTicket.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let body = try OutpostJSON.encode(TicketMailRequest(guestIds: [guestId]))
            let answer = try await call(API.mailTickets.line(id), body)
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.ticketMails.path(id)) }
            return .redirect(ConsolePages.ticketMails.path(id, query: [("done", "resent")]))
        }
    }
}
