import Crypto
import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Ticket blocks (EF-069): `GET` and `POST /v1/events/{eventId}/ticket-blocks` (the organizer's
/// blocks, and a new one of N unnamed tickets), `PATCH /v1/ticket-blocks/{blockId}` (its
/// partner, deadline, door naming, managers and size), `GET /v1/me/ticket-blocks` (a block
/// manager's own blocks), `GET /v1/ticket-blocks/{blockId}` and
/// `PUT /v1/ticket-blocks/{blockId}/tickets/{guestId}` (naming a ticket: its manager until the
/// deadline, the organizer at any time, the door an unnamed one if the block allows it). A
/// named ticket with an e-mail gets its ticket through the mail queue. Block managers reach
/// nothing of the event but their blocks: they are on no event's staff.
struct TicketBlockRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.ticketBlocks, use: list)
        group.on(API.allocateTicketBlock, use: allocate)
        group.on(API.myTicketBlocks, use: mine)
        group.on(API.ticketBlock, use: show)
        group.on(API.changeTicketBlock, use: change)
        group.on(API.nameBlockTicket, use: name)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.ticketBlocks.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(
            TicketBlockList(blocks: try await dependencies.store.ticketBlocks(eventId: event.id)))
    }

    @Sendable func allocate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try API.allocateTicketBlock.parameters(in: context)
        _ = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        let body = try Self.validated(
            try await HTTPHelpers.decode(TicketBlockAllocation.self, from: request), creating: true)
        return try Self.answer(
            try await dependencies.store.allocateTicketBlock(
                caller: context.caller, eventId: eventId, allocation: body, now: dependencies.clock.now()),
            status: .created)
    }

    @Sendable func change(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let blockId = try API.changeTicketBlock.parameters(in: context)
        let body = try Self.validated(
            try await HTTPHelpers.decode(TicketBlockAllocation.self, from: request), creating: false)
        return try Self.answer(
            try await dependencies.store.changeTicketBlock(caller: context.caller, blockId: blockId, change: body),
            status: .ok)
    }

    private static func answer(_ write: TicketBlockWrite, status: HTTPResponse.Status) throws -> Response {
        switch write {
        case .saved(let detail): return try HTTPHelpers.json(detail, status: status)
        case .notABlockManager:
            throw APIError.invalidRequest(
                "A manager named is not a block manager of this organization.", status: .unprocessableContent)
        case .unknownAccessType:
            throw APIError.invalidRequest("The access type is not one of this event's.", status: .unprocessableContent)
        case .wouldDropNamed(let named):
            throw APIError(
                .conflict, .versionConflict, "\(named) tickets of this block are named; it cannot hold fewer.")
        case .accessTypeFixed:
            throw APIError.invalidRequest(
                "A block's access type does not change; allocate another block instead.", status: .unprocessableContent
            )
        case .notFound: throw APIError.notFound
        }
    }

    /// The allocation with its partner trimmed; a new block sets every field but the managers.
    static func validated(_ body: TicketBlockAllocation, creating: Bool) throws -> TicketBlockAllocation {
        var allocation = body
        if creating {
            guard body.partner != nil, body.accessTypeId != nil, body.size != nil, body.namingDeadline != nil else {
                throw APIError.invalidRequest(
                    "A new block needs 'partner', 'accessTypeId', 'size' and 'namingDeadline'.",
                    status: .unprocessableContent)
            }
        }
        if let partner = body.partner {
            allocation.partner = partner.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...TicketBlock.maxPartnerLength).contains(allocation.partner!.count) else {
                throw APIError.invalidRequest(
                    "A partner's name has 1 to \(TicketBlock.maxPartnerLength) characters.",
                    status: .unprocessableContent)
            }
        }
        if let size = body.size, !((creating ? 1 : 0)...TicketBlock.maxSize).contains(size) {
            throw APIError.invalidRequest(
                "A block holds \(creating ? 1 : 0) to \(TicketBlock.maxSize) tickets.", status: .unprocessableContent)
        }
        if let managers = body.managers, managers.count > 50 {
            throw APIError.invalidRequest("A block has at most 50 managers.", status: .unprocessableContent)
        }
        return allocation
    }

    @Sendable func mine(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.blockManager])
        return try HTTPHelpers.json(try await dependencies.store.myTicketBlocks(caller: context.caller))
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let blockId = try API.ticketBlock.parameters(in: context)
        guard let detail = try await dependencies.store.ticketBlock(blockId, visibleTo: context.caller) else {
            throw APIError.notFound
        }
        return try HTTPHelpers.json(detail)
    }

    @Sendable func name(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (blockId, guestId) = try API.nameBlockTicket.parameters(in: context)
        // Whoever may name no block's ticket does not find one.
        guard [.organizer, .blockManager, .support, .checkinStaff].contains(context.caller.role) else {
            throw APIError.notFound
        }
        let body = try await HTTPHelpers.decode(TicketNaming.self, from: request)
        let door = [.checkinStaff, .support].contains(context.caller.role)
        let naming = try Self.validated(body, door: door)
        let now = dependencies.clock.now()
        switch try await dependencies.store.nameBlockTicket(
            blockId: blockId, guestId: guestId, naming: naming, caller: context.caller, now: now)
        {
        case .named(var named, let changed, let eventId, let block):
            if changed, !named.ticket.email.isEmpty {
                named.ticket.mail = try await mailTicket(named.ticket.guestId, eventId: eventId, block: block, now: now)
            }
            return try HTTPHelpers.json(named)
        case .refused(let refusal):
            throw APIError.invalidRequest(refusal.sentence, status: .unprocessableContent)
        case .notFound: throw APIError.notFound
        }
    }

    /// A trimmed name of 1 to 200 characters and an e-mail address (the door may leave it out).
    static func validated(_ body: TicketNaming, door: Bool) throws -> TicketNaming {
        var naming = body
        naming.name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...TicketNaming.maxNameLength).contains(naming.name.count),
            !naming.name.contains(where: { $0.isNewline })
        else {
            throw APIError.invalidRequest(
                "A ticket's name has 1 to \(TicketNaming.maxNameLength) characters on one line.",
                status: .unprocessableContent)
        }
        if door, body.email.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            naming.email = ""
        } else {
            naming.email = try UserRoutes.validEmail(body.email)
        }
        if let device = body.deviceId, !IdempotencyKey.accepts(deviceId: device) {
            throw APIError.invalidRequest("The deviceId must be ASCII without spaces.", status: .unprocessableContent)
        }
        return naming
    }

    /// Queues the named ticket's mail (its ticket and PDF). Without a mail relay the naming
    /// stands and the mail is recorded as failed, to be sent from the ticket mails page later.
    private func mailTicket(
        _ guestId: GuestID, eventId: EventID, block: TicketBlock, now: Date
    ) async throws -> TicketMailState? {
        let store = dependencies.store
        guard let event = try await store.database.read({ try await Store.event($0, eventId) }),
            let guest = try await store.database.read({ try await Store.guest($0, eventId: eventId, id: guestId) })
        else { return nil }
        guard let relay = dependencies.configuration.smtpRelay else {
            try await store.recordUnsendableTicketMail(
                eventId: eventId, guestId: guest.id, email: guest.email, error: "\(MailError.notConfigured)", at: now)
            return .failed
        }
        let key = try await store.signingKey(eventId: eventId, now: now)
        let accessType = try await store.accessTypes(eventId: eventId).first { $0.id == block.accessTypeId }
        let queued = try await TicketMailRoutes(dependencies: dependencies).queueTicket(
            event: event, guest: guest, accessType: accessType?.name ?? "", key: key,
            signing: try Curve25519.Signing.PrivateKey(rawRepresentation: key.privateKey), relay: relay, now: now)
        dependencies.mailQueue.nudge()
        return queued ? .queued : .failed
    }
}
