import Foundation
import OutpostCore
import OutpostProtocol

/// How a write of an activity ended.
enum ActivityWriteOutcome: Sendable, Equatable {
    case created(Activity)
    case updated(Activity)
    /// The same write sent again (its answer was lost): the version it made.
    case replayed(Activity)
    /// The write names a version the server no longer has: the current one.
    case conflict(Activity)
    /// No such activity or contact, or not the caller's to see.
    case notFound
}

/// How a delete of an activity ended.
enum ActivityDeleteOutcome: Sendable, Equatable {
    case deleted
    case conflict(Activity)
    case notFound
}

extension Store {
    static let activityColumns =
        "id, tenant_id, contact_id, mentor_id, kind, on_date, duration_minutes, notes, version, deleted, updated_at, updated_by"

    static func activity(from row: SQLRow) throws -> Activity {
        Activity(
            id: try row.id("id"), contactId: try row.id("contact_id"), mentorId: try row.id("mentor_id"),
            type: try row.enumeration("kind", as: ActivityType.self), date: try row.text("on_date"),
            durationMinutes: Int(try row.int("duration_minutes")), notes: try row.text("notes"),
            version: Int(try row.int("version")), deleted: try row.bool("deleted"),
            updatedAt: try row.date("updated_at"))
    }

    /// The activity with its author of the last write, when the caller may see it: an organizer
    /// any of the tenant's, a mentor only their own.
    private static func visibleActivity(
        _ connection: any SQLConnection, _ id: ActivityID, caller: Caller
    ) async throws -> (activity: Activity, updatedBy: UserID)? {
        guard
            let row = try await connection.queryOne(
                "SELECT \(activityColumns) FROM activities WHERE id = ?", [.id(id)]),
            try row.id("tenant_id", as: TenantID.self) == caller.tenantId
        else { return nil }
        let mentor = try row.id("mentor_id", as: UserID.self)
        guard caller.role == .organizer || mentor == caller.userId else { return nil }
        return (try activity(from: row), try row.id("updated_by"))
    }

    /// Creates (`baseVersion` 0) or replaces an activity, checking the version it was made on.
    /// The contact must be one the caller may see; a mentor writes only their own activities.
    func writeActivity(
        _ id: ActivityID, _ write: ActivityWrite, caller: Caller, now: Date
    ) async throws
        -> ActivityWriteOutcome
    {
        try await database.transaction { connection in
            guard try await Self.contactIsVisible(connection, write.contactId, to: caller) else {
                return .notFound
            }
            if write.baseVersion == 0 {
                let inserted = try await connection.queryOne(
                    """
                    INSERT INTO activities (id, tenant_id, contact_id, mentor_id, kind, on_date, duration_minutes,
                        notes, version, deleted, updated_at, updated_by, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING \(Self.activityColumns)
                    """,
                    [
                        .id(id), .id(caller.tenantId), .id(write.contactId), .id(caller.userId),
                        .text(write.type.rawValue), .text(write.date), .int(Int64(write.durationMinutes)),
                        .text(write.notes), .date(now), .id(caller.userId), .date(now),
                    ])
                if let inserted { return .created(try Self.activity(from: inserted)) }
            }
            guard let (current, updatedBy) = try await Self.visibleActivity(connection, id, caller: caller) else {
                return .notFound
            }
            if write.baseVersion > 0, current.version == write.baseVersion {
                let updated = try await connection.queryOne(
                    """
                    UPDATE activities SET contact_id = ?, kind = ?, on_date = ?, duration_minutes = ?, notes = ?,
                        version = version + 1, deleted = 0, updated_at = ?, updated_by = ?
                    WHERE id = ? AND version = ? RETURNING \(Self.activityColumns)
                    """,
                    [
                        .id(write.contactId), .text(write.type.rawValue), .text(write.date),
                        .int(Int64(write.durationMinutes)), .text(write.notes), .date(now), .id(caller.userId),
                        .id(id), .int(Int64(write.baseVersion)),
                    ])
                if let updated { return .updated(try Self.activity(from: updated)) }
            }
            // A lost answer sent again: the version this very write made.
            if current.version == write.baseVersion + 1, !current.deleted, current.content == write.content,
                updatedBy == caller.userId
            {
                return .replayed(current)
            }
            return .conflict(current)
        }
    }

    /// Deletes an activity made on `baseVersion` (kept as a tombstone so devices learn of it).
    /// Deleting what is already deleted succeeds; a newer version is a conflict.
    func deleteActivity(
        _ id: ActivityID, baseVersion: Int, caller: Caller, now: Date
    ) async throws -> ActivityDeleteOutcome {
        try await database.transaction { connection in
            guard let (current, _) = try await Self.visibleActivity(connection, id, caller: caller) else {
                return .notFound
            }
            if current.deleted { return .deleted }
            guard current.version == baseVersion else { return .conflict(current) }
            let deleted = try await connection.queryOne(
                """
                UPDATE activities SET deleted = 1, version = version + 1, updated_at = ?, updated_by = ?
                WHERE id = ? AND version = ? RETURNING id
                """, [.date(now), .id(caller.userId), .id(id), .int(Int64(baseVersion))])
            if deleted != nil { return .deleted }
            guard let (latest, _) = try await Self.visibleActivity(connection, id, caller: caller) else {
                return .notFound
            }
            return latest.deleted ? .deleted : .conflict(latest)
        }
    }

    /// A mentor's own activities, or every activity of an organizer's tenant; newest day first.
    func activities(visibleTo caller: Caller) async throws -> [Activity] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT \(Self.activityColumns) FROM activities
                WHERE tenant_id = ? AND (? = 'organizer' OR mentor_id = ?) ORDER BY on_date DESC, id
                """, [.id(caller.tenantId), .text(caller.role.rawValue), .id(caller.userId)]
            ).map(Self.activity(from:))
        }
    }
}
