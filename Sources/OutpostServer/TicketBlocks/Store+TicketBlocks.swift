import Foundation
import OutpostCore
import OutpostProtocol

/// How allocating or changing a ticket block ended.
enum TicketBlockWrite: Sendable, Equatable {
    case saved(TicketBlockDetail)
    /// A manager named is not a block manager of this organization.
    case notABlockManager
    case unknownAccessType
    /// The block cannot shrink below its named tickets (how many are named).
    case wouldDropNamed(Int)
    /// The access type of a block with tickets does not change (its tickets keep theirs).
    case accessTypeFixed
    case notFound
}

/// How naming a ticket of a block ended.
enum TicketNamingResult: Sendable, Equatable {
    /// The ticket as it stands, with its event and block; `changed` when this naming changed it
    /// (its ticket is mailed).
    case named(TicketNamed, changed: Bool, eventId: EventID, block: TicketBlock)
    case refused(TicketNamingRefusal)
    case notFound
}

/// Ticket blocks on the server (EF-069). A block's tickets are guests of the event with the
/// block's id, made unnamed when the block is allocated or grows; naming one changes the guest
/// (so the roster carries it to the doors) and writes a version of its naming history. A block
/// is seen only by its managers and the event's organizer and support: another block is not
/// found.
extension Store {
    static let ticketBlockColumns = """
        b.id, b.kind, b.partner, b.access_type_id, b.naming_deadline, b.door_naming, b.event_id,
        (SELECT COUNT(*) FROM guests g WHERE g.block_id = b.id AND g.status <> 'cancelled') AS size,
        (SELECT COUNT(*) FROM guests g WHERE g.block_id = b.id AND g.status <> 'cancelled' AND g.name <> '')
            AS named
        """

    private static func ticketBlock(
        from row: SQLRow, managers: [TicketBlockID: [UserID]]
    ) throws -> TicketBlock {
        let id: TicketBlockID = try row.id("id")
        return TicketBlock(
            id: id, kind: try row.enumeration("kind", as: PartnerKind.self), partner: try row.text("partner"),
            accessTypeId: try row.id("access_type_id"), size: Int(try row.int("size")),
            namingDeadline: try row.date("naming_deadline"), doorNaming: try row.bool("door_naming"),
            managers: managers[id] ?? [], named: Int(try row.int("named")))
    }

    /// The event's blocks, oldest first.
    static func ticketBlocks(_ connection: any SQLConnection, eventId: EventID) async throws -> [TicketBlock] {
        let members = try await connection.query(
            """
            SELECT m.block_id, m.user_id FROM ticket_block_managers m JOIN ticket_blocks b ON b.id = m.block_id
            WHERE b.event_id = ? ORDER BY m.user_id
            """, [.id(eventId)])
        var managers: [TicketBlockID: [UserID]] = [:]
        for row in members { managers[try row.id("block_id"), default: []].append(try row.id("user_id")) }
        return try await connection.query(
            "SELECT \(ticketBlockColumns) FROM ticket_blocks b WHERE b.event_id = ? ORDER BY b.position, b.id",
            [.id(eventId)]
        ).map { try ticketBlock(from: $0, managers: managers) }
    }

    func ticketBlocks(eventId: EventID) async throws -> [TicketBlock] {
        try await database.read { connection in try await Self.ticketBlocks(connection, eventId: eventId) }
    }

    /// The block of `tenantId` and its event, whoever asks (callers decide who may see it).
    private static func ticketBlock(
        _ connection: any SQLConnection, _ id: TicketBlockID, tenantId: TenantID
    ) async throws -> (eventId: EventID, block: TicketBlock)? {
        guard
            let row = try await connection.queryOne(
                "SELECT event_id FROM ticket_blocks WHERE id = ? AND tenant_id = ?", [.id(id), .id(tenantId)])
        else { return nil }
        let eventId: EventID = try row.id("event_id")
        return try await ticketBlocks(connection, eventId: eventId).first { $0.id == id }.map { (eventId, $0) }
    }

    /// The block and its event when `caller` may see it: the event's organizer or support (same
    /// tenant), or one of its managers. Nil for everyone else.
    static func ticketBlock(
        _ connection: any SQLConnection, _ id: TicketBlockID, visibleTo caller: Caller
    ) async throws -> (eventId: EventID, block: TicketBlock)? {
        guard let found = try await ticketBlock(connection, id, tenantId: caller.tenantId) else { return nil }
        switch caller.role {
        case .organizer, .support: return found
        case .blockManager: return found.block.managers.contains(caller.userId) ? found : nil
        default: return nil
        }
    }

    /// The block's tickets (cancelled ones left out) in the order they were made, with where
    /// each one's last ticket mail stands.
    static func blockTickets(_ connection: any SQLConnection, blockId: TicketBlockID) async throws -> [BlockTicket] {
        try await connection.query(
            """
            SELECT g.id, g.name, g.email, g.status, c.at AS checked_in_at, m.status AS mail_status,
                q.state AS mail_state
            FROM guests g LEFT JOIN checkins c ON c.event_id = g.event_id AND c.guest_id = g.id
            LEFT JOIN ticket_mails m ON m.event_id = g.event_id AND m.guest_id = g.id
            LEFT JOIN mail_queue q ON q.id = m.mail_id
            WHERE g.block_id = ? AND g.status <> 'cancelled' ORDER BY g.block_slot, g.id
            """, [.id(blockId)]
        ).map { row in
            var mail = try row.optionalText("mail_status").flatMap(TicketMailState.init(rawValue:))
            switch try row.optionalText("mail_state").flatMap(MailQueueState.init(rawValue:)) {
            case .queued?: mail = .queued
            case .sent?: mail = .sent
            case .failed?, .expired?, .dropped?: mail = .failed
            case nil: break
            }
            return BlockTicket(
                guestId: try row.id("id"), name: try row.text("name"), email: try row.text("email"),
                status: try row.enumeration("status", as: GuestStatus.self),
                checkedIn: try row.optionalInt("checked_in_at") != nil, mail: mail)
        }
    }

    static func ticketBlockDetail(
        _ connection: any SQLConnection, eventId: EventID, block: TicketBlock
    ) async throws -> TicketBlockDetail? {
        guard let event = try await event(connection, eventId) else { return nil }
        let accessType = try await accessTypes(connection, eventId: eventId).first { $0.id == block.accessTypeId }
        return TicketBlockDetail(
            block: block, event: event.info, accessTypeName: accessType?.name ?? "",
            tickets: try await blockTickets(connection, blockId: block.id))
    }

    func ticketBlock(_ id: TicketBlockID, visibleTo caller: Caller) async throws -> TicketBlockDetail? {
        try await database.read { connection in
            guard let (eventId, block) = try await Self.ticketBlock(connection, id, visibleTo: caller) else {
                return nil
            }
            return try await Self.ticketBlockDetail(connection, eventId: eventId, block: block)
        }
    }

    /// The blocks `caller` (a block manager) names, by their events' start, then partner.
    func myTicketBlocks(caller: Caller) async throws -> MyTicketBlocks {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT b.id FROM ticket_blocks b JOIN ticket_block_managers m ON m.block_id = b.id
                WHERE m.user_id = ? AND b.tenant_id = ?
                """, [.id(caller.userId), .id(caller.tenantId)])
            var mine: [TicketBlockDetail] = []
            for row in rows {
                guard
                    let (eventId, block) = try await Self.ticketBlock(connection, try row.id("id"), visibleTo: caller),
                    let detail = try await Self.ticketBlockDetail(connection, eventId: eventId, block: block)
                else { continue }
                mine.append(detail)
            }
            return MyTicketBlocks(
                blocks: mine.sorted {
                    ($0.event.startsAt, $0.block.partner, $0.block.id.wire)
                        < ($1.event.startsAt, $1.block.partner, $1.block.id.wire)
                })
        }
    }

    /// Allocates a block of `allocation.size` unnamed tickets (every field is set: the route
    /// checked).
    func allocateTicketBlock(
        caller: Caller, eventId: EventID, allocation: TicketBlockAllocation, now: Date
    ) async throws -> TicketBlockWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            guard let accessTypeId = allocation.accessTypeId,
                try await Self.accessTypeExists(connection, eventId: eventId, id: accessTypeId)
            else { return .unknownAccessType }
            let managers = allocation.managers ?? []
            guard try await Self.areBlockManagers(connection, managers, tenantId: caller.tenantId) else {
                return .notABlockManager
            }
            let id = TicketBlockID.random()
            try await connection.execute(
                """
                INSERT INTO ticket_blocks
                    (id, tenant_id, event_id, kind, partner, access_type_id, naming_deadline, door_naming, created_at,
                    position)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,
                    (SELECT COALESCE(MAX(position), 0) + 1 FROM ticket_blocks WHERE event_id = ?))
                """,
                [
                    .id(id), .id(caller.tenantId), .id(eventId), .text((allocation.kind ?? .partner).rawValue),
                    .text(allocation.partner ?? ""), .id(accessTypeId), .date(allocation.namingDeadline ?? now),
                    .bool(allocation.doorNaming ?? false), .date(now), .id(eventId),
                ])
            try await Self.setManagers(connection, blockId: id, managers)
            try await addBlockTickets(
                connection, eventId: eventId, blockId: id, accessTypeId: accessTypeId, count: allocation.size ?? 0)
            return try await Self.savedBlock(connection, id, caller: caller)
        }
    }

    /// Changes what `change` sets. A block grows by new unnamed tickets and shrinks by
    /// cancelling its newest unnamed ones; a named ticket is never dropped.
    func changeTicketBlock(
        caller: Caller, blockId: TicketBlockID, change: TicketBlockAllocation
    ) async throws -> TicketBlockWrite {
        try await database.transaction { connection in
            guard let (eventId, block) = try await Self.ticketBlock(connection, blockId, visibleTo: caller),
                try await Self.event(connection, eventId, visibleTo: caller) != nil
            else { return .notFound }
            if let accessType = change.accessTypeId, accessType != block.accessTypeId { return .accessTypeFixed }
            if let managers = change.managers {
                guard try await Self.areBlockManagers(connection, managers, tenantId: caller.tenantId) else {
                    return .notABlockManager
                }
                try await connection.execute(
                    "DELETE FROM ticket_block_managers WHERE block_id = ?", [.id(blockId)])
                try await Self.setManagers(connection, blockId: blockId, managers)
            }
            var assignments: [String] = []
            var binds: [SQLValue] = []
            if let kind = change.kind { assignments.append("kind = ?"); binds.append(.text(kind.rawValue)) }
            if let partner = change.partner { assignments.append("partner = ?"); binds.append(.text(partner)) }
            if let deadline = change.namingDeadline {
                assignments.append("naming_deadline = ?")
                binds.append(.date(deadline))
            }
            if let door = change.doorNaming { assignments.append("door_naming = ?"); binds.append(.bool(door)) }
            if !assignments.isEmpty {
                try await connection.execute(
                    "UPDATE ticket_blocks SET \(assignments.joined(separator: ", ")) WHERE id = ?",
                    binds + [.id(blockId)])
            }
            if let size = change.size, size != block.size {
                if size > block.size {
                    try await addBlockTickets(
                        connection, eventId: eventId, blockId: blockId, accessTypeId: block.accessTypeId,
                        count: size - block.size)
                } else {
                    guard size >= block.named else { return .wouldDropNamed(block.named) }
                    let unnamed = try await connection.query(
                        """
                        SELECT id FROM guests WHERE block_id = ? AND status <> 'cancelled' AND name = ''
                        ORDER BY block_slot DESC LIMIT ?
                        """, [.id(blockId), .int(Int64(block.size - size))])
                    guard let last = try await bumpSequence(connection, eventId: eventId, by: unnamed.count) else {
                        return .notFound
                    }
                    // Each cancelled ticket gets its own change number, so the doors' rosters learn it.
                    for (offset, row) in unnamed.enumerated() {
                        try await connection.execute(
                            "UPDATE guests SET status = 'cancelled', seq = ? WHERE id = ?",
                            [.int(last - Int64(offset)), .id(try row.id("id", as: GuestID.self))])
                    }
                }
            }
            // Every roster page carries the blocks, so the doors learn a new scope at their next sync.
            return try await Self.savedBlock(connection, blockId, caller: caller)
        }
    }

    private static func savedBlock(
        _ connection: any SQLConnection, _ id: TicketBlockID, caller: Caller
    ) async throws -> TicketBlockWrite {
        guard let (eventId, block) = try await ticketBlock(connection, id, visibleTo: caller),
            let detail = try await ticketBlockDetail(connection, eventId: eventId, block: block)
        else { return .notFound }
        return .saved(detail)
    }

    private static func areBlockManagers(
        _ connection: any SQLConnection, _ users: [UserID], tenantId: TenantID
    ) async throws -> Bool {
        guard !users.isEmpty else { return true }
        let managers = Set(
            try await connection.query(
                "SELECT id FROM users WHERE tenant_id = ? AND role = ? AND removed_at IS NULL",
                [.id(tenantId), .text(UserRole.blockManager.rawValue)]
            ).map { try $0.id("id", as: UserID.self) })
        return users.allSatisfy(managers.contains)
    }

    private static func setManagers(
        _ connection: any SQLConnection, blockId: TicketBlockID, _ users: [UserID]
    ) async throws {
        for user in Set(users) {
            try await connection.execute(
                "INSERT INTO ticket_block_managers (block_id, user_id) VALUES (?, ?)", [.id(blockId), .id(user)])
        }
    }

    /// Adds `count` unnamed tickets to the block, in import-sized chunks.
    private func addBlockTickets(
        _ connection: any SQLConnection, eventId: EventID, blockId: TicketBlockID, accessTypeId: AccessTypeID,
        count: Int
    ) async throws {
        var slot =
            try await connection.queryOne(
                "SELECT MAX(block_slot) AS slot FROM guests WHERE block_id = ?", [.id(blockId)]
            )?.optionalInt("slot") ?? 0
        var left = count
        while left > 0 {
            let chunk = min(left, Self.maxImportChunk)
            guard let last = try await bumpSequence(connection, eventId: eventId, by: chunk) else {
                throw StoreError.notFound
            }
            let written = try await Self.insertGuests(
                connection, eventId: eventId,
                guests: Array(
                    repeating: NewGuest(name: "", email: "", accessTypeId: accessTypeId, notes: ""), count: chunk),
                firstSeq: last - Int64(chunk) + 1)
            // Numbered in the order they were written (one statement: a CASE over the ids).
            var binds: [SQLValue] = []
            for (id, _) in written {
                slot += 1
                binds += [.id(id), .int(slot)]
            }
            let cases = Array(repeating: "WHEN ? THEN ?", count: written.count).joined(separator: " ")
            let ids: [SQLValue] = written.map { (id, _) in SQLValue.id(id) }
            try await connection.execute(
                """
                UPDATE guests SET block_id = ?, block_slot = CASE id \(cases) END
                WHERE id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))
                """,
                [.id(blockId)] + binds + ids)
            left -= chunk
        }
    }

    /// Names (or renames) a ticket of the block as `caller`: its manager until the deadline, the
    /// organizer at any time, door staff of the event an unnamed ticket when the block allows it.
    /// A door naming of a ticket named meanwhile is kept in the history, flagged; the name stands.
    func nameBlockTicket(
        blockId: TicketBlockID, guestId: GuestID, naming: TicketNaming, caller: Caller, now: Date
    ) async throws -> TicketNamingResult {
        try await database.transaction { connection in
            let namer: TicketNamer
            let found: (eventId: EventID, block: TicketBlock)?
            switch caller.role {
            case .organizer:
                namer = .organizer
                found = try await Self.ticketBlock(connection, blockId, visibleTo: caller)
            case .blockManager:
                namer = .partner
                found = try await Self.ticketBlock(connection, blockId, visibleTo: caller)
            case .support, .checkinStaff:
                // The door: staff of the block's event (checked below, once the event is known).
                namer = .door
                found = try await Self.ticketBlock(connection, blockId, tenantId: caller.tenantId)
            default:
                return .notFound
            }
            guard let (eventId, block) = found else { return .notFound }
            if namer == .door, try await Self.event(connection, eventId, visibleTo: caller) == nil { return .notFound }
            guard let before = try await Self.guest(connection, eventId: eventId, id: guestId),
                before.blockId == blockId
            else { return .notFound }
            let version =
                (try await connection.queryOne(
                    "SELECT MAX(version) AS v FROM block_ticket_namings WHERE guest_id = ?", [.id(guestId)]
                )?.optionalInt("v") ?? 0) + 1
            func record(conflict: Bool) async throws {
                try await connection.execute(
                    """
                    INSERT INTO block_ticket_namings
                        (guest_id, version, name, email, named_by, source, device_id, conflict, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .id(guestId), .int(version), .text(naming.name), .text(naming.email), .id(caller.userId),
                        .text("\(namer)"), .optionalText(naming.deviceId), .bool(conflict), .date(now),
                    ])
            }
            func ticket() async throws -> BlockTicket? {
                try await Self.blockTickets(connection, blockId: blockId).first { $0.guestId == guestId }
            }
            let named = !before.name.isEmpty
            if named, before.name == naming.name, before.email == naming.email || namer == .door {
                // The same naming again (its answer was lost, or the door named as the partner did).
                guard let ticket = try await ticket() else { return .notFound }
                return .named(
                    TicketNamed(ticket: ticket, conflict: false), changed: false, eventId: eventId, block: block)
            }
            if namer == .door, named {
                try await record(conflict: true)
                guard let ticket = try await ticket() else { return .notFound }
                return .named(
                    TicketNamed(ticket: ticket, conflict: true), changed: false, eventId: eventId, block: block)
            }
            if let refusal = TicketBlockRules.naming(
                by: namer, named: named, admissible: before.status == .confirmed, deadline: block.namingDeadline,
                doorNaming: block.doorNaming, partner: block.partner, now: now)
            {
                return .refused(refusal)
            }
            guard let seq = try await bumpSequence(connection, eventId: eventId) else { return .notFound }
            try await connection.execute(
                "UPDATE guests SET name = ?, name_key = ?, email = ?, seq = ? WHERE id = ?",
                [
                    .text(naming.name), .text(GuestNameKey.of(naming.name)), .text(naming.email), .int(seq),
                    .id(guestId),
                ])
            try await record(conflict: false)
            guard let ticket = try await ticket() else { return .notFound }
            return .named(TicketNamed(ticket: ticket, conflict: false), changed: true, eventId: eventId, block: block)
        }
    }

    /// Door namings that found their ticket named already, for the organizer: the ticket, the
    /// name it has, and the name the door gave.
    func blockNamingConflicts(
        eventId: EventID
    ) async throws -> [(guestId: GuestID, name: String, doorName: String, at: Date)] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT n.guest_id, g.name, n.name AS door_name, n.at FROM block_ticket_namings n
                JOIN guests g ON g.id = n.guest_id WHERE g.event_id = ? AND n.conflict = 1 ORDER BY n.at, n.guest_id
                """, [.id(eventId)]
            ).map {
                (try $0.id("guest_id"), try $0.text("name"), try $0.text("door_name"), try $0.date("at"))
            }
        }
    }
}

extension TicketBlock {
    /// The block as the roster carries it to the doors.
    var roster: RosterBlock {
        RosterBlock(id: id, kind: kind, partner: partner, size: size, doorNaming: doorNaming)
    }
}
