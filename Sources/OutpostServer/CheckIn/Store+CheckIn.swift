import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// One check-in request, validated and ready for the database.
struct CheckInCommand: Sendable {
    var caller: Caller
    var eventId: EventID
    var guestId: GuestID
    var idempotencyKey: String
    /// SHA-256 of the request's canonical form, to tell a retry from a reused key.
    var requestHash: [UInt8]
    var request: CheckInRequest
    var now: Date
    var dedupeWindow: TimeInterval
}

/// What the database decided.
enum CheckInOutcome: Sendable, Equatable {
    case checkedIn(CheckInRecord)
    case alreadyCheckedIn(CheckInRecord)
    case reconfirmed(CheckInRecord)
    case notAdmissible
    case notFound
    /// The event is not one the caller can see (another tenant's, not on the caller's staff, or
    /// none): answered exactly like `notFound`, recorded under the caller's tenant only.
    case eventNotVisible
}

/// An HTTP answer exactly as it was first sent.
struct StoredAnswer: Sendable, Equatable {
    var status: Int
    var body: [UInt8]
}

/// How a check-in request ended.
enum CheckInAnswer: Sendable {
    /// Decided now; the answer is stored under the key.
    case fresh(StoredAnswer, CheckInOutcome)
    /// A retry: the stored answer of the first request with this key.
    case replayed(StoredAnswer)
    /// The key was used before with a different request.
    case keyReused
}

/// What the decision phase of a check-in settled, before the event's lock is taken.
struct CheckInDecision: Sendable {
    var outcome: CheckInOutcome
    /// The event the entry belongs to (nil: not visible to the caller; logged under sequence 0).
    var eventId: EventID?
    var auditKind: AuditKind
    /// A new check-in: the guest's row takes the new sequence number (the roster delta carries it).
    var bumpsGuest: Bool
}

extension Store {
    /// Applies check-ins at most once per Idempotency-Key, in order, in one transaction, deciding
    /// first and locking last: each key is claimed first (a concurrent request with the
    /// same key waits on it, then replays the stored answer); the event, the guest and the ticket
    /// are read and the outcome decided without the event's lock; a new check-in row is inserted
    /// under the unique (event, guest) constraint (a lost race waits for the winner and becomes
    /// "already checked in"). Only when every entry is decided is the event's change counter
    /// taken, and each entry's sequence number, guest row, audit entry and stored answer follow
    /// (one statement per entry on PostgreSQL). The counter's row lock is held from there to
    /// COMMIT, so sequence numbers follow commit order (the gap-free, ordered change feed), and
    /// nothing waits on another row while holding it (no deadlock with a single check-in).
    ///
    /// A batch's entries commit together, one durable commit for all: the device's queue drains
    /// at the speed of the decisions, not of the commits. Each entry still gets its own answer
    /// (a refusal is an answer, not an error); an error rolls the whole batch back and the route
    /// then applies the entries one transaction each.
    func checkIns(
        _ commands: [CheckInCommand], render: @Sendable (CheckInOutcome) throws -> StoredAnswer
    ) async throws -> [CheckInAnswer] {
        let dialect = database.dialect
        let body = { @Sendable [self] (connection: any SQLConnection) async throws -> [CheckInAnswer] in
            var answers: [CheckInAnswer] = []
            var decided: [(command: CheckInCommand, decision: CheckInDecision, answer: StoredAnswer)] = []
            /// Keys claimed earlier in this transaction (a batch, or a group of requests that may
            /// come from several tenants): their answers are not stored until the settle.
            var claimedHere: [TenantKey: (hash: [UInt8], answer: StoredAnswer)] = [:]
            for command in commands {
                if let earlier = claimedHere[TenantKey(command)] {
                    answers.append(earlier.hash == command.requestHash ? .replayed(earlier.answer) : .keyReused)
                    continue
                }
                let (claimed, facts) = try await Self.claimAndRead(connection, dialect: dialect, command)
                guard claimed else {
                    answers.append(try await Self.storedAnswer(connection, command))
                    continue
                }
                let decision = try await decide(connection, command, read: facts)
                let answer = try render(decision.outcome)
                claimedHere[TenantKey(command)] = (command.requestHash, answer)
                decided.append((command, decision, answer))
                answers.append(.fresh(answer, decision.outcome))
            }
            for entry in decided {
                try await Self.settle(connection, dialect: dialect, entry.command, entry.decision, answer: entry.answer)
            }
            return answers
        }
        // A batch's many statements run in place on SQLite (``SQLDatabase/bulkTransaction(_:)``).
        return commands.count > 1 ? try await database.bulkTransaction(body) : try await database.transaction(body)
    }

    /// An Idempotency-Key as the store keeps it: per tenant.
    private struct TenantKey: Hashable {
        var tenantId: TenantID
        var key: String
        init(_ command: CheckInCommand) { (tenantId, key) = (command.caller.tenantId, command.idempotencyKey) }
    }

    /// One check-in: a batch of one.
    func checkIn(
        _ command: CheckInCommand, render: @Sendable (CheckInOutcome) throws -> StoredAnswer
    ) async throws -> CheckInAnswer {
        guard let answer = try await checkIns([command], render: render).first else { throw StoreError.notFound }
        return answer
    }

    /// The answer stored under a key claimed by an earlier request: a replay when the request is
    /// the same, else the key was reused.
    private static func storedAnswer(
        _ connection: any SQLConnection, _ command: CheckInCommand
    ) async throws
        -> CheckInAnswer
    {
        try await earlierAnswer(
            connection, tenantId: command.caller.tenantId, key: command.idempotencyKey, hash: command.requestHash
        ).map(CheckInAnswer.replayed) ?? .keyReused
    }

    /// What one statement reads for the decision: the event if the caller may work it, the guest
    /// with their check-in, and the caller's name. One row always (the event's columns null when
    /// it is not visible).
    static let decisionRead = """
        SELECT \(eventColumns), g.status AS guest_status, c.id AS checkin_id, c.at AS checkin_at,
            c.client_at AS checkin_client_at, c.by_name AS checkin_by, c.device_id AS checkin_device,
            (SELECT u.name FROM users u WHERE u.id = ?) AS caller_name
        FROM (SELECT 1 AS one) one
        LEFT JOIN events e ON e.id = ? AND \(visibleToCaller)
        LEFT JOIN guests g ON g.event_id = e.id AND g.id = ?
        LEFT JOIN checkins c ON c.event_id = e.id AND c.guest_id = g.id
        """

    /// Claims the Idempotency-Key and reads what the decision needs: one round trip on
    /// PostgreSQL (the claim is a data-modifying CTE of the read), two on SQLite. Claimed is false
    /// when the key was already there (after waiting for a concurrent holder to commit).
    static func claimAndRead(
        _ connection: any SQLConnection, dialect: SQLDialect, _ command: CheckInCommand
    ) async throws -> (claimed: Bool, row: SQLRow) {
        let claim: [SQLValue] = [
            .id(command.caller.tenantId), .text(command.idempotencyKey), .blob(command.requestHash),
            .date(command.now),
        ]
        let read: [SQLValue] =
            [.id(command.caller.userId), .id(command.eventId)] + visibilityBinds(command.caller)
            + [.id(command.guestId)]
        switch dialect {
        case .postgres:
            guard let row = try await connection.queryOne(ClaimAndReadStatement.self, claim + read) else {
                throw StoreError.notFound
            }
            return (try row.int("claimed") == 1, row)
        case .sqlite:
            let claimed = try await connection.queryOne(ClaimStatement.self, claim)
            guard let row = try await connection.queryOne(DecisionReadStatement.self, read) else {
                throw StoreError.notFound
            }
            return (claimed != nil, row)
        }
    }

    /// The last step, under the event's lock: the sequence number, the guest's row (a new
    /// check-in), the audit entry and the stored answer. One round trip on PostgreSQL (data-
    /// modifying CTEs); in process on SQLite, whose transaction holds the whole database anyway.
    static func settle(
        _ connection: any SQLConnection, dialect: SQLDialect, _ command: CheckInCommand, _ decision: CheckInDecision,
        answer: StoredAnswer
    ) async throws {
        let request = command.request
        let audit: [SQLValue] = [
            .id(command.caller.tenantId), .id(command.eventId), .text(decision.auditKind.rawValue),
            .id(command.guestId), .text(request.deviceId), .id(command.caller.userId), .date(command.now),
            .date(request.scannedAt), .text(request.method.rawValue),
        ]
        let key: [SQLValue] = [
            .int(Int64(answer.status)), .blob(answer.body), .id(command.caller.tenantId),
            .text(command.idempotencyKey),
        ]
        guard let eventId = decision.eventId else {
            // Not an entry of any event the caller can see: sequence 0, no event lock.
            try await connection.execute(
                """
                INSERT INTO audit_log (tenant_id, event_id, seq, kind, guest_id, device_id, user_id, at, client_at, method)
                VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?)
                """, audit)
            _ = try await connection.query(StoreAnswerStatement.self, key)
            return
        }
        switch dialect {
        case .postgres:
            let rows = try await connection.query(
                SettleStatement.self,
                [.id(eventId), .id(command.guestId), .id(eventId), .bool(decision.bumpsGuest)] + audit + key)
            guard let row = rows.first, try row.optionalInt("seq") != nil, try row.int("audited") == 1,
                try row.int("kept") == 1
            else { throw StoreError.notFound }
        case .sqlite:
            guard let seq = try await connection.queryOne(NextSequenceStatement.self, [.id(eventId)])?.int("seq")
            else { throw StoreError.notFound }
            if decision.bumpsGuest {
                _ = try await connection.query(
                    GuestSequenceStatement.self, [.int(seq), .id(command.guestId), .id(eventId)])
            }
            var withSeq = audit
            withSeq.insert(.int(seq), at: 2)
            _ = try await connection.query(AuditStatement.self, withSeq)
            _ = try await connection.query(StoreAnswerStatement.self, key)
        }
    }

    /// Reads and decides without the event's lock; writes only rows the unique constraints
    /// guard (a new check-in) or that any order keeps (the check-in's event history).
    private func decide(
        _ connection: any SQLConnection, _ command: CheckInCommand, read row: SQLRow
    ) async throws -> CheckInDecision {
        let request = command.request
        guard try row.optionalText("id") != nil else {
            return CheckInDecision(
                outcome: .eventNotVisible, eventId: nil, auditKind: .rejectedNotFound, bumpsGuest: false)
        }
        let event = try Self.event(from: row)
        func decided(_ outcome: CheckInOutcome, _ kind: AuditKind, bumpsGuest: Bool = false) -> CheckInDecision {
            CheckInDecision(outcome: outcome, eventId: event.id, auditKind: kind, bumpsGuest: bumpsGuest)
        }
        var facts: GuestFacts?
        var existing: CheckInRecord?
        if let status = try row.optionalText("guest_status") {
            if let checkInId = try row.optionalID("checkin_id", as: CheckInID.self) {
                existing = CheckInRecord(
                    id: checkInId, guestId: command.guestId, at: try row.date("checkin_at"),
                    clientAt: try row.date("checkin_client_at"), byName: try row.text("checkin_by"),
                    deviceId: try row.text("checkin_device"))
            }
            guard let parsed = GuestStatus(rawValue: status) else { throw StoreError.notFound }
            facts = GuestFacts(eventId: event.id.uuid, status: parsed, checkedInAt: existing?.at)
        }
        if let ticket = request.ticket, facts != nil {
            let keys = try await Self.eventKeys(connection, eventId: event.id, now: command.now)
            var publicKeys: [TicketKeyID: Curve25519.Signing.PublicKey] = [:]
            for key in keys {
                publicKeys[key.keyID] = try? Curve25519.Signing.PublicKey(rawRepresentation: key.publicKey)
            }
            // The scanner's framing (a suffix, a prefix, case) is not part of the ticket (``ScannedText``).
            let payload = try? TicketCodec.verify(
                ScannedText.normalized(ticket), tenantId: event.tenantId.uuid, eventId: event.id.uuid, keys: publicKeys)
            if payload?.guestId != command.guestId.uuid { facts = nil }
        }
        /// A repeat of an existing check-in: its history gets the attempt.
        func repeated(_ existing: CheckInRecord) async throws -> CheckInDecision {
            let kind = CheckInRules.repeatKind(
                firstAt: existing.at, now: command.now, dedupeWindow: command.dedupeWindow)
            try await appendCheckInEvent(connection, command, checkInId: existing.id, kind: kind.rawValue)
            return decided(
                .alreadyCheckedIn(existing), request.method == .kiosk ? .kioskAlreadyCheckedIn : .alreadyCheckedIn)
        }
        switch CheckInRules.decide(guest: facts, eventId: event.id.uuid, reconfirm: request.reconfirm ?? false) {
        case .notFound:
            return decided(.notFound, .rejectedNotFound)
        case .notAdmissible:
            return decided(.notAdmissible, .rejectedNotAdmissible)
        case .checkIn:
            let record = CheckInRecord(
                id: .random(), guestId: command.guestId, at: command.now,
                clientAt: request.scannedAt, byName: try row.optionalText("caller_name") ?? "",
                deviceId: request.deviceId)
            let inserted = try await connection.queryOne(
                InsertCheckInStatement.self,
                [
                    .id(record.id), .id(event.id), .id(command.guestId), .date(record.at), .date(record.clientAt),
                    .text(record.deviceId), .id(command.caller.userId), .text(record.byName),
                    .text(request.method.rawValue), .text(request.note ?? ""),
                ])
            if inserted != nil { return decided(.checkedIn(record), .checkedIn, bumpsGuest: true) }
            // Another device checked this guest in between our read and our insert (PostgreSQL
            // waited for it to commit): this attempt is a repeat of theirs.
            guard
                let winner = try await connection.queryOne(
                    "SELECT id, at, client_at, by_name, device_id FROM checkins WHERE event_id = ? AND guest_id = ?",
                    [.id(event.id), .id(command.guestId)])
            else { throw StoreError.notFound }
            return try await repeated(
                CheckInRecord(
                    id: try winner.id("id"), guestId: command.guestId, at: try winner.date("at"),
                    clientAt: try winner.date("client_at"), byName: try winner.text("by_name"),
                    deviceId: try winner.text("device_id")))
        case .alreadyCheckedIn:
            guard let existing else { throw StoreError.notFound }
            return try await repeated(existing)
        case .reconfirm:
            guard let existing else { throw StoreError.notFound }
            try await appendCheckInEvent(connection, command, checkInId: existing.id, kind: "reconfirm")
            if let note = request.note, !note.isEmpty {
                try await connection.execute(
                    """
                    UPDATE checkins SET note = CASE WHEN note = '' THEN ? ELSE note || ? END WHERE id = ?
                    """,
                    [.text(note), .text("\n" + note), .id(existing.id)])
            }
            return decided(.reconfirmed(existing), .reconfirmed)
        }
    }

    private func appendCheckInEvent(
        _ connection: any SQLConnection, _ command: CheckInCommand, checkInId: CheckInID, kind: String
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO checkin_events (id, checkin_id, event_id, guest_id, kind, at, client_at, device_id, user_id, method, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .uuid(UUID()), .id(checkInId), .id(command.eventId), .id(command.guestId), .text(kind),
                .date(command.now), .date(command.request.scannedAt), .text(command.request.deviceId),
                .id(command.caller.userId), .text(command.request.method.rawValue),
                .optionalText(command.request.note),
            ])
    }

    /// Check-in rows and check-in event rows of a guest (for tests and diagnostics).
    public func checkInCounts(eventId: EventID, guestId: GuestID) async throws -> (checkIns: Int, events: Int) {
        try await database.read { connection in
            let rows = try await connection.queryOne(
                """
                SELECT (SELECT COUNT(*) FROM checkins WHERE event_id = ? AND guest_id = ?) AS checkins,
                       (SELECT COUNT(*) FROM checkin_events WHERE event_id = ? AND guest_id = ?) AS events
                """,
                [.id(eventId), .id(guestId), .id(eventId), .id(guestId)])
            return (Int(try rows?.int("checkins") ?? 0), Int(try rows?.int("events") ?? 0))
        }
    }
}

// The statements of every check-in, compiled once per connection (``PreparedSQL``).

/// PostgreSQL: claims the Idempotency-Key and reads the decision's facts in one round trip.
private enum ClaimAndReadStatement: PreparedSQL {
    static let sql = """
        WITH claim AS (
            INSERT INTO idempotency_keys (tenant_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING RETURNING key)
        SELECT (SELECT COUNT(*) FROM claim) AS claimed, d.* FROM (\(Store.decisionRead)) d
        """
    static let parameters = ClaimStatement.parameters + DecisionReadStatement.parameters
}

/// SQLite: the claim on its own.
private enum ClaimStatement: PreparedSQL {
    static let sql = """
        INSERT INTO idempotency_keys (tenant_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)
        ON CONFLICT DO NOTHING RETURNING key
        """
    static let parameters: [SQLValue.Kind] = [.text, .text, .blob, .int]
}

/// SQLite: the decision's facts on their own (the caller, the event as visible, the guest).
private enum DecisionReadStatement: PreparedSQL {
    static let sql = Store.decisionRead
    static let parameters: [SQLValue.Kind] = [.text, .text, .text, .text, .text, .text]
}

/// A new check-in row, or nothing when another request won the guest.
private enum InsertCheckInStatement: PreparedSQL {
    static let sql = """
        INSERT INTO checkins (id, event_id, guest_id, at, client_at, device_id, user_id, by_name, method, note)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
        """
    static let parameters: [SQLValue.Kind] = [.text, .text, .text, .int, .int, .text, .text, .text, .text, .text]
}

/// PostgreSQL: the sequence number, the guest's row, the audit entry and the stored answer in one
/// round trip under the event's lock.
private enum SettleStatement: PreparedSQL {
    static let sql = """
        WITH s AS (UPDATE events SET seq = seq + 1 WHERE id = ? RETURNING seq),
        g AS (
            UPDATE guests SET seq = (SELECT seq FROM s) WHERE id = ? AND event_id = ? AND ? = 1 RETURNING id),
        a AS (
            INSERT INTO audit_log
                (tenant_id, event_id, seq, kind, guest_id, device_id, user_id, at, client_at, method)
            SELECT ?, ?, s.seq, ?, ?, ?, ?, ?, ?, ? FROM s RETURNING id),
        k AS (
            UPDATE idempotency_keys SET status = ?, body = ? WHERE tenant_id = ? AND key = ? RETURNING key)
        SELECT (SELECT seq FROM s) AS seq, (SELECT COUNT(*) FROM a) AS audited, (SELECT COUNT(*) FROM k) AS kept
        """
    static let parameters: [SQLValue.Kind] =
        [.text, .text, .text, .int] + [.text, .text, .text, .text, .text, .text, .int, .int, .text]
        + StoreAnswerStatement.parameters
}

/// SQLite: the event's next sequence number.
private enum NextSequenceStatement: PreparedSQL {
    static let sql = "UPDATE events SET seq = seq + 1 WHERE id = ? RETURNING seq"
    static let parameters: [SQLValue.Kind] = [.text]
}

/// SQLite: the checked-in guest's row takes the sequence number.
private enum GuestSequenceStatement: PreparedSQL {
    static let sql = "UPDATE guests SET seq = ? WHERE id = ? AND event_id = ?"
    static let parameters: [SQLValue.Kind] = [.int, .text, .text]
}

/// SQLite: the audit entry.
private enum AuditStatement: PreparedSQL {
    static let sql = """
        INSERT INTO audit_log (tenant_id, event_id, seq, kind, guest_id, device_id, user_id, at, client_at, method)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let parameters: [SQLValue.Kind] = [.text, .text, .int, .text, .text, .text, .text, .int, .int, .text]
}

/// The answer kept under the Idempotency-Key.
private enum StoreAnswerStatement: PreparedSQL {
    static let sql = "UPDATE idempotency_keys SET status = ?, body = ? WHERE tenant_id = ? AND key = ?"
    static let parameters: [SQLValue.Kind] = [.int, .blob, .text, .text]
}
