import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// Changes a contact's details (organizer): name and area as given, sensitive fields merged
    /// into the sealed box (the empty text removes one), and an audit row naming the fields
    /// changed. Nil when the contact is not the caller's tenant's, or was erased.
    func updateContact(
        _ contactId: ContactID, _ request: UpdateContactRequest, caller: Caller, keys: KeyEncryptionKeys, now: Date
    ) async throws -> Contact? {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT c.name, c.area, c.sensitive FROM contacts c WHERE c.id = ? AND \(Self.contactVisible)",
                    [.id(contactId)] + Self.contactBinds(caller))
            else { return nil }
            var changed: [String] = []
            let (oldName, oldArea) = (try row.text("name"), try row.text("area"))
            let name = request.name ?? oldName
            let area = request.area ?? oldArea
            if name != oldName { changed.append("name") }
            if area != oldArea { changed.append("area") }
            let dataKey = try await dataKey(connection, tenantId: caller.tenantId, keys: keys, now: now)
            var sensitive = try ContactCipher.open(
                try row.blob("sensitive"), contactId: contactId, tenantId: caller.tenantId, dataKey: dataKey)
            for (field, value, path) in [
                ("address", request.address, \ContactSensitive.address),
                ("healthNotes", request.healthNotes, \.healthNotes),
                ("phone", request.phone, \.phone),
            ] {
                guard let value else { continue }
                let new = value.isEmpty ? nil : value
                if sensitive[keyPath: path] != new {
                    sensitive[keyPath: path] = new
                    changed.append(field)
                }
            }
            if !changed.isEmpty {
                let sealed = try ContactCipher.seal(
                    sensitive, contactId: contactId, tenantId: caller.tenantId, dataKey: dataKey)
                try await connection.execute(
                    """
                    UPDATE contacts SET name = ?, area = ?, sensitive = ?, sensitive_fields = ?, updated_at = ?
                    WHERE id = ?
                    """,
                    [
                        .text(name), .text(area), .blob(sealed), .text(sensitive.present.joined(separator: ",")),
                        .date(now), .id(contactId),
                    ])
                try await Self.recordContactChange(
                    connection, contactId, caller: caller, action: .edited, fields: changed, activities: nil, now: now)
            }
            return try await Self.contact(connection, contactId)
        }
    }

    /// Erases a contact (organizer; the right to erasure): the name, area, sealed fields, the
    /// record of who revealed them, the mentors' assignments and the notes of its activities
    /// go; the activities stay (kind, day, minutes, mentor: the counts a funder asks for), and
    /// the audit says who erased which contact when. Nil when the contact is not the caller's
    /// tenant's, or was erased already; else how many activities were kept.
    func eraseContact(_ contactId: ContactID, caller: Caller, keys: KeyEncryptionKeys, now: Date) async throws -> Int? {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT c.sensitive_fields FROM contacts c WHERE c.id = ? AND \(Self.contactVisible)",
                    [.id(contactId)] + Self.contactBinds(caller))
            else { return nil }
            let fields = ["name", "area"] + (try row.text("sensitive_fields")).split(separator: ",").map(String.init)
            let dataKey = try await dataKey(connection, tenantId: caller.tenantId, keys: keys, now: now)
            let empty = try ContactCipher.seal(
                ContactSensitive(), contactId: contactId, tenantId: caller.tenantId, dataKey: dataKey)
            try await connection.execute(
                """
                UPDATE contacts SET name = '', area = '', sensitive = ?, sensitive_fields = '', updated_at = ?,
                    erased_at = ?
                WHERE id = ?
                """, [.blob(empty), .date(now), .date(now), .id(contactId)])
            try await connection.execute("DELETE FROM contact_reveals WHERE contact_id = ?", [.id(contactId)])
            try await connection.execute("DELETE FROM contact_mentors WHERE contact_id = ?", [.id(contactId)])
            // A new version of each, so devices that hold a copy take the emptied notes.
            try await connection.execute(
                """
                UPDATE activities SET notes = '', version = version + 1, updated_at = ?, updated_by = ?
                WHERE contact_id = ? AND notes <> ''
                """, [.date(now), .id(caller.userId), .id(contactId)])
            let kept = Int(
                try await connection.queryOne(
                    "SELECT COUNT(*) AS n FROM activities WHERE contact_id = ? AND deleted = 0", [.id(contactId)]
                )?.int("n") ?? 0)
            try await Self.recordContactChange(
                connection, contactId, caller: caller, action: .erased, fields: fields, activities: kept, now: now)
            return kept
        }
    }

    /// The tenant's contact edits and erasures, oldest first.
    func contactChanges(tenantId: TenantID) async throws -> [ContactChange] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT contact_id, user_id, action, fields, activities, at FROM contact_changes
                WHERE tenant_id = ? ORDER BY id
                """, [.id(tenantId)]
            ).map {
                ContactChange(
                    contactId: try $0.id("contact_id"), userId: try $0.id("user_id"),
                    action: try $0.enumeration("action", as: ContactChange.Action.self),
                    fields: try $0.text("fields").split(separator: ",").map(String.init),
                    activitiesKept: try $0.optionalInt("activities").map(Int.init), at: try $0.date("at"))
            }
        }
    }

    static func contact(_ connection: any SQLConnection, _ contactId: ContactID) async throws -> Contact? {
        guard
            let row = try await connection.queryOne(
                "SELECT \(contactColumns) FROM contacts c WHERE c.id = ?", [.id(contactId)])
        else { return nil }
        let mentors = try await connection.query(
            "SELECT user_id FROM contact_mentors WHERE contact_id = ? ORDER BY user_id", [.id(contactId)]
        ).map { try $0.id("user_id", as: UserID.self) }
        return try contact(from: row, mentors: mentors)
    }

    private static func recordContactChange(
        _ connection: any SQLConnection, _ contactId: ContactID, caller: Caller, action: ContactChange.Action,
        fields: [String], activities: Int?, now: Date
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO contact_changes (tenant_id, contact_id, user_id, action, fields, activities, at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .id(caller.tenantId), .id(contactId), .id(caller.userId), .text(action.rawValue),
                .text(fields.joined(separator: ",")), activities.map { .int(Int64($0)) } ?? .null, .date(now),
            ])
    }
}
