import Foundation
import GRDB
import OutpostCore
import OutpostProtocol

/// An outbox row as stored: its plaintext columns, and its request still sealed (unsealing it is
/// where a damaged row shows, so the replayer does it one row at a time and quarantines it).
struct OutboxRow: Sendable, Hashable {
    var id: OutboxMachine.EntryID
    /// Nil when the stored column is not an event id: a damaged row, quarantined when its turn comes.
    var eventId: EventID?
    var idempotencyKey: String
    var kind: OutboxKind
    /// The user who made the entry; nil for a row written before entries had owners and not yet
    /// adopted (the next sign-in adopts it).
    var owner: UserID?
    var attempts: Int
    var nextAttemptAt: Date
    var state: OutboxEntry.State
    var lastError: String?
    var sealedRequest: Data
}

/// What kind of work an outbox entry carries; each kind has one handler (its route and its
/// answer rules), contributed by the module that writes it.
public struct OutboxKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A check-in from the check-in tab or the kiosk: `POST /v1/events/{id}/checkins`.
    public static let checkIn = OutboxKind(rawValue: "checkin")
}

extension DeviceStore {
    /// Commits a check-in locally: the guest's check-in state and its outbox entry (owned by
    /// `owner`, with its Idempotency-Key fixed now), in one transaction, before anything touches
    /// the network.
    func confirmCheckIn(
        guest: LocalGuest, request: CheckInRequest, byName: String, owner: UserID, now: Date
    ) throws -> OutboxEntry {
        let key = request.idempotencyKey.description
        return try queue.write { db in
            var updated = guest
            if updated.checkIn == nil {
                updated.checkIn = LocalCheckIn(
                    at: request.scannedAt, byName: byName, deviceId: request.deviceId, pending: true)
                try upsert(db, updated)
            }
            let id = try enqueue(
                db, kind: .checkIn, eventId: guest.eventId, idempotencyKey: key, request: request, owner: owner,
                now: now)
            return OutboxEntry(
                id: id.rawValue, eventId: guest.eventId, idempotencyKey: key, request: request, attempts: 0,
                nextAttemptAt: .distantPast, state: .pending, lastError: nil)
        }
    }

    /// Queues one entry of any module's `kind` inside the caller's transaction (the module's own
    /// local write and its entry commit together): its request sealed exactly as it will be
    /// sent, its Idempotency-Key fixed now, owned by the user who made it.
    func enqueue(
        _ db: Database, kind: OutboxKind, eventId: EventID?, idempotencyKey: String, request: some Encodable,
        owner: UserID, now: Date
    ) throws -> OutboxMachine.EntryID {
        // Demo data never leaves its sandbox, whatever a module asks.
        guard !SandboxOwner.contains(owner) else { throw SandboxNeverSent() }
        try db.execute(
            sql: """
                INSERT INTO outbox (event_id, idempotency_key, request, created_at, next_attempt_at, kind, owner)
                VALUES (?, ?, ?, ?, 0, ?, ?)
                """,
            arguments: [
                eventId?.wire, idempotencyKey, try sealer.seal(json: request), now.millisecondsSince1970, kind.rawValue,
                owner.wire,
            ])
        return OutboxMachine.EntryID(db.lastInsertedRowID)
    }

    /// The sealed request of a row as its module wrote it; throws when the row cannot be unsealed.
    func request<T: Decodable>(of row: OutboxRow, as type: T.Type) throws -> T {
        try sealer.open(json: row.sealedRequest, as: type)
    }

    /// Every outbox row, oldest first, without unsealing any request.
    func outboxRows(state: OutboxEntry.State? = nil) throws -> [OutboxRow] {
        try readStatement { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, event_id, idempotency_key, kind, owner, attempts, next_attempt_at, state, last_error, request
                    FROM outbox \(state == nil ? "" : "WHERE state = ?") ORDER BY id
                    """, arguments: StatementArguments(state.map { [$0.rawValue] } ?? [])
            ).map { row in
                OutboxRow(
                    id: OutboxMachine.EntryID(row["id"]),
                    eventId: (row["event_id"] as String?).flatMap(EventID.init(wire:)),
                    idempotencyKey: row["idempotency_key"],
                    kind: OutboxKind(rawValue: row["kind"]),
                    owner: (row["owner"] as String?).flatMap(UserID.init(wire:)),
                    attempts: row["attempts"], nextAttemptAt: Date(millisecondsSince1970: row["next_attempt_at"]),
                    state: OutboxEntry.State(rawValue: row["state"]) ?? .quarantined, lastError: row["last_error"],
                    sealedRequest: row["request"])
            }
        }
    }

    /// The check-in request of a row; throws when the row cannot be unsealed (damaged).
    func checkInRequest(of row: OutboxRow) throws -> CheckInRequest {
        try request(of: row, as: CheckInRequest.self)
    }

    /// The readable check-in entries in `state`, oldest first, of `owner` (nil: every owner).
    /// A row that cannot be unsealed is left out here; the replayer quarantines it.
    func outbox(state: OutboxEntry.State = .pending, owner: UserID?) throws -> [OutboxEntry] {
        // Filtered in SQL (by the state index): every screen reload asks for the refused
        // entries, and reading the whole queue made each action cost more the longer it grew.
        try outboxRows(state: state).filter { owner == nil || $0.owner == owner }.compactMap { row in
            guard row.kind == .checkIn, let eventId = row.eventId, let request = try? checkInRequest(of: row) else {
                return nil
            }
            return OutboxEntry(
                id: row.id.rawValue, eventId: eventId, idempotencyKey: row.idempotencyKey, request: request,
                attempts: row.attempts, nextAttemptAt: row.nextAttemptAt, state: row.state, lastError: row.lastError)
        }
    }

    /// Entries waiting to be sent: of `owner`, or of everyone when `owner` is nil.
    public func pendingCount(owner: UserID?) throws -> Int {
        try readStatement { db in
            if let owner {
                return try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending' AND owner = ?",
                    arguments: [owner.wire])
                    ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") ?? 0
        }
    }

    /// The Idempotency-Keys of the entries of `kind` waiting to be sent, of `owner` (nil: everyone's).
    func pendingKeys(owner: UserID?, kind: OutboxKind) throws -> [String] {
        try readStatement { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT idempotency_key FROM outbox
                    WHERE state = 'pending' AND kind = ? AND (? IS NULL OR owner = ?)
                    """,
                arguments: [kind.rawValue, owner?.wire, owner?.wire])
        }
    }

    /// The kinds of the entries waiting to be sent, of `owner` (nil: everyone's).
    func pendingKinds(owner: UserID?) throws -> Set<OutboxKind> {
        try readStatement { db in
            let kinds =
                if let owner {
                    try String.fetchAll(
                        db, sql: "SELECT DISTINCT kind FROM outbox WHERE state = 'pending' AND owner = ?",
                        arguments: [owner.wire])
                } else {
                    try String.fetchAll(db, sql: "SELECT DISTINCT kind FROM outbox WHERE state = 'pending'")
                }
            return Set(kinds.map(OutboxKind.init(rawValue:)))
        }
    }

    /// Check-ins of `eventId` this device still holds, of every user who signed in on it (what
    /// it reports to the organizer's door dashboard).
    func pendingCheckIns(eventId: EventID) throws -> Int {
        try readStatement { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending' AND kind = ? AND event_id = ?",
                arguments: [OutboxKind.checkIn.rawValue, eventId.wire]) ?? 0
        }
    }

    /// True while the entry with this Idempotency-Key waits to be sent (no unsealing).
    func isPending(idempotencyKey: String) throws -> Bool {
        try readStatement { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM outbox WHERE idempotency_key = ? AND state = 'pending')",
                arguments: [idempotencyKey]) ?? false
        }
    }

    /// Entries set aside because they cannot be read.
    func quarantinedCount() throws -> Int {
        try readStatement { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'quarantined'") ?? 0
        }
    }

    /// Stores the server's answer to an entry, applies it with the module's `apply` (its own
    /// tables), and lets the entry leave the outbox, inside the caller's write transaction `db`
    /// (the replayer stores a batch's answers in one). A final refusal (`rejection`) stays,
    /// marked rejected, for staff to see until they dismiss it.
    func recordAnswer(
        _ db: Database, _ row: OutboxRow, status: Int, body: Data, rejection: String?, now: Date,
        apply: (Database) throws -> Void = { _ in }
    ) throws {
        // Cached statements: a drain stores a hundred answers a batch.
        try db.cachedStatement(
            sql: """
                INSERT INTO answers (idempotency_key, status, body, received_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (idempotency_key) DO UPDATE SET status = excluded.status, body = excluded.body
                """
        ).execute(arguments: [row.idempotencyKey, status, try sealer.seal(body), now.millisecondsSince1970])
        try apply(db)
        if let rejection {
            try db.execute(
                sql: "UPDATE outbox SET state = 'rejected', last_error = ?, attempts = attempts + 1 WHERE id = ?",
                arguments: [rejection, row.id.rawValue])
        } else {
            try db.cachedStatement(sql: "DELETE FROM outbox WHERE id = ?").execute(arguments: [row.id.rawValue])
        }
    }

    /// Records a failed attempt and when to try again.
    func recordAttempt(_ id: OutboxMachine.EntryID, attempts: Int, nextAttemptAt: Date, error: String) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",
                arguments: [attempts, nextAttemptAt.millisecondsSince1970, error, id.rawValue])
        }
    }

    /// Sets a row that cannot be read aside: never sent again, kept on disk, counted.
    func quarantine(_ id: OutboxMachine.EntryID) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET state = 'quarantined', last_error = 'cannot be read' WHERE id = ?",
                arguments: [id.rawValue])
        }
    }

    /// The simulator's damaged disk: overwrites the newest pending entry's sealed request with
    /// bytes that cannot be unsealed. Returns its Idempotency-Key (nil when nothing is pending).
    func damageNewestPendingEntry() throws -> String? {
        try queue.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT id, idempotency_key FROM outbox WHERE state = 'pending' ORDER BY id DESC LIMIT 1")
            else { return nil }
            try db.execute(
                sql: "UPDATE outbox SET request = ? WHERE id = ?",
                arguments: [Data(repeating: 0x5A, count: 64), row["id"] as Int64])
            return row["idempotency_key"]
        }
    }

    /// Deletes a refused entry staff have dismissed.
    func forgetRejected(_ id: OutboxMachine.EntryID) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE id = ? AND state = 'rejected'", arguments: [id.rawValue])
        }
    }

    /// Gives rows that have no owner (written before entries had owners) to `owner`.
    func adoptUnownedEntries(by owner: UserID) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE outbox SET owner = ? WHERE owner IS NULL", arguments: [owner.wire])
        }
    }

    /// Sign-out: forgets the roster, the events, the answers and the session. The outbox
    /// entries of `discarding` (the user signing out, when they chose to discard) are dropped;
    /// every other entry, theirs kept or another user's, stays.
    func clearForSignOut(discarding: UserID?) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    DELETE FROM guests; DELETE FROM access_types; DELETE FROM event_keys; DELETE FROM sync_state;
                    DELETE FROM events; DELETE FROM answers;
                    DELETE FROM meta WHERE key NOT IN ('device_id', 'lock');
                    """)
            if let discarding {
                try db.execute(sql: "DELETE FROM outbox WHERE owner = ?", arguments: [discarding.wire])
            }
        }
    }
}

extension DeviceStore {
    /// The owner's outbox entries not yet answered (pending, refused or set aside), oldest first,
    /// each with its request as it would be sent: what a privacy export carries of the work
    /// this device holds for them. A row that cannot be unsealed is named, without its request.
    func unsentEntriesForExport(owner: UserID) throws -> [[String: Any]] {
        try outboxRows().filter { $0.owner == owner }.map { row in
            var entry: [String: Any] = [
                "kind": row.kind.rawValue, "state": row.state.rawValue, "attempts": row.attempts,
                "idempotencyKey": row.idempotencyKey,
            ]
            if let error = row.lastError { entry["lastError"] = error }
            if let plain = try? sealer.open(row.sealedRequest),
                let request = try? JSONSerialization.jsonObject(with: plain)
            {
                entry["request"] = request
            } else {
                entry["request"] = NSNull()
                entry["note"] = "This entry could not be read (damaged)."
            }
            return entry
        }
    }
}
