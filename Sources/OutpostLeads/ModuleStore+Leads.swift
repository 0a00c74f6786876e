import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The lead station's tables: the booths' leads as this device knows them (each as JSON of
/// ``LocalLead``) and the conflicts waiting for the exhibitor. A capture or an edit is written
/// with its outbox entry in one transaction.
extension ModuleStore where Owner == LeadsModule {
    package static var leadMigrations: [DeviceMigration] {
        [
            DeviceMigration("leads") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE leads (
                            id TEXT PRIMARY KEY, booth_id TEXT NOT NULL, guest_id TEXT NOT NULL,
                            captured_at INTEGER NOT NULL, lead TEXT NOT NULL);
                        CREATE INDEX leads_booth ON leads (booth_id, guest_id);
                        CREATE TABLE lead_conflicts (
                            lead_id TEXT PRIMARY KEY, owner TEXT, record TEXT NOT NULL);
                        """)
            }
        ]
    }

    package static var leadSessionTables: [String] { ["leads"] }

    package func leads(boothId: BoothID) throws -> [LocalLead] {
        try readStatement { db in
            try String.fetchAll(
                db, sql: "SELECT lead FROM leads WHERE booth_id = ? ORDER BY captured_at DESC, id",
                arguments: [boothId.wire])
        }.map { try OutpostJSON.decode(LocalLead.self, from: Data($0.utf8)) }
    }

    package func lead(_ db: Database, _ id: LeadID) throws -> LocalLead? {
        try String.fetchOne(db, sql: "SELECT lead FROM leads WHERE id = ?", arguments: [id.wire]).map {
            try OutpostJSON.decode(LocalLead.self, from: Data($0.utf8))
        }
    }

    package func lead(_ id: LeadID) throws -> LocalLead? { try readStatement { db in try lead(db, id) } }

    /// The booth's lead of `guestId`, if this device has one.
    package func lead(boothId: BoothID, guestId: GuestID) throws -> LocalLead? {
        try readStatement { db in
            try String.fetchOne(
                db, sql: "SELECT lead FROM leads WHERE booth_id = ? AND guest_id = ?",
                arguments: [boothId.wire, guestId.wire]
            ).map { try OutpostJSON.decode(LocalLead.self, from: Data($0.utf8)) }
        }
    }

    package func put(_ db: Database, _ lead: LocalLead) throws {
        try db.execute(
            sql: """
                INSERT INTO leads (id, booth_id, guest_id, captured_at, lead) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET lead = excluded.lead
                """,
            arguments: [
                lead.id.wire, lead.boothId.wire, lead.content.guestId.wire,
                lead.content.capturedAt.millisecondsSince1970,
                String(decoding: try OutpostJSON.encode(lead), as: UTF8.self),
            ])
    }

    /// Keeps `lead` as written here and queues its write over the version the server will have.
    package func write(_ lead: LocalLead, owner: UserID, now: Date) throws {
        try queue.write { db in
            var written = lead
            let write = LeadWrite(content: lead.content, baseVersion: lead.expectedVersion)
            written.expectedVersion = lead.expectedVersion + 1
            try put(db, written)
            _ = try enqueue(
                db, kind: .lead, eventId: nil,
                idempotencyKey: "lead:\(lead.id.wire):\(write.baseVersion)",
                request: LeadOutboxRequest(boothId: lead.boothId, leadId: lead.id, write: write), owner: owner,
                now: now)
        }
    }

    /// The leads the server has, except where this device has writes queued or a conflict open
    /// (then only the attendee's details, which are the server's to say, are taken).
    package func apply(_ leads: [Lead]) throws {
        try queue.write { db in
            let queued = try queuedLeadIds(db)
            let conflicted = Set(try String.fetchAll(db, sql: "SELECT lead_id FROM lead_conflicts"))
            for lead in leads {
                if queued.contains(lead.id.wire) || conflicted.contains(lead.id.wire),
                    var local = try self.lead(db, lead.id)
                {
                    local.contact = lead.contact
                    try put(db, local)
                } else {
                    try put(db, LocalLead(server: lead))
                }
            }
        }
    }

    package func queuedLeadIds(_ db: Database) throws -> Set<String> {
        Set(
            // By the outbox's state index: a long offline queue is never read whole.
            try String.fetchAll(
                db, sql: "SELECT idempotency_key FROM outbox WHERE state = 'pending' AND kind = ?",
                arguments: [OutboxKind.lead.rawValue]
            )
            .compactMap { key in
                let parts = key.split(separator: ":")
                return parts.count == 3 ? String(parts[1]) : nil
            })
    }

    package func hasOtherQueuedWrites(_ db: Database, _ id: LeadID, excluding row: OutboxMachine.EntryID) throws -> Bool
    {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM outbox WHERE kind = ? AND idempotency_key LIKE ? AND id != ?",
            arguments: [OutboxKind.lead.rawValue, "lead:\(id.wire):%", row.rawValue]) ?? 0 > 0
    }

    package func putConflict(_ db: Database, _ record: LeadConflictRecord, owner: UserID?) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO lead_conflicts (lead_id, owner, record) VALUES (?, ?, ?)",
            arguments: [
                record.leadId.wire, owner?.wire, String(decoding: try OutpostJSON.encode(record), as: UTF8.self),
            ])
    }

    package func conflicts(owner: UserID?) throws -> [LeadConflictRecord] {
        try readStatement { db in
            try String.fetchAll(
                db, sql: "SELECT record FROM lead_conflicts WHERE owner IS ? OR ? IS NULL ORDER BY lead_id",
                arguments: [owner?.wire, owner?.wire])
        }.map { try OutpostJSON.decode(LeadConflictRecord.self, from: Data($0.utf8)) }
    }

    /// Ends a conflict: theirs becomes the lead here, or mine is written over their version.
    package func resolve(_ id: LeadID, keepMine: Bool, owner: UserID, now: Date) throws {
        guard
            let record = try readStatement({ db in
                try String.fetchOne(
                    db, sql: "SELECT record FROM lead_conflicts WHERE lead_id = ?", arguments: [id.wire])
            }).map({ try OutpostJSON.decode(LeadConflictRecord.self, from: Data($0.utf8)) })
        else { return }
        var lead = LocalLead(server: record.theirs)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM lead_conflicts WHERE lead_id = ?", arguments: [id.wire])
            try put(db, lead)
        }
        if keepMine {
            lead.content = record.mine
            try write(lead, owner: owner, now: now)
        }
    }

    package func discardConflicts(owner: UserID) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM lead_conflicts WHERE owner = ?", arguments: [owner.wire])
        }
    }

    package func request(of row: OutboxRow) throws -> LeadOutboxRequest {
        try request(of: row, as: LeadOutboxRequest.self)
    }
}

extension OutboxKind {
    /// A lead captured or edited: `PUT /v1/booths/{boothId}/leads/{leadId}`.
    package static let lead = OutboxKind(rawValue: "lead")
}
