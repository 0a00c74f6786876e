import Foundation
import GRDB
import OutpostCore
import OutpostProtocol

/// An outbox row as stored: its plaintext columns, and its request still sealed (unsealing it is
/// where a damaged row shows, so the replayer does it one row at a time and quarantines it).
package struct OutboxRow: Sendable, Hashable {
    package var id: OutboxMachine.EntryID
    /// Nil when the stored column is not an event id: a damaged row, quarantined when its turn comes.
    package var eventId: EventID?
    package var idempotencyKey: String
    package var kind: OutboxKind
    /// The user who made the entry; nil for a row written before entries had owners and not yet
    /// adopted (the next sign-in adopts it).
    package var owner: UserID?
    package var attempts: Int
    package var nextAttemptAt: Date
    package var state: OutboxState
    package var lastError: String?
    package var sealedRequest: Data
}

/// What kind of work an outbox entry carries; each kind has one handler (its route and its
/// answer rules), contributed by the module that writes it.
public struct OutboxKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

}

extension DeviceStore {
    /// Queues one entry of any module's `kind` inside the caller's transaction (the module's own
    /// local write and its entry commit together): its request sealed exactly as it will be
    /// sent, its Idempotency-Key fixed now, owned by the user who made it.
    package func enqueue(
        _ db: Database, kind: OutboxKind, eventId: EventID?, idempotencyKey: String, request: some Encodable,
        owner: UserID, now: Date
    ) throws -> OutboxMachine.EntryID {
        // Demo data never leaves its sandbox, whatever a module asks.
        guard !SandboxOwner.contains(owner) else { throw SandboxNeverSent() }
        // Cached: the outbox's triggers (its counts) made preparing this insert half of the
        // enqueue, a fifth of a confirm's own transaction in the profile.
        try db.cachedStatement(
            sql: """
                INSERT INTO outbox (event_id, idempotency_key, request, created_at, next_attempt_at, kind, owner)
                VALUES (?, ?, ?, ?, 0, ?, ?)
                """
        ).execute(
            arguments: [
                eventId?.wire, idempotencyKey, try sealer.seal(json: request), now.millisecondsSince1970, kind.rawValue,
                owner.wire,
            ])
        return OutboxMachine.EntryID(db.lastInsertedRowID)
    }

    /// The sealed request of a row as its module wrote it; throws when the row cannot be unsealed.
    package func request<T: Decodable>(of row: OutboxRow, as type: T.Type) throws -> T {
        try sealer.open(json: row.sealedRequest, as: type)
    }

    /// Every outbox row, oldest first, without unsealing any request.
    package func outboxRows(state: OutboxState? = nil) throws -> [OutboxRow] {
        try readStatement { db in
            // A cached statement (two forms): the refused entries are read after every write.
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, event_id, idempotency_key, kind, owner, attempts, next_attempt_at, state, last_error,
                            request
                        FROM outbox \(state == nil ? "" : "WHERE state = ?") ORDER BY id
                        """), arguments: StatementArguments(state.map { [$0.rawValue] } ?? [])
            ).map { row in
                OutboxRow(
                    id: OutboxMachine.EntryID(row["id"]),
                    eventId: (row["event_id"] as String?).flatMap(EventID.init(wire:)),
                    idempotencyKey: row["idempotency_key"],
                    kind: OutboxKind(rawValue: row["kind"]),
                    owner: (row["owner"] as String?).flatMap(UserID.init(wire:)),
                    attempts: row["attempts"], nextAttemptAt: Date(millisecondsSince1970: row["next_attempt_at"]),
                    state: OutboxState(rawValue: row["state"]) ?? .quarantined, lastError: row["last_error"],
                    sealedRequest: row["request"])
            }
        }
    }

    /// The outbox as the status line counts it: entries waiting, by owner and kind, and those
    /// set aside. One read of the counts the outbox's triggers keep (``DeviceSchema/v8``), the
    /// same whatever the queue's length, instead of one count over the queue per figure.
    package struct OutboxTally: Sendable, Equatable {
        package struct Group: Sendable, Equatable {
            package var owner: String?
            package var kind: OutboxKind
            package var count: Int
        }
        package var pending: [Group] = []
        package var quarantined = 0

        package init() {}

        /// Entries of `owner` waiting (nil: everyone's).
        package func pendingCount(owner: UserID?) -> Int {
            pending.reduce(0) { owner == nil || $1.owner == owner?.wire ? $0 + $1.count : $0 }
        }

        /// The kinds of `owner`'s entries waiting (nil: everyone's).
        package func pendingKinds(owner: UserID?) -> Set<OutboxKind> {
            Set(pending.filter { owner == nil || $0.owner == owner?.wire }.map(\.kind))
        }
    }

    package func outboxTally() throws -> OutboxTally {
        try readStatement { db in
            var tally = OutboxTally()
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT state, owner, kind, entries FROM outbox_counts
                        WHERE state IN ('pending', 'quarantined') AND entries > 0
                        """))
            while let row = try rows.next() {
                let entries: Int = row["entries"]
                if row["state"] as String == OutboxState.pending.rawValue {
                    let owner: String = row["owner"]
                    tally.pending.append(
                        .init(
                            owner: owner.isEmpty ? nil : owner, kind: OutboxKind(rawValue: row["kind"]), count: entries)
                    )
                } else {
                    tally.quarantined += entries
                }
            }
            return tally
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
    package func pendingKeys(owner: UserID?, kind: OutboxKind) throws -> [String] {
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

    /// True while the entry with this Idempotency-Key waits to be sent (no unsealing).
    package func isPending(idempotencyKey: String) throws -> Bool {
        try readStatement { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT EXISTS (SELECT 1 FROM outbox WHERE idempotency_key = ? AND state = 'pending')"),
                arguments: [idempotencyKey]) ?? false
        }
    }

    /// Entries set aside because they cannot be read.
    package func quarantinedCount() throws -> Int {
        try readStatement { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'quarantined'") ?? 0
        }
    }

    /// Stores the server's answer to an entry, applies it with the module's `apply` (its own
    /// tables), and lets the entry leave the outbox, inside the caller's write transaction `db`
    /// (the replayer stores a batch's answers in one). A final refusal (`rejection`) stays,
    /// marked rejected, for staff to see until they dismiss it.
    package func recordAnswer(
        _ db: Database, _ row: OutboxRow, status: Int, body: Data, rejection: String?, now: Date,
        apply: (Database) throws -> Void = { _ in }
    ) throws {
        // Cached statements: a drain stores a hundred answers a batch.
        try db.cachedStatement(
            sql: """
                INSERT INTO answers (idempotency_key, status, body, received_at, kind) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (idempotency_key) DO UPDATE SET status = excluded.status, body = excluded.body,
                    kind = excluded.kind
                """
        ).execute(arguments: [
            row.idempotencyKey, status, try sealer.seal(body), now.millisecondsSince1970, row.kind.rawValue,
        ])
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
    package func recordAttempt(_ id: OutboxMachine.EntryID, attempts: Int, nextAttemptAt: Date, error: String) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",
                arguments: [attempts, nextAttemptAt.millisecondsSince1970, error, id.rawValue])
        }
    }

    /// Sets a row that cannot be read aside: never sent again, kept on disk, counted.
    package func quarantine(_ id: OutboxMachine.EntryID) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET state = 'quarantined', last_error = 'cannot be read' WHERE id = ?",
                arguments: [id.rawValue])
        }
    }

    /// The simulator's damaged disk: overwrites the sealed request of the newest pending entry of
    /// `kind` with bytes that cannot be unsealed. Returns its Idempotency-Key (nil when no entry
    /// of that kind is pending).
    package func damageNewestPendingEntry(kind: OutboxKind) throws -> String? {
        try queue.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, idempotency_key FROM outbox WHERE state = 'pending' AND kind = ?
                        ORDER BY id DESC LIMIT 1
                        """, arguments: [kind.rawValue])
            else { return nil }
            try db.execute(
                sql: "UPDATE outbox SET request = ? WHERE id = ?",
                arguments: [Data(repeating: 0x5A, count: 64), row["id"] as Int64])
            return row["idempotency_key"]
        }
    }

    /// Deletes a refused entry staff have dismissed.
    package func forgetRejected(_ id: OutboxMachine.EntryID) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE id = ? AND state = 'rejected'", arguments: [id.rawValue])
        }
    }

    /// Gives rows that have no owner (written before entries had owners) to `owner`.
    package func adoptUnownedEntries(by owner: UserID) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE outbox SET owner = ? WHERE owner IS NULL", arguments: [owner.wire])
        }
    }

    /// Sign-out: forgets the events, the answers, the session and the modules' `sessionTables`
    /// (check-in's roster), in one transaction. The outbox entries of `discarding` (the user
    /// signing out, when they chose to discard) are dropped; every other entry, theirs kept or
    /// another user's, stays.
    package func clearForSignOut(discarding: UserID?, sessionTables: [String]) throws {
        try queue.write { db in
            for table in sessionTables { try db.execute(sql: "DELETE FROM \"\(table)\"") }
            try db.execute(
                sql: """
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
    package func unsentEntriesForExport(owner: UserID) throws -> [[String: Any]] {
        try outboxRows().filter { $0.owner == owner }.map { row in
            var entry: [String: Any] = [
                "kind": row.kind.rawValue, "state": row.state.rawValue, "attempts": row.attempts,
                "idempotencyKey": row.idempotencyKey,
            ]
            if let error = row.lastError { entry["lastError"] = error }
            // A damaged entry is exported as what is known of it, with `request: null`.
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
