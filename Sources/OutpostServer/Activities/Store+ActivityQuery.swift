import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// The activities the caller may see that `query` asks for, newest day first (then by id),
    /// deleted ones included unless `live`; a page of `query.limit` after its cursor, with the
    /// cursor of the next page when there is more.
    func activities(
        visibleTo caller: Caller, query: ActivityQuery, live: Bool = false
    ) async throws -> (activities: [Activity], next: ActivityQuery.Cursor?) {
        var conditions = ["tenant_id = ?", "(? = 'organizer' OR mentor_id = ?)"]
        var binds: [SQLValue] = [.id(caller.tenantId), .text(caller.role.rawValue), .id(caller.userId)]
        if let mentor = query.mentor {
            conditions.append("mentor_id = ?")
            binds.append(.id(mentor))
        }
        if let contact = query.contact {
            conditions.append("contact_id = ?")
            binds.append(.id(contact))
        }
        if let from = query.from {
            conditions.append("on_date >= ?")
            binds.append(.text(from))
        }
        if let to = query.to {
            conditions.append("on_date <= ?")
            binds.append(.text(to))
        }
        if live { conditions.append("deleted = 0") }
        if let after = query.after {
            conditions.append("(on_date < ? OR (on_date = ? AND id > ?))")
            binds += [.text(after.date), .text(after.date), .id(after.id)]
        }
        var sql = """
            SELECT \(Self.activityColumns) FROM activities WHERE \(conditions.joined(separator: " AND "))
            ORDER BY on_date DESC, id
            """
        if let limit = query.limit {
            sql += " LIMIT ?"
            binds.append(.int(Int64(limit + 1)))
        }
        let rows = try await database.read { connection in try await connection.query(sql, binds) }
        var activities = try rows.map(Self.activity(from:))
        var next: ActivityQuery.Cursor?
        if let limit = query.limit, activities.count > limit {
            activities.removeLast(activities.count - limit)
            if let last = activities.last { next = ActivityQuery.Cursor(date: last.date, id: last.id) }
        }
        return (activities, next)
    }

    /// The names of the tenant's users, by id, removed ones too (the CSV names the mentor of
    /// every visit; ``users(tenantId:)`` lists only current users).
    func userNames(tenantId: TenantID) async throws -> [UserID: String] {
        try await database.read { connection in
            var names: [UserID: String] = [:]
            for row in try await connection.query("SELECT id, name FROM users WHERE tenant_id = ?", [.id(tenantId)]) {
                names[try row.id("id")] = try row.text("name")
            }
            return names
        }
    }

    /// The tenant's contacts' areas, by id (erased contacts: empty).
    func contactAreas(tenantId: TenantID) async throws -> [ContactID: String] {
        try await database.read { connection in
            var areas: [ContactID: String] = [:]
            for row in try await connection.query(
                "SELECT id, area FROM contacts WHERE tenant_id = ?", [.id(tenantId)])
            {
                areas[try row.id("id")] = try row.text("area")
            }
            return areas
        }
    }
}
