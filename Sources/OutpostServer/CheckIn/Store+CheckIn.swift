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
    /// A venue mesh entry a door handed in for its author (custody): the check-in is the
    /// author's, under the author's key, with ``meshCustodyHash`` for a hash, and its method is
    /// `mesh` until the author's own request fills it in.
    var viaMesh = false

    /// The method the check-in row and its history keep: the request's, or `mesh`.
    var method: String { viaMesh ? "mesh" : request.method.rawValue }

    /// The hash a custody check-in claims its key with: no request body hashes to it, and a
    /// request under a key claimed with it is the author's own (see ``Store/checkInAnswer``).
    static let meshCustodyHash = Array(SHA256.hash(data: Array("outpost-mesh-custody/1".utf8)))
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
    /// On PostgreSQL a group of entries, each key and each guest once, is decided in a few
    /// set-based statements instead (``CheckInSets``), with the same decisions and writes.
    ///
    /// A batch's entries commit together, one durable commit for all: the device's queue drains
    /// at the speed of the decisions, not of the commits. Each entry still gets its own answer
    /// (a refusal is an answer, not an error); an error rolls the whole batch back and the route
    /// then applies the entries one transaction each.
    func checkIns(
        _ commands: [CheckInCommand], render: @Sendable (CheckInOutcome) throws -> StoredAnswer
    ) async throws -> [CheckInAnswer] {
        let dialect = database.dialect
        let body = { @Sendable (connection: any SQLConnection) async throws -> [CheckInAnswer] in
            let keys = TicketKeyCache(connection)
            if dialect == .postgres, CheckInSets.eligible(commands) {
                return try await CheckInSets.apply(connection, commands, keys: keys, render: render)
            }
            var answers: [CheckInAnswer] = []
            var decided: [(command: CheckInCommand, decision: CheckInDecision, answer: StoredAnswer)] = []
            /// Keys claimed earlier in this transaction (a batch, or a group of requests that may
            /// come from several tenants): their answers are not stored until the settle.
            var claimedHere: [TenantKey: (hash: [UInt8], answer: StoredAnswer)] = [:]
            for command in commands {
                if let earlier = claimedHere[TenantKey(command)] {
                    answers.append(
                        Self.isRetry(stored: earlier.hash, command) ? .replayed(earlier.answer) : .keyReused)
                    continue
                }
                let (claimed, facts) = try await Self.claimAndRead(connection, dialect: dialect, command)
                guard claimed else {
                    answers.append(try await Self.checkInAnswer(connection, command))
                    continue
                }
                let decision = try await Self.decide(connection, command, read: facts, keys: keys)
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

    /// Whether a request under a key already claimed with `stored` is answered with the stored
    /// answer: the same request again, or a custody check-in and its author's own request (in
    /// either order: a door handed in a peer's entry, then the peer came back, or the other way).
    static func isRetry(stored: [UInt8], _ command: CheckInCommand) -> Bool {
        stored == command.requestHash || stored == CheckInCommand.meshCustodyHash
            || command.requestHash == CheckInCommand.meshCustodyHash
    }

    /// The answer stored under a key claimed by an earlier request: a replay when the request is
    /// the same (or one side is a custody check-in, ``isRetry(stored:_:)``), else the key was
    /// reused. The author's own request after a custody check-in takes the key over: its hash
    /// is kept from then on, and the check-in the custody made gets the request's method and
    /// note (the entry carried neither), so nothing the door recorded is lost.
    static func checkInAnswer(_ connection: any SQLConnection, _ command: CheckInCommand) async throws -> CheckInAnswer
    {
        guard
            let stored = try await connection.queryOne(
                "SELECT request_hash, status, body FROM idempotency_keys WHERE tenant_id = ? AND key = ?",
                [.id(command.caller.tenantId), .text(command.idempotencyKey)])
        else { throw StoreError.notFound }
        let hash = try stored.blob("request_hash")
        guard isRetry(stored: hash, command) else { return .keyReused }
        guard let status = try stored.optionalInt("status"), let body = try stored.optionalBlob("body") else {
            throw StoreError.notFound
        }
        if hash == CheckInCommand.meshCustodyHash, !command.viaMesh {
            try await connection.execute(
                "UPDATE idempotency_keys SET request_hash = ? WHERE tenant_id = ? AND key = ?",
                [.blob(command.requestHash), .id(command.caller.tenantId), .text(command.idempotencyKey)])
            let request = command.request
            try await connection.execute(
                """
                UPDATE checkins SET method = ?, note = ?
                WHERE event_id = ? AND guest_id = ? AND device_id = ? AND client_at = ? AND method = 'mesh'
                """,
                [
                    .text(request.method.rawValue), .text(request.note ?? ""), .id(command.eventId),
                    .id(command.guestId), .text(request.deviceId), .date(request.scannedAt),
                ])
        }
        return .replayed(StoredAnswer(status: Int(status), body: body))
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
            .date(request.scannedAt), .text(command.method),
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
    private static func decide(
        _ connection: any SQLConnection, _ command: CheckInCommand, read row: SQLRow, keys: TicketKeyCache
    ) async throws -> CheckInDecision {
        switch try await CheckInPlan.make(command, read: row, keys: keys) {
        case .settled(let decision):
            return decision
        case .insert(let record, let eventId):
            let inserted = try await connection.queryOne(
                InsertCheckInStatement.self, CheckInRow(record, command, eventId: eventId, ord: 0).binds)
            if inserted != nil { return CheckInPlan.checkedIn(record, eventId: eventId) }
            // Another device checked this guest in between our read and our insert (PostgreSQL
            // waited for it to commit): this attempt is a repeat of theirs.
            let winner = try await Self.winner(connection, eventId: eventId, guestId: command.guestId)
            return try await repeated(connection, command, winner, eventId: eventId)
        case .repeatOf(let existing, let eventId):
            return try await repeated(connection, command, existing, eventId: eventId)
        case .reconfirm(let existing, let eventId):
            let history = CheckInEventRow(command, checkInId: existing.id, kind: "reconfirm")
            try await connection.execute(CheckInEventRow.insert, history.binds)
            try await appendNote(connection, command, to: existing)
            return CheckInPlan.reconfirmed(existing, eventId: eventId)
        }
    }

    /// A repeat of an existing check-in: its history gets the attempt.
    private static func repeated(
        _ connection: any SQLConnection, _ command: CheckInCommand, _ existing: CheckInRecord, eventId: EventID
    ) async throws -> CheckInDecision {
        let (decision, history) = CheckInPlan.repeated(command, existing, eventId: eventId)
        try await connection.execute(CheckInEventRow.insert, history.binds)
        return decision
    }

    /// The check-in that won a guest this transaction's insert lost.
    static func winner(
        _ connection: any SQLConnection, eventId: EventID, guestId: GuestID
    ) async throws
        -> CheckInRecord
    {
        guard
            let winner = try await connection.queryOne(
                "SELECT id, at, client_at, by_name, device_id FROM checkins WHERE event_id = ? AND guest_id = ?",
                [.id(eventId), .id(guestId)])
        else { throw StoreError.notFound }
        return CheckInRecord(
            id: try winner.id("id"), guestId: guestId, at: try winner.date("at"),
            clientAt: try winner.date("client_at"), byName: try winner.text("by_name"),
            deviceId: try winner.text("device_id"))
    }

    /// A reconfirmation's note, added to the check-in's.
    static func appendNote(
        _ connection: any SQLConnection, _ command: CheckInCommand, to existing: CheckInRecord
    ) async throws {
        guard let note = command.request.note, !note.isEmpty else { return }
        try await connection.execute(
            """
            UPDATE checkins SET note = CASE WHEN note = '' THEN ? ELSE note || ? END WHERE id = ?
            """,
            [.text(note), .text("\n" + note), .id(existing.id)])
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
