import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Ticket blocks in the console (EF-069): the organizer's blocks of an event (each with its
/// partner, size, named count, deadline and managers, a form to allocate one, and the door
/// namings that found a ticket named already), and a block's page, where its managers (their
/// block only: another is the console's 404) and the organizer name its tickets.
extension ConsoleRoutes {
    func registerTicketBlocks(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.ticketBlocks, use: ticketBlocks)
        group.on(ConsolePages.allocateTicketBlock, use: allocateTicketBlock)
        group.on(ConsolePages.ticketBlock, use: ticketBlock)
        group.on(ConsolePages.changeTicketBlock, use: changeTicketBlock)
        group.on(ConsolePages.nameBlockTicket, use: nameBlockTicket)
    }

    @Sendable func ticketBlocks(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.ticketBlocks.parameters(in: context), call)
            let event = detail.event
            let answer = try await call(API.ticketBlocks.line(event.id), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.event.path(event.id))
            }
            let blocks = try answer.decode(TicketBlockList.self).blocks
            let canEdit = Self.role(session) == .organizer
            let users = canEdit ? try await call(API.listUsers.line(), nil).decode(UserList.self).users : []
            let names = Dictionary(users.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let types = Dictionary(detail.accessTypes.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let clock = Self.localFormat(event.timeZone)
            let conflicts = try await dependencies.store.blockNamingConflicts(eventId: event.id)
            return try await self.page(
                "ticketBlocks", title: "Ticket blocks · \(event.name)",
                [
                    "event": ["id": event.id.wire, "name": event.name, "timeZone": event.timeZone],
                    "blocks": blocks.map { block -> [String: Any] in
                        [
                            "id": block.id.wire, "partner": block.partner, "kind": block.kind.title,
                            "accessType": types[block.accessTypeId] ?? "", "size": block.size, "named": block.named,
                            "deadline": clock.string(block.namingDeadline), "doorNaming": block.doorNaming,
                            "managers": block.managers.map { names[$0] ?? "a block manager" }.joined(separator: ", "),
                        ]
                    },
                    "conflicts": conflicts.map {
                        ["name": $0.name, "doorName": $0.doorName, "at": clock.string($0.at)] as [String: Any]
                    },
                    "hasConflicts": !conflicts.isEmpty, "canEdit": canEdit,
                    "kinds": PartnerKind.allCases.map { ["value": $0.rawValue, "title": $0.title] },
                    "accessTypes": detail.accessTypes.map { ["id": $0.id.wire, "name": $0.name] },
                    "managers": users.filter { $0.role == .blockManager }.map { ["id": $0.id.wire, "name": $0.name] },
                ], session: session,
                notice: request.uri.queryParameters.get("done") == "block"
                    ? "The block was allocated; its managers see it when they sign in." : nil)
        }
    }

    @Sendable func allocateTicketBlock(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.allocateTicketBlock.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let back = ConsolePages.ticketBlocks.path(id)
            let detail = try await eventDetail(id, call)
            let users = try await call(API.listUsers.line(), nil).decode(UserList.self).users
            var allocation = try Self.blockForm(form, timeZone: detail.event.timeZone, managers: users)
            guard let type = AccessTypeID(wire: form["accessTypeId"] ?? "") else {
                throw EventForm.Invalid(sentence: "Choose the access type of the block's tickets.")
            }
            allocation.accessTypeId = type
            let saved = try await call(API.allocateTicketBlock.line(id), try OutpostJSON.encode(allocation))
            guard saved.status == .created else { return .refused(saved, back: back) }
            return .redirect(ConsolePages.ticketBlocks.path(id, query: [("done", "block")]))
        }
    }

    /// The block the form describes: partner, kind, size, deadline (the event's wall clock),
    /// door naming, and the managers ticked.
    static func blockForm(
        _ form: [String: String], timeZone: String, managers users: [UserInfo]
    ) throws -> TicketBlockAllocation {
        let partner = (form["partner"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !partner.isEmpty else { throw EventForm.Invalid(sentence: "Give the partner's name.") }
        guard let size = Int(form["size"] ?? ""), size >= 0 else {
            throw EventForm.Invalid(sentence: "Give how many tickets the block holds, as a whole number.")
        }
        guard let zone = TimeZone(identifier: timeZone),
            let deadline = EventForm.wallClock(form["namingDeadline"], in: zone)
        else { throw EventForm.Invalid(sentence: "Give the naming deadline as a date and a time.") }
        return TicketBlockAllocation(
            kind: PartnerKind(rawValue: form["kind"] ?? "") ?? .partner, partner: partner, size: size,
            namingDeadline: deadline, doorNaming: form["doorNaming"] == "on",
            managers: users.filter { $0.role == .blockManager && form["manager-\($0.id.wire)"] == "on" }.map(\.id))
    }

    @Sendable func ticketBlock(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let id = try ConsolePages.ticketBlock.parameters(in: context)
            let answer = try await call(API.ticketBlock.line(id), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.events.path())
            }
            let detail = try answer.decode(TicketBlockDetail.self)
            let block = detail.block
            let role = Self.role(session)
            let isOrganizer = role == .organizer
            let open = dependencies.clock.now() < block.namingDeadline
            let canName = isOrganizer || (role == .blockManager && open)
            let clock = Self.localFormat(detail.event.timeZone)
            let users = isOrganizer ? try await call(API.listUsers.line(), nil).decode(UserList.self).users : []
            let notice: String? =
                switch request.uri.queryParameters.get("done") {
                case "named": "Saved. A named ticket with an e-mail is on its way to its holder."
                case "changed": "The block was changed; the doors have it at their next sync."
                default: nil
                }
            return try await self.page(
                "ticketBlock", title: "\(block.partner) · \(detail.event.name)",
                [
                    "id": block.id.wire, "partner": block.partner, "scope": block.scope,
                    "event": ["id": detail.event.id.wire, "name": detail.event.name],
                    "accessType": detail.accessTypeName, "named": block.named, "size": block.size,
                    "deadline": clock.string(block.namingDeadline), "open": open, "canName": canName,
                    "isOrganizer": isOrganizer, "doorNaming": block.doorNaming,
                    "form": [
                        "partner": block.partner, "size": block.size,
                        "namingDeadline": Self.local(block.namingDeadline, detail.event.timeZone),
                    ],
                    "kinds": PartnerKind.allCases.map {
                        ["value": $0.rawValue, "title": $0.title, "selected": $0 == block.kind] as [String: Any]
                    },
                    "managers": users.filter { $0.role == .blockManager }.map {
                        ["id": $0.id.wire, "name": $0.name, "checked": block.managers.contains($0.id)] as [String: Any]
                    },
                    "tickets": detail.tickets.enumerated().map { index, ticket -> [String: Any] in
                        [
                            "number": index + 1, "guestId": ticket.guestId.wire, "name": ticket.name,
                            "email": ticket.email, "named": ticket.isNamed, "checkedIn": ticket.checkedIn,
                            "mail": ticket.mail?.rawValue ?? "",
                        ]
                    },
                ], session: session, notice: notice)
        }
    }

    @Sendable func changeTicketBlock(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.changeTicketBlock.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let back = ConsolePages.ticketBlock.path(id)
            let shown = try await call(API.ticketBlock.line(id), nil)
            guard shown.status == .ok else { return .refused(shown, back: back) }
            let detail = try shown.decode(TicketBlockDetail.self)
            let users = try await call(API.listUsers.line(), nil).decode(UserList.self).users
            let change = try Self.blockForm(form, timeZone: detail.event.timeZone, managers: users)
            let saved = try await call(API.changeTicketBlock.line(id), try OutpostJSON.encode(change))
            guard saved.status == .ok else { return .refused(saved, back: back) }
            return .redirect(ConsolePages.ticketBlock.path(id, query: [("done", "changed")]))
        }
    }

    @Sendable func nameBlockTicket(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (block, guest) = try ConsolePages.nameBlockTicket.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let naming = TicketNaming(name: form["name"] ?? "", email: form["email"] ?? "")
            let saved = try await call(API.nameBlockTicket.line(block, guest), try OutpostJSON.encode(naming))
            guard saved.status == .ok else { return .refused(saved, back: ConsolePages.ticketBlock.path(block)) }
            return .redirect(ConsolePages.ticketBlock.path(block, query: [("done", "named")]))
        }
    }
}
