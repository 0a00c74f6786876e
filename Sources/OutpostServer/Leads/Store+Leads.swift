import Foundation
import OutpostCore
import OutpostProtocol

/// How saving an event's booths ended.
enum BoothsWrite: Sendable, Equatable {
    case saved(BoothList)
    /// A booth left out of the list has leads (its name): it stays.
    case boothInUse(String)
    /// A booth names a user who is not an exhibitor of this tenant.
    case notAnExhibitor
    /// A booth's id is another event's booth.
    case boothIdTaken
    case notFound
}

/// How writing a lead ended.
enum LeadWriteResult: Sendable, Equatable {
    case created(Lead)
    case updated(Lead)
    /// The same write sent again (its answer was lost): the lead as stored.
    case replayed(Lead)
    /// The base version is not the lead's current one: the lead as it is now.
    case conflict(Lead)
    /// The lead id is another booth's lead, or the write changes whose lead it is.
    case idTaken
    case unknownGuest
    case notFound
}

/// Lead retrieval on the server: booths, the exhibitors on them, and the leads they capture.
/// A booth is only its own exhibitors' (and its organizer's): another booth's leads are not
/// found. A lead carries the attendee's contact details only while the attendee shares them;
/// the details are joined when the lead is read, so an attendee who agrees later is resolved on
/// every lead at once, and one who withdraws disappears from them.
extension Store {
    static func booths(_ connection: any SQLConnection, eventId: EventID) async throws -> BoothList {
        let members = try await connection.query(
            """
            SELECT m.booth_id, m.user_id FROM booth_exhibitors m JOIN booths b ON b.id = m.booth_id
            WHERE b.event_id = ? ORDER BY m.user_id
            """, [.id(eventId)])
        var exhibitors: [BoothID: [UserID]] = [:]
        for row in members { exhibitors[try row.id("booth_id"), default: []].append(try row.id("user_id")) }
        return BoothList(
            booths: try await connection.query(
                "SELECT id, name, questions FROM booths WHERE event_id = ? ORDER BY position, id", [.id(eventId)]
            ).map { row in
                let id: BoothID = try row.id("id")
                return Booth(
                    id: id, name: try row.text("name"),
                    questions: try OutpostJSON.decode([BoothQuestion].self, from: Data(try row.text("questions").utf8)),
                    exhibitors: exhibitors[id] ?? [])
            })
    }

    func booths(eventId: EventID) async throws -> BoothList {
        try await database.read { connection in try await Self.booths(connection, eventId: eventId) }
    }

    /// Replaces the event's booths with `list`.
    func setBooths(caller: Caller, eventId: EventID, list: BoothList) async throws -> BoothsWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            let exhibitors = Set(
                try await connection.query(
                    "SELECT id FROM users WHERE tenant_id = ? AND role = ?",
                    [.id(caller.tenantId), .text(UserRole.exhibitor.rawValue)]
                ).map { try $0.id("id", as: UserID.self) })
            guard list.booths.allSatisfy({ $0.exhibitors.allSatisfy(exhibitors.contains) }) else {
                return .notAnExhibitor
            }
            for booth in list.booths {
                if let owner = try await connection.queryOne(
                    "SELECT event_id FROM booths WHERE id = ?", [.id(booth.id)]),
                    try owner.id("event_id", as: EventID.self) != eventId
                {
                    return .boothIdTaken
                }
            }
            let kept = Set(list.booths.map(\.id))
            for row in try await connection.query("SELECT id, name FROM booths WHERE event_id = ?", [.id(eventId)])
            where !kept.contains(try row.id("id", as: BoothID.self)) {
                let id: BoothID = try row.id("id")
                if try await connection.queryOne("SELECT 1 FROM leads WHERE booth_id = ? LIMIT 1", [.id(id)]) != nil {
                    return .boothInUse(try row.text("name"))
                }
                try await connection.execute("DELETE FROM booth_exhibitors WHERE booth_id = ?", [.id(id)])
                try await connection.execute("DELETE FROM booths WHERE id = ?", [.id(id)])
            }
            for (position, booth) in list.booths.enumerated() {
                try await connection.execute(
                    """
                    INSERT INTO booths (id, tenant_id, event_id, name, questions, position) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, questions = excluded.questions,
                        position = excluded.position
                    """,
                    [
                        .id(booth.id), .id(caller.tenantId), .id(eventId), .text(booth.name),
                        .text(String(decoding: try OutpostJSON.encode(booth.questions), as: UTF8.self)),
                        .int(Int64(position)),
                    ])
                try await connection.execute("DELETE FROM booth_exhibitors WHERE booth_id = ?", [.id(booth.id)])
                for user in Set(booth.exhibitors) {
                    try await connection.execute(
                        "INSERT INTO booth_exhibitors (booth_id, user_id) VALUES (?, ?)", [.id(booth.id), .id(user)])
                }
            }
            return .saved(try await Self.booths(connection, eventId: eventId))
        }
    }

    /// The booths `caller` (an exhibitor) is on, with their events.
    func myBooths(caller: Caller, now: Date) async throws -> MyBooths {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT DISTINCT b.event_id FROM booths b JOIN booth_exhibitors m ON m.booth_id = b.id
                WHERE m.user_id = ? AND b.tenant_id = ?
                """, [.id(caller.userId), .id(caller.tenantId)])
            var mine: [MyBooth] = []
            for row in rows {
                let eventId: EventID = try row.id("event_id")
                guard let event = try await Self.event(connection, eventId) else { continue }
                let keys = try await Self.rosterKeys(connection, eventId: eventId, now: now)
                for booth in try await Self.booths(connection, eventId: eventId).booths
                where booth.exhibitors.contains(caller.userId) {
                    mine.append(MyBooth(booth: booth, event: event.info, keys: keys))
                }
            }
            return MyBooths(
                booths: mine.sorted { ($0.event.startsAt, $0.booth.name) < ($1.event.startsAt, $1.booth.name) })
        }
    }

    /// The booth's event when `caller` may work it: its organizer or support (same tenant), or an
    /// exhibitor on it. Nil for everyone else: another booth is not found.
    static func booth(
        _ connection: any SQLConnection, _ id: BoothID, workableBy caller: Caller
    ) async throws -> (eventId: EventID, booth: Booth)? {
        guard
            let row = try await connection.queryOne(
                "SELECT event_id FROM booths WHERE id = ? AND tenant_id = ?", [.id(id), .id(caller.tenantId)])
        else { return nil }
        let eventId: EventID = try row.id("event_id")
        guard let booth = try await booths(connection, eventId: eventId).booths.first(where: { $0.id == id }) else {
            return nil
        }
        switch caller.role {
        case .organizer, .support: return (eventId, booth)
        case .exhibitor: return booth.exhibitors.contains(caller.userId) ? (eventId, booth) : nil
        default: return nil
        }
    }

    func booth(_ id: BoothID, workableBy caller: Caller) async throws -> (eventId: EventID, booth: Booth)? {
        try await database.read { connection in try await Self.booth(connection, id, workableBy: caller) }
    }

    static let leadColumns = """
        l.id, l.booth_id, l.version, l.content, l.captured_by, l.updated_at, g.name AS guest_name,
        g.email AS guest_email, COALESCE(c.shares, 0) AS shares
        """
    static let leadJoins = """
        FROM leads l JOIN guests g ON g.id = l.guest_id LEFT JOIN guest_contact_consent c ON c.guest_id = l.guest_id
        """

    static func lead(from row: SQLRow) throws -> Lead {
        Lead(
            id: try row.id("id"), boothId: try row.id("booth_id"), version: Int(try row.int("version")),
            content: try OutpostJSON.decode(LeadContent.self, from: Data(try row.text("content").utf8)),
            capturedBy: try row.text("captured_by"), updatedAt: try row.date("updated_at"),
            contact: try row.bool("shares")
                ? SharedContact(name: try row.text("guest_name"), email: try row.text("guest_email")) : nil)
    }

    /// The booth's leads, newest capture first.
    func leads(boothId: BoothID) async throws -> [Lead] {
        try await database.read { connection in
            try await connection.query(
                "SELECT \(Self.leadColumns) \(Self.leadJoins) WHERE l.booth_id = ? ORDER BY l.captured_at DESC, l.id",
                [.id(boothId)]
            ).map(Self.lead(from:))
        }
    }

    func writeLead(
        _ id: LeadID, boothId: BoothID, write: LeadWrite, caller: Caller, now: Date
    ) async throws -> LeadWriteResult {
        try await database.transaction { connection in
            guard let (eventId, _) = try await Self.booth(connection, boothId, workableBy: caller) else {
                return .notFound
            }
            func current() async throws -> Lead? {
                try await connection.queryOne(
                    "SELECT \(Self.leadColumns) \(Self.leadJoins) WHERE l.id = ?", [.id(id)]
                ).map(Self.lead(from:))
            }
            let content = String(decoding: try OutpostJSON.encode(write.content), as: UTF8.self)
            let byName =
                try await connection.queryOne("SELECT name FROM users WHERE id = ?", [.id(caller.userId)])?.text("name")
                ?? ""
            if let lead = try await current() {
                guard lead.boothId == boothId, lead.content.guestId == write.content.guestId else { return .idTaken }
                if write.baseVersion == lead.version - 1, lead.content == write.content { return .replayed(lead) }
                guard write.baseVersion == lead.version else { return .conflict(lead) }
                let version = lead.version + 1
                try await connection.execute(
                    "UPDATE leads SET version = ?, content = ?, updated_at = ? WHERE id = ?",
                    [.int(Int64(version)), .text(content), .date(now), .id(id)])
                try await connection.execute(
                    "INSERT INTO lead_versions (lead_id, version, content, user_id, at) VALUES (?, ?, ?, ?, ?)",
                    [.id(id), .int(Int64(version)), .text(content), .id(caller.userId), .date(now)])
                return try await current().map(LeadWriteResult.updated) ?? .notFound
            }
            guard write.baseVersion == 0 else { return .notFound }
            guard
                try await connection.queryOne(
                    "SELECT 1 FROM guests WHERE id = ? AND event_id = ?", [.id(write.content.guestId), .id(eventId)])
                    != nil
            else { return .unknownGuest }
            try await connection.execute(
                """
                INSERT INTO leads (id, tenant_id, booth_id, guest_id, version, content, captured_by, updated_at,
                    captured_at)
                VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)
                """,
                [
                    .id(id), .id(caller.tenantId), .id(boothId), .id(write.content.guestId), .text(content),
                    .text(byName), .date(now), .date(write.content.capturedAt),
                ])
            try await connection.execute(
                "INSERT INTO lead_versions (lead_id, version, content, user_id, at) VALUES (?, 1, ?, ?, ?)",
                [.id(id), .text(content), .id(caller.userId), .date(now)])
            return try await current().map(LeadWriteResult.created) ?? .notFound
        }
    }

    /// Records whether a guest shares their contact details with exhibitors; false when the
    /// guest is not one of the event's.
    func setContactConsent(
        eventId: EventID, guestId: GuestID, shares: Bool, changedBy: String, now: Date
    ) async throws -> Bool {
        try await database.transaction { connection in
            guard
                try await connection.queryOne(
                    "SELECT 1 FROM guests WHERE id = ? AND event_id = ?", [.id(guestId), .id(eventId)]) != nil
            else { return false }
            try await connection.execute(
                """
                INSERT INTO guest_contact_consent (guest_id, shares, changed_at, changed_by) VALUES (?, ?, ?, ?)
                ON CONFLICT (guest_id) DO UPDATE SET shares = excluded.shares, changed_at = excluded.changed_at,
                    changed_by = excluded.changed_by
                """, [.id(guestId), .bool(shares), .date(now), .text(changedBy)])
            return true
        }
    }

    /// What the attendee's own consent page shows: their name, the event's, and their choice.
    func contactConsent(
        guestId: GuestID
    ) async throws -> (
        eventId: EventID, guestName: String, eventName: String, shares: Bool
    )? {
        try await database.read { connection in
            try await connection.queryOne(
                """
                SELECT g.event_id, g.name AS guest_name, e.name AS event_name, COALESCE(c.shares, 0) AS shares
                FROM guests g JOIN events e ON e.id = g.event_id
                LEFT JOIN guest_contact_consent c ON c.guest_id = g.id WHERE g.id = ?
                """, [.id(guestId)]
            ).map {
                (
                    try $0.id("event_id"), try $0.text("guest_name"), try $0.text("event_name"),
                    try $0.bool("shares")
                )
            }
        }
    }
}
