import Foundation
import OutpostCore

/// A block of an event's tickets of one access type, allocated to a partner (EF-069): its block
/// managers name the tickets until the naming deadline; the door may name the rest, if the
/// organizer allows it.
public struct TicketBlock: Codable, Sendable, Hashable {
    public static let maxPartnerLength = 80
    /// Tickets one block holds at most.
    public static let maxSize = 5_000

    public var id: TicketBlockID
    public var kind: PartnerKind
    public var partner: String
    public var accessTypeId: AccessTypeID
    /// How many tickets the block holds (named or not; cancelled ones are not counted).
    public var size: Int
    /// The block managers name tickets until this instant (exclusive).
    public var namingDeadline: Date
    /// Whether door staff may name an unnamed ticket of the block as its holder arrives.
    public var doorNaming: Bool
    /// The users (role `block_manager`) who name the block's tickets.
    public var managers: [UserID]
    /// How many of its tickets are named.
    public var named: Int

    public init(
        id: TicketBlockID, kind: PartnerKind, partner: String, accessTypeId: AccessTypeID, size: Int,
        namingDeadline: Date, doorNaming: Bool, managers: [UserID], named: Int = 0
    ) {
        self.id = id
        self.kind = kind
        self.partner = partner
        self.accessTypeId = accessTypeId
        self.size = size
        self.namingDeadline = namingDeadline
        self.doorNaming = doorNaming
        self.managers = managers
        self.named = named
    }

    /// "Sponsor: Acme (block of 20)".
    public var scope: String { TicketBlockRules.scope(kind: kind, partner: partner, size: size) }
}

/// `POST /v1/events/{eventId}/ticket-blocks` (organizer): allocates a block of `size` unnamed
/// tickets. `PATCH /v1/ticket-blocks/{blockId}` takes the same fields, each optional: a block
/// grows by new unnamed tickets and shrinks by cancelling unnamed ones (never a named one).
public struct TicketBlockAllocation: Codable, Sendable, Hashable {
    public var kind: PartnerKind?
    public var partner: String?
    public var accessTypeId: AccessTypeID?
    public var size: Int?
    public var namingDeadline: Date?
    public var doorNaming: Bool?
    public var managers: [UserID]?

    public init(
        kind: PartnerKind? = nil, partner: String? = nil, accessTypeId: AccessTypeID? = nil, size: Int? = nil,
        namingDeadline: Date? = nil, doorNaming: Bool? = nil, managers: [UserID]? = nil
    ) {
        self.kind = kind
        self.partner = partner
        self.accessTypeId = accessTypeId
        self.size = size
        self.namingDeadline = namingDeadline
        self.doorNaming = doorNaming
        self.managers = managers
    }
}

/// `GET /v1/events/{eventId}/ticket-blocks` (organizer, support): the event's blocks.
public struct TicketBlockList: Codable, Sendable, Hashable {
    public var blocks: [TicketBlock]

    public init(blocks: [TicketBlock]) { self.blocks = blocks }
}

/// One ticket of a block, as its managers see it.
public struct BlockTicket: Codable, Sendable, Hashable {
    public var guestId: GuestID
    /// Empty until the ticket is named.
    public var name: String
    public var email: String
    public var status: GuestStatus
    public var checkedIn: Bool
    /// Where the ticket's last mail stands (`null` before one was queued).
    public var mail: TicketMailState?

    public init(
        guestId: GuestID, name: String, email: String, status: GuestStatus, checkedIn: Bool,
        mail: TicketMailState? = nil
    ) {
        self.guestId = guestId
        self.name = name
        self.email = email
        self.status = status
        self.checkedIn = checkedIn
        self.mail = mail
    }

    public var isNamed: Bool { !name.isEmpty }
}

/// `GET /v1/ticket-blocks/{blockId}`: a block with its event and its tickets (cancelled ones
/// left out), for its managers, the organizer and support.
public struct TicketBlockDetail: Codable, Sendable, Hashable {
    public var block: TicketBlock
    public var event: EventInfo
    public var accessTypeName: String
    public var tickets: [BlockTicket]

    public init(block: TicketBlock, event: EventInfo, accessTypeName: String, tickets: [BlockTicket]) {
        self.block = block
        self.event = event
        self.accessTypeName = accessTypeName
        self.tickets = tickets
    }
}

/// `GET /v1/me/ticket-blocks` (a block manager): the blocks they name, with their events.
public struct MyTicketBlocks: Codable, Sendable, Hashable {
    public var blocks: [TicketBlockDetail]

    public init(blocks: [TicketBlockDetail]) { self.blocks = blocks }
}

/// `PUT /v1/ticket-blocks/{blockId}/tickets/{guestId}`: names (or renames) a ticket of the
/// block. A named ticket with an e-mail gets its ticket by mail (through the mail queue).
/// The door names an unnamed ticket only, and may leave the e-mail empty.
public struct TicketNaming: Codable, Sendable, Hashable {
    public static let maxNameLength = 200

    public var name: String
    public var email: String
    /// The device that named it at the door; absent from the console and the API.
    public var deviceId: String?

    public init(name: String, email: String, deviceId: String? = nil) {
        self.name = name
        self.email = email
        self.deviceId = deviceId
    }
}

/// The answer to a naming: the ticket as it stands, and whether a door naming found the ticket
/// named already (the door's name is kept in the ticket's history and flagged for the
/// organizer; the name stands).
public struct TicketNamed: Codable, Sendable, Hashable {
    public var ticket: BlockTicket
    public var conflict: Bool

    public init(ticket: BlockTicket, conflict: Bool) {
        self.ticket = ticket
        self.conflict = conflict
    }
}

/// A block as the roster carries it to the door: its scope, for the guest card.
public struct RosterBlock: Codable, Sendable, Hashable {
    public var id: TicketBlockID
    public var kind: PartnerKind
    public var partner: String
    public var size: Int
    public var doorNaming: Bool

    public init(id: TicketBlockID, kind: PartnerKind, partner: String, size: Int, doorNaming: Bool) {
        self.id = id
        self.kind = kind
        self.partner = partner
        self.size = size
        self.doorNaming = doorNaming
    }

    /// "Sponsor: Acme (block of 20)".
    public var scope: String { TicketBlockRules.scope(kind: kind, partner: partner, size: size) }
}
