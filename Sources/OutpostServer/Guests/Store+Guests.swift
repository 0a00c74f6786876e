import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// A guest to be written.
struct NewGuest: Sendable {
    var name: String
    var email: String
    var accessTypeId: AccessTypeID
    var notes: String
    /// Whether the guest shares their contact details with exhibitors, when the import says.
    var sharesContact: Bool? = nil
    /// Values of the event's guest fields, checked against them.
    var fields: GuestFieldValues = [:]
}

extension Store {
    static let guestColumns = """
        g.id, g.access_type_id, g.name, g.email, g.code, g.status, g.notes, g.seq, g.block_id, g.fields,
        c.at AS checked_in_at, c.by_name AS checked_in_by, c.device_id AS checked_in_device
        """
    static let guestJoin = "guests g LEFT JOIN checkins c ON c.event_id = g.event_id AND c.guest_id = g.id"

    static func guest(from row: SQLRow) throws -> GuestInfo {
        var checkIn: CheckInSummary?
        if let at = try row.optionalDate("checked_in_at") {
            checkIn = CheckInSummary(
                at: at, byName: try row.text("checked_in_by"), deviceId: try row.text("checked_in_device"))
        }
        return GuestInfo(
            id: try row.id("id"), accessTypeId: try row.id("access_type_id"), name: try row.text("name"),
            email: try row.text("email"), code: try row.text("code"),
            status: try row.enumeration("status", as: GuestStatus.self), notes: try row.text("notes"),
            checkIn: checkIn, blockId: try row.optionalID("block_id"),
            fields: try row.optionalText("fields").flatMap(Self.fieldValues))
    }

    /// A guest's field values as kept (a JSON object); nil when there are none.
    static func fieldValues(_ json: String) throws -> GuestFieldValues? {
        let values = try OutpostJSON.decode(GuestFieldValues.self, from: Data(json.utf8))
        return values.isEmpty ? nil : values
    }

    /// The column's value for `values`: null when there are none.
    static func fieldsColumn(_ values: GuestFieldValues) throws -> SQLValue {
        guard !values.isEmpty else { return .null }
        return .text(String(decoding: try OutpostJSON.encode(values), as: UTF8.self))
    }

    /// A fresh unguessable guest code: ten base32 characters (50 random bits).
    static func makeGuestCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<7).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return String(Base32.encode(bytes).prefix(10))
    }

    static func accessTypeExists(
        _ connection: any SQLConnection, eventId: EventID, id: AccessTypeID
    ) async throws -> Bool {
        try await connection.queryOne(
            "SELECT 1 FROM access_types WHERE id = ? AND event_id = ?", [.id(id), .id(eventId)]) != nil
    }

    /// Adds a guest; its notes become the organizer's first note revision on the guest.
    func createGuest(eventId: EventID, guest: NewGuest, caller: Caller) async throws -> GuestInfo {
        try await database.transaction { connection in
            guard try await Self.accessTypeExists(connection, eventId: eventId, id: guest.accessTypeId) else {
                throw StoreError.unknownAccessType
            }
            guard let seq = try await bumpSequence(connection, eventId: eventId) else { throw StoreError.notFound }
            let id = try await Self.insertGuest(connection, eventId: eventId, guest: guest, seq: seq)
            try await Self.writeOrganizerNotes(
                connection, eventId: eventId, caller: caller, notes: [(id, guest.notes)], newGuests: true, now: .now)
            return try await Self.guest(connection, eventId: eventId, id: id)!
        }
    }

    /// Inserts a guest with a fresh code, drawing again on the (unlikely) collision.
    private static func insertGuest(
        _ connection: any SQLConnection, eventId: EventID, guest: NewGuest, seq: Int64
    ) async throws -> GuestID {
        let id = GuestID.random()
        for _ in 0..<5 {
            let inserted = try await connection.queryOne(
                """
                INSERT INTO guests
                    (id, event_id, access_type_id, name, email, code, status, notes, seq, created_at, name_key,
                    fields)
                VALUES (?, ?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
                """,
                [
                    .id(id), .id(eventId), .id(guest.accessTypeId), .text(guest.name), .text(guest.email),
                    .text(makeGuestCode()), .text(guest.notes), .int(seq), .date(.now),
                    .text(GuestNameKey.of(guest.name)), try fieldsColumn(guest.fields),
                ])
            if inserted != nil { return id }
        }
        throw StoreError.notFound
    }

    /// Guests one import transaction may write: its e-mail lookup binds one value per guest and
    /// its insert eleven, within every dialect's bind limit (SQLite's 32,766; PostgreSQL's 65,535).
    static let maxImportChunk = 500

    /// Inserts guests with consecutive change numbers from `firstSeq` in one statement (one
    /// round trip). A row whose random code collided is inserted again alone. Returns each
    /// guest's id.
    static func insertGuests(
        _ connection: any SQLConnection, eventId: EventID, guests: [NewGuest], firstSeq: Int64
    ) async throws -> [(GuestID, NewGuest)] {
        let now = Date.now
        var ids: [GuestID: (NewGuest, Int64)] = [:]
        var binds: [SQLValue] = []
        for (offset, guest) in guests.enumerated() {
            let id = GuestID.random()
            let seq = firstSeq + Int64(offset)
            ids[id] = (guest, seq)
            binds += [
                .id(id), .id(eventId), .id(guest.accessTypeId), .text(guest.name), .text(guest.email),
                .text(makeGuestCode()), .text(guest.notes), .int(seq), .date(now), .text(GuestNameKey.of(guest.name)),
                try fieldsColumn(guest.fields),
            ]
        }
        let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, ?, ?)", count: guests.count)
        let inserted = try await connection.query(
            """
            INSERT INTO guests
                (id, event_id, access_type_id, name, email, code, status, notes, seq, created_at, name_key, fields)
            VALUES \(rows.joined(separator: ", ")) ON CONFLICT DO NOTHING RETURNING id
            """,
            binds)
        var written: [(GuestID, NewGuest)] = []
        for row in inserted {
            let id: GuestID = try row.id("id")
            if let (guest, _) = ids.removeValue(forKey: id) { written.append((id, guest)) }
        }
        for (guest, seq) in ids.values {
            written.append((try await insertGuest(connection, eventId: eventId, guest: guest, seq: seq), guest))
        }
        return written
    }

    /// One guest, with their check-in's id (to take it back by).
    static func guest(_ connection: any SQLConnection, eventId: EventID, id: GuestID) async throws -> GuestInfo? {
        guard
            let row = try await connection.queryOne(
                "SELECT \(guestColumns), c.id AS checkin_id FROM \(guestJoin) WHERE g.event_id = ? AND g.id = ?",
                [.id(eventId), .id(id)])
        else { return nil }
        var guest = try guest(from: row)
        guest.checkIn?.id = try row.optionalID("checkin_id")
        return guest
    }

    /// Applies a partial update; a status change reaches devices in their next roster delta. A
    /// changed `notes` is a new revision of the organizer's note on the guest.
    func updateGuest(
        eventId: EventID, id: GuestID, update: UpdateGuestRequest, fieldChanges: [String: String?] = [:],
        caller: Caller
    ) async throws
        -> GuestInfo
    {
        try await database.transaction { connection in
            guard let before = try await Self.guest(connection, eventId: eventId, id: id) else {
                throw StoreError.notFound
            }
            if let notes = update.notes, notes != before.notes {
                try await Self.writeOrganizerNotes(
                    connection, eventId: eventId, caller: caller, notes: [(id, notes)], newGuests: false, now: .now)
            }
            var assignments: [String] = []
            var binds: [SQLValue] = []
            if let status = update.status { assignments.append("status = ?"); binds.append(.text(status.rawValue)) }
            if let name = update.name {
                assignments.append("name = ?, name_key = ?")
                binds += [.text(name), .text(GuestNameKey.of(name))]
            }
            if let email = update.email { assignments.append("email = ?"); binds.append(.text(email)) }
            if let notes = update.notes { assignments.append("notes = ?"); binds.append(.text(notes)) }
            if let accessType = update.accessTypeId {
                let accessTypeId = accessType
                guard try await Self.accessTypeExists(connection, eventId: eventId, id: accessTypeId)
                else { throw StoreError.unknownAccessType }
                assignments.append("access_type_id = ?")
                binds.append(.id(accessTypeId))
            }
            let fields = GuestFieldRules.applying(fieldChanges, to: before.fields ?? [:])
            if fields != before.fields ?? [:] {
                assignments.append("fields = ?")
                binds.append(try Self.fieldsColumn(fields))
            }
            if !assignments.isEmpty {
                guard let seq = try await bumpSequence(connection, eventId: eventId) else { throw StoreError.notFound }
                assignments.append("seq = ?")
                binds += [.int(seq), .id(id), .id(eventId)]
                try await connection.execute(
                    "UPDATE guests SET \(assignments.joined(separator: ", ")) WHERE id = ? AND event_id = ?", binds)
            }
            return try await Self.guest(connection, eventId: eventId, id: id)!
        }
    }

    /// Guests one transaction of a bulk change writes (SQLite's one writer waits no longer).
    static let bulkChunk = 500

    /// One change to many guests, ``bulkChunk`` at a time, each chunk its own transaction (a
    /// failure part-way leaves the chunks before it written; sending it again changes the rest
    /// and counts those as unchanged). The changed guests get a new change number, so devices
    /// learn it at their next roster sync.
    func bulkUpdateGuests(
        eventId: EventID, ids: [GuestID], status: GuestStatus?, accessTypeId: AccessTypeID?
    ) async throws -> BulkGuestResult {
        var seen = Set<GuestID>()
        let unique = ids.filter { seen.insert($0).inserted }
        var result = BulkGuestResult(changed: 0, unchanged: 0, notFound: 0)
        for start in stride(from: 0, to: unique.count, by: Self.bulkChunk) {
            let chunk = Array(unique[start..<min(start + Self.bulkChunk, unique.count)])
            let written = try await database.transaction { connection in
                if let accessTypeId {
                    guard try await Self.accessTypeExists(connection, eventId: eventId, id: accessTypeId) else {
                        throw StoreError.unknownAccessType
                    }
                }
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let rows = try await connection.query(
                    "SELECT id, status, access_type_id FROM guests WHERE event_id = ? AND id IN (\(marks))",
                    [.id(eventId)] + chunk.map { .id($0) })
                var changing: [GuestID] = []
                for row in rows {
                    let currentStatus = try row.text("status")
                    let currentType: AccessTypeID = try row.id("access_type_id")
                    let differs =
                        (status.map { currentStatus != $0.rawValue } ?? false)
                        || (accessTypeId.map { currentType != $0 } ?? false)
                    if differs { changing.append(try row.id("id")) }
                }
                if !changing.isEmpty {
                    guard let seq = try await bumpSequence(connection, eventId: eventId) else {
                        throw StoreError.notFound
                    }
                    try await connection.execute(
                        """
                        UPDATE guests SET status = COALESCE(?, status), access_type_id = COALESCE(?, access_type_id),
                            seq = ?
                        WHERE event_id = ? AND id IN (\(Array(repeating: "?", count: changing.count).joined(separator: ", ")))
                        """,
                        [
                            status.map { .text($0.rawValue) } ?? .null, accessTypeId.map { .id($0) } ?? .null,
                            .int(seq), .id(eventId),
                        ] + changing.map { .id($0) })
                }
                return (found: rows.count, changed: changing.count)
            }
            result.changed += written.changed
            result.unchanged += written.found - written.changed
            result.notFound += chunk.count - written.found
        }
        return result
    }

    /// Writes one chunk of an import (at most ``maxImportChunk`` guests) in one transaction. A guest whose name and e-mail (in any
    /// case) the event already has, or that appeared earlier in the chunk, is skipped; only the
    /// chunk's own e-mails are looked up.
    /// Each imported guest's `notes` is the organizer's first note revision on the guest.
    func importGuests(
        eventId: EventID, guests: [NewGuest], caller: Caller
    ) async throws -> (
        imported: Int, skipped: Int
    ) {
        guard !guests.isEmpty else { return (0, 0) }
        precondition(guests.count <= Self.maxImportChunk, "an import chunk is at most \(Self.maxImportChunk) guests")
        let key = { (name: String, email: String) in "\(name)\u{0}\(email.lowercased())" }
        let emails = Array(Set(guests.map { $0.email.lowercased() }))
        return try await database.transaction { connection in
            var seen = Set<String>()
            let existing = try await connection.query(
                """
                SELECT name, email FROM guests WHERE event_id = ?
                AND lower(email) IN (\(Array(repeating: "?", count: emails.count).joined(separator: ", ")))
                """,
                [.id(eventId)] + emails.map { .text($0) })
            for row in existing { seen.insert(key(try row.text("name"), try row.text("email"))) }
            let fresh = guests.filter { seen.insert(key($0.name, $0.email)).inserted }
            guard !fresh.isEmpty else { return (0, guests.count) }
            guard let last = try await bumpSequence(connection, eventId: eventId, by: fresh.count) else {
                throw StoreError.notFound
            }
            let written = try await Self.insertGuests(
                connection, eventId: eventId, guests: fresh, firstSeq: last - Int64(fresh.count) + 1)
            try await Self.writeOrganizerNotes(
                connection, eventId: eventId, caller: caller, notes: written.map { ($0.0, $0.1.notes) },
                newGuests: true,
                now: .now)
            // Consent given at registration (the import's shares_contact column).
            for (id, guest) in written {
                guard let shares = guest.sharesContact else { continue }
                try await connection.execute(
                    "INSERT INTO guest_contact_consent (guest_id, shares, changed_at, changed_by) VALUES (?, ?, ?, ?)",
                    [.id(id), .bool(shares), .date(.now), .text("import:\(caller.userId.wire)")])
            }
            return (fresh.count, guests.count - fresh.count)
        }
    }

    /// One page of the guest list: guests matching `filter` after `cursor`, by name then id, and
    /// how many match in all. Keyset paging on `guests_by_name`, so every page costs the same.
    /// `counted: false` leaves out the count and the page's position (both 0): a reader walking
    /// every page (the attendee CSV, the ticket sheet) would otherwise count all matching guests
    /// again for each page.
    func guestList(
        event: EventRecord, filter: GuestFilter, after cursor: GuestListCursor?, limit: Int, counted: Bool = true
    ) async throws -> GuestPage {
        var conditions = ["g.event_id = ?"]
        var binds: [SQLValue] = [.id(event.id)]
        if let query = filter.query {
            let folded = "%" + Self.likeEscaped(GuestNameKey.of(query)) + "%"
            let pattern = "%" + Self.likeEscaped(query.lowercased()) + "%"
            conditions.append(
                "(g.name_key LIKE ? ESCAPE '\\' OR lower(g.email) LIKE ? ESCAPE '\\' OR g.code = ?)")
            binds += [.text(folded), .text(pattern), .text(query.uppercased())]
        }
        if let accessType = filter.accessTypeId {
            conditions.append("g.access_type_id = ?")
            binds.append(.id(accessType))
        }
        if let status = filter.status {
            conditions.append("g.status = ?")
            binds.append(.text(status))
        }
        switch filter.checkIn {
        case "checked_in": conditions.append("c.at IS NOT NULL")
        case "not_checked_in": conditions.append("c.at IS NULL")
        default: break
        }
        let matching = conditions.joined(separator: " AND ")
        let sort = filter.sort
        let key = sort.key
        let (after, upTo, direction) = sort.descending ? ("<", ">=", "DESC") : (">", "<=", "ASC")
        return try await database.read { connection in
            var page = matching
            var pageBinds = binds
            if let cursor {
                page += " AND (\(key) \(after) ? OR (\(key) = ? AND g.id \(after) ?))"
                pageBinds += [.text(cursor.key), .text(cursor.key), .text(cursor.guestId)]
            }
            let rows = try await connection.query(
                """
                SELECT \(Self.guestColumns), \(key) AS sort_key FROM \(Self.guestJoin) WHERE \(page)
                ORDER BY \(key) \(direction), g.id \(direction) LIMIT ?
                """,
                pageBinds + [.int(Int64(limit + 1))])
            let guests = try rows.prefix(limit).map(Self.guest(from:))
            // The next page starts after the last row's key as the database made it.
            let next =
                rows.count > limit
                ? try GuestListCursor(
                    sort: sort, key: rows[limit - 1].text("sort_key"), guestId: guests[limit - 1].id.wire)
                : nil
            guard counted else { return GuestPage(guests: guests, next: next?.token, total: 0, offset: 0) }
            let total = try await connection.queryOne(
                "SELECT COUNT(*) AS total FROM \(Self.guestJoin) WHERE \(matching)", binds)
            // Where the page starts: the matching guests up to the cursor (a range of the
            // order's index, as the page itself).
            var offset = 0
            if let cursor {
                let before = try await connection.queryOne(
                    """
                    SELECT COUNT(*) AS before FROM \(Self.guestJoin) WHERE \(matching)
                    AND (\(key) \(upTo == "<=" ? "<" : ">") ? OR (\(key) = ? AND g.id \(upTo) ?))
                    """,
                    binds + [.text(cursor.key), .text(cursor.key), .text(cursor.guestId)])
                offset = Int(try before?.int("before") ?? 0)
            }
            return GuestPage(
                guests: guests, next: next?.token, total: Int(try total?.int("total") ?? 0), offset: offset)
        }
    }

    /// `text` with LIKE's wildcards and the escape character escaped by a backslash.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// One page of the roster: guests changed after `cursor`, in change order.
    func rosterPage(event: EventRecord, after cursor: RosterCursor, limit: Int, now: Date) async throws -> RosterPage {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT \(Self.guestColumns) FROM \(Self.guestJoin)
                WHERE g.event_id = ? AND (g.seq > ? OR (g.seq = ? AND g.id > ?))
                ORDER BY g.seq, g.id LIMIT ?
                """,
                [.id(event.id), .int(cursor.seq), .int(cursor.seq), .text(cursor.guestId), .int(Int64(limit + 1))])
            let hasMore = rows.count > limit
            let pageRows = rows.prefix(limit)
            let guests = try pageRows.map(Self.guest(from:))
            var next = cursor
            if let lastRow = pageRows.last {
                next = RosterCursor(seq: try lastRow.int("seq"), guestId: try lastRow.text("id"))
            }
            var remaining = 0
            if hasMore {
                let count = try await connection.queryOne(
                    """
                    SELECT COUNT(*) AS remaining FROM guests g
                    WHERE g.event_id = ? AND (g.seq > ? OR (g.seq = ? AND g.id > ?))
                    """,
                    [.id(event.id), .int(next.seq), .int(next.seq), .text(next.guestId)])
                remaining = Int(try count?.int("remaining") ?? 0)
            }
            let keys = try await Self.rosterKeys(connection, eventId: event.id, now: now)
            return RosterPage(
                accessTypes: try await Self.accessTypes(connection, eventId: event.id), guests: guests, keys: keys,
                kiosk: event.kiosk, cursor: next.token, hasMore: hasMore,
                remaining: remaining, serverTime: now,
                blocks: try await Self.ticketBlocks(connection, eventId: event.id).map(\.roster),
                fields: try await Self.guestFields(connection, eventId: event.id))
        }
    }
}
