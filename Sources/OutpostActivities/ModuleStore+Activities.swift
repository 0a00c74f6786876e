import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The activities module's tables: contacts (their non-sensitive fields only, sealed), the
/// mentor's activities (sealed) and unresolved conflicts (sealed). Sensitive contact fields are
/// never written here.
extension ModuleStore where Owner == ActivitiesModule {
    package static var activitiesMigrations: [DeviceMigration] {
        [
            DeviceMigration("v1 contacts, activities, conflicts") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE mentor_contacts (id TEXT PRIMARY KEY, sealed BLOB NOT NULL);
                        CREATE TABLE mentor_activities (id TEXT PRIMARY KEY, sealed BLOB NOT NULL);
                        CREATE TABLE mentor_conflicts (activity_id TEXT PRIMARY KEY, sealed BLOB NOT NULL);
                        """)
            },
            // An unresolved conflict is the mentor's pending work: it is kept
            // through a sign-out, under its owner, until they resolve or discard it. Rows from before
            // have no owner and belong to whoever signs in next.
            DeviceMigration("v2 conflicts have owners") { db, _ in
                try db.execute(sql: "ALTER TABLE mentor_conflicts ADD COLUMN owner TEXT")
            },
        ]
    }

    // MARK: Contacts

    /// Replaces the cached contacts with the server's list (what the mentor may see now).
    package func replaceContacts(_ contacts: [Contact]) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM mentor_contacts")
            for contact in contacts {
                try db.execute(
                    sql: "INSERT INTO mentor_contacts (id, sealed) VALUES (?, ?)",
                    arguments: [contact.id.wire, try sealer.seal(json: contact)])
            }
        }
    }

    package func contacts() throws -> [Contact] {
        let sealer = sealer
        return try readStatement { db in
            try Data.fetchAll(db, sql: "SELECT sealed FROM mentor_contacts").map {
                try sealer.open(json: $0, as: Contact.self)
            }
        }.sorted { ($0.name, $0.id.wire) < ($1.name, $1.id.wire) }
    }

    // MARK: Activities

    package func activities() throws -> [LocalActivity] {
        let sealer = sealer
        return try readStatement { db in
            try Data.fetchAll(db, sql: "SELECT sealed FROM mentor_activities").map {
                try sealer.open(json: $0, as: LocalActivity.self)
            }
        }
    }

    package func activity(_ db: Database, _ id: ActivityID) throws -> LocalActivity? {
        try Data.fetchOne(db, sql: "SELECT sealed FROM mentor_activities WHERE id = ?", arguments: [id.wire]).map {
            try sealer.open(json: $0, as: LocalActivity.self)
        }
    }

    package func activity(_ id: ActivityID) throws -> LocalActivity? {
        try readStatement { db in try activity(db, id) }
    }

    package func putActivity(_ db: Database, _ activity: LocalActivity) throws {
        try db.execute(
            sql: """
                INSERT INTO mentor_activities (id, sealed) VALUES (?, ?)
                ON CONFLICT (id) DO UPDATE SET sealed = excluded.sealed
                """, arguments: [activity.id.wire, try sealer.seal(json: activity)])
    }

    package func removeActivity(_ db: Database, _ id: ActivityID) throws {
        try db.execute(sql: "DELETE FROM mentor_activities WHERE id = ?", arguments: [id.wire])
    }

    /// Writes the mentor's change locally and queues its outbox entry, in one transaction.
    package func saveActivity(
        _ activity: LocalActivity, request: ActivityOutboxRequest, owner: UserID, now: Date
    ) throws {
        try queue.write { db in
            try putActivity(db, activity)
            _ = try enqueue(
                db, kind: .activity, eventId: nil, idempotencyKey: request.idempotencyKey(now: now), request: request,
                owner: owner, now: now)
        }
    }

    /// The ids of activities with entries still in the outbox (pending or refused).
    package func activitiesWithQueuedWrites() throws -> Set<ActivityID> {
        try readStatement { db in try queuedActivityIds(db) }
    }

    package func queuedActivityIds(_ db: Database) throws -> Set<ActivityID> {
        let keys = try String.fetchAll(
            db, sql: "SELECT idempotency_key FROM outbox WHERE kind = ? AND state = 'pending'",
            arguments: [OutboxKind.activity.rawValue])
        return Set(
            keys.compactMap { key in
                let parts = key.split(separator: ":")
                return parts.count > 1 ? ActivityID(wire: String(parts[1])) : nil
            })
    }

    /// True when writes of activity `id` other than entry `row` still wait in the outbox.
    package func hasOtherQueuedWrites(
        _ db: Database, _ id: ActivityID, excluding row: OutboxMachine.EntryID
    ) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM outbox WHERE kind = ? AND state = 'pending' AND id <> ?
                    AND idempotency_key LIKE ?)
                """,
            arguments: [OutboxKind.activity.rawValue, row.rawValue, ActivityOutboxRequest.keyPrefix(id) + "%"]) ?? false
    }

    /// Applies the server's list: every activity without queued writes or an open conflict takes
    /// the server's version; deleted ones and ones the server no longer lists go (unless queued).
    package func applyServerActivities(_ list: [Activity]) throws {
        try queue.write { db in
            let queued = try queuedActivityIds(db)
            let conflicted = Set(
                try String.fetchAll(db, sql: "SELECT activity_id FROM mentor_conflicts").compactMap(
                    ActivityID.init(wire:)))
            let listed = Set(list.map(\.id))
            for activity in list where !queued.contains(activity.id) && !conflicted.contains(activity.id) {
                if activity.deleted {
                    try removeActivity(db, activity.id)
                } else {
                    try putActivity(db, LocalActivity(server: activity))
                }
            }
            for id in try String.fetchAll(db, sql: "SELECT id FROM mentor_activities").compactMap(
                ActivityID.init(wire:))
            where !listed.contains(id) && !queued.contains(id) && !conflicted.contains(id) {
                // Never on the server and nothing queued: a refused create the mentor dismissed.
                if let local = try activity(db, id), local.version > 0 { try removeActivity(db, id) }
            }
        }
    }

    // MARK: Conflicts

    package func putConflict(_ db: Database, _ conflict: ActivityConflictRecord, owner: UserID?) throws {
        try db.execute(
            sql: """
                INSERT INTO mentor_conflicts (activity_id, sealed, owner) VALUES (?, ?, ?)
                ON CONFLICT (activity_id) DO UPDATE SET sealed = excluded.sealed, owner = excluded.owner
                """, arguments: [conflict.activityId.wire, try sealer.seal(json: conflict), owner?.wire])
    }

    /// The unresolved conflicts of `owner` (and any from before conflicts had owners).
    package func conflicts(owner: UserID?) throws -> [ActivityConflictRecord] {
        let sealer = sealer
        return try readStatement { db in
            try Data.fetchAll(
                db, sql: "SELECT sealed FROM mentor_conflicts WHERE owner = ? OR owner IS NULL ORDER BY activity_id",
                arguments: [owner?.wire]
            ).map { try sealer.open(json: $0, as: ActivityConflictRecord.self) }
        }
    }

    /// Drops the unresolved conflicts of `owner` (a sign-out that discards, an erased account).
    package func discardConflicts(owner: UserID) throws {
        try queue.write { db in
            try db.execute(
                sql: "DELETE FROM mentor_conflicts WHERE owner = ? OR owner IS NULL", arguments: [owner.wire])
        }
    }

    /// Resolves a conflict: the local activity becomes `local` (nil: removed) and, when the
    /// mentor's version wins, its write is queued on the server's version; in one transaction.
    package func resolveConflict(
        _ id: ActivityID, local: LocalActivity?, request: ActivityOutboxRequest?, owner: UserID, now: Date
    ) throws {
        try queue.write { db in
            try db.execute(
                sql: "DELETE FROM mentor_conflicts WHERE activity_id = ? AND (owner = ? OR owner IS NULL)",
                arguments: [id.wire, owner.wire])
            if let local { try putActivity(db, local) } else { try removeActivity(db, id) }
            if let request {
                _ = try enqueue(
                    db, kind: .activity, eventId: nil, idempotencyKey: request.idempotencyKey(now: now),
                    request: request, owner: owner, now: now)
            }
        }
    }

    /// The activity entries the server refused for good (not conflicts), with their requests.
    package func refusedActivityEntries() throws -> [(row: OutboxRow, request: ActivityOutboxRequest?)] {
        try outboxRows(kind: .activity, state: .rejected).map { row in
            // An unreadable request is still listed (its words say "an activity"), never hidden.
            (row, try? request(of: row, as: ActivityOutboxRequest.self))
        }
    }

    /// Sign-out: the mentor's cached contacts and activities go. Queued entries stay in the
    /// outbox and unresolved conflicts in their table, each owned by its user, for their next
    /// sign-in (or until they discard them).
    package func clearActivities() throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM mentor_contacts; DELETE FROM mentor_activities")
        }
    }
}
