import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// The condition "the caller may see this contact", with its three binds: organizers
    /// (coordinators) see every contact of their tenant, anyone else only those assigned to
    /// them; an erased contact nobody.
    static let contactVisible =
        "c.tenant_id = ? AND c.erased_at IS NULL AND (? = 'organizer' OR EXISTS (SELECT 1 FROM contact_mentors m WHERE m.contact_id = c.id AND m.user_id = ?))"

    static func contactBinds(_ caller: Caller) -> [SQLValue] {
        [.id(caller.tenantId), .text(caller.role.rawValue), .id(caller.userId)]
    }

    static let contactColumns = """
        c.id, c.name, c.area, c.sensitive_fields, c.updated_at,
        (SELECT MAX(a.on_date) FROM activities a WHERE a.contact_id = c.id AND a.deleted = 0) AS last_visit
        """

    /// The tenant's data key, unwrapped. Made (and wrapped by the current key-encryption key) on
    /// first use; a key wrapped by an older key-encryption key is re-wrapped under the current one
    /// here, in the caller's transaction (rotation: the data it encrypts is never touched).
    func dataKey(
        _ connection: any SQLConnection, tenantId: TenantID, keys: KeyEncryptionKeys, now: Date
    ) async throws
        -> SymmetricKey
    {
        let select = "SELECT kek_id, wrapped FROM tenant_data_keys WHERE tenant_id = ?"
        if try await connection.queryOne(select, [.id(tenantId)]) == nil {
            let wrapped = try keys.wrap(SymmetricKey(size: .bits256), tenantId: tenantId)
            try await connection.execute(
                """
                INSERT INTO tenant_data_keys (tenant_id, kek_id, wrapped, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """,
                [.id(tenantId), .text(wrapped.kekId), .blob(wrapped.wrapped), .date(now)])
        }
        guard let row = try await connection.queryOne(select, [.id(tenantId)]) else { throw StoreError.notFound }
        let kekId = try row.text("kek_id")
        let key = try keys.unwrap(try row.blob("wrapped"), kekId: kekId, tenantId: tenantId)
        if kekId != keys.current.id {
            let rewrapped = try keys.wrap(key, tenantId: tenantId)
            try await connection.execute(
                "UPDATE tenant_data_keys SET kek_id = ?, wrapped = ? WHERE tenant_id = ? AND kek_id = ?",
                [.text(rewrapped.kekId), .blob(rewrapped.wrapped), .id(tenantId), .text(kekId)])
        }
        return key
    }

    /// The key-encryption key each tenant's data key is wrapped by (operators: which old keys
    /// are still needed).
    public func dataKeyWrappers() async throws -> [String: String] {
        try await database.read { connection in
            var result: [String: String] = [:]
            for row in try await connection.query("SELECT tenant_id, kek_id FROM tenant_data_keys", []) {
                result[try row.text("tenant_id")] = try row.text("kek_id")
            }
            return result
        }
    }

    func createContact(
        tenantId: TenantID, request: CreateContactRequest, keys: KeyEncryptionKeys, now: Date
    ) async throws -> Contact {
        let id = ContactID.random()
        let sensitive = request.sensitive
        return try await database.transaction { connection in
            let dataKey = try await dataKey(connection, tenantId: tenantId, keys: keys, now: now)
            let sealed = try ContactCipher.seal(sensitive, contactId: id, tenantId: tenantId, dataKey: dataKey)
            try await connection.execute(
                """
                INSERT INTO contacts (id, tenant_id, name, area, sensitive, sensitive_fields, updated_at, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(id), .id(tenantId), .text(request.name), .text(request.area), .blob(sealed),
                    .text(sensitive.present.joined(separator: ",")), .date(now), .date(now),
                ])
            return Contact(
                id: id, name: request.name, area: request.area, lastVisit: nil,
                sensitiveFields: sensitive.present, mentorIds: [], updatedAt: now)
        }
    }

    /// The contacts the caller may see, by name then id, with their mentors.
    func contacts(visibleTo caller: Caller) async throws -> [Contact] {
        try await database.read { connection in
            let rows = try await connection.query(
                "SELECT \(Self.contactColumns) FROM contacts c WHERE \(Self.contactVisible) ORDER BY c.name, c.id",
                Self.contactBinds(caller))
            let assignments = try await connection.query(
                """
                SELECT m.contact_id, m.user_id FROM contact_mentors m JOIN contacts c ON c.id = m.contact_id
                WHERE \(Self.contactVisible) ORDER BY m.user_id
                """, Self.contactBinds(caller))
            var mentors: [String: [UserID]] = [:]
            for row in assignments { mentors[try row.text("contact_id"), default: []].append(try row.id("user_id")) }
            return try rows.map { row in try Self.contact(from: row, mentors: mentors[try row.text("id")] ?? []) }
        }
    }

    static func contact(from row: SQLRow, mentors: [UserID]) throws -> Contact {
        Contact(
            id: try row.id("id"), name: try row.text("name"), area: try row.text("area"),
            lastVisit: try row.optionalText("last_visit"),
            sensitiveFields: try row.text("sensitive_fields").split(separator: ",").map(String.init),
            mentorIds: mentors, updatedAt: try row.date("updated_at"))
    }

    /// True when the caller may see the contact.
    static func contactIsVisible(
        _ connection: any SQLConnection, _ contactId: ContactID, to caller: Caller
    ) async throws
        -> Bool
    {
        try await connection.queryOne(
            "SELECT 1 FROM contacts c WHERE c.id = ? AND \(contactVisible)", [.id(contactId)] + contactBinds(caller)
        ) != nil
    }

    /// Opens a contact's sensitive fields for the caller and records who saw them, in one
    /// transaction (no reveal without its audit row). Nil when the caller may not see the contact.
    func revealContact(
        _ contactId: ContactID, caller: Caller, keys: KeyEncryptionKeys, now: Date
    ) async throws -> ContactSensitive? {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT c.sensitive FROM contacts c WHERE c.id = ? AND \(Self.contactVisible)",
                    [.id(contactId)] + Self.contactBinds(caller))
            else { return nil }
            let dataKey = try await dataKey(connection, tenantId: caller.tenantId, keys: keys, now: now)
            let fields = try ContactCipher.open(
                try row.blob("sensitive"), contactId: contactId, tenantId: caller.tenantId, dataKey: dataKey)
            try await connection.execute(
                "INSERT INTO contact_reveals (tenant_id, contact_id, user_id, at) VALUES (?, ?, ?, ?)",
                [.id(caller.tenantId), .id(contactId), .id(caller.userId), .date(now)])
            return fields
        }
    }

    /// Who revealed a contact's sensitive fields, oldest first; nil for a contact of another tenant.
    func contactReveals(_ contactId: ContactID, tenantId: TenantID) async throws -> [ContactReveal]? {
        try await database.read { connection in
            guard
                try await connection.queryOne(
                    "SELECT 1 FROM contacts WHERE id = ? AND tenant_id = ?", [.id(contactId), .id(tenantId)])
                    != nil
            else { return nil }
            return try await connection.query(
                "SELECT user_id, at FROM contact_reveals WHERE contact_id = ? ORDER BY id", [.id(contactId)]
            ).map { ContactReveal(userId: try $0.id("user_id"), at: try $0.date("at")) }
        }
    }

    /// Assigns (or, with `assigned` false, unassigns) a mentor of the tenant to a contact of the
    /// tenant. False when either is not the tenant's, or the user is not a mentor.
    func setContactMentor(
        _ contactId: ContactID, userId: UserID, tenantId: TenantID, assigned: Bool
    ) async throws -> Bool {
        try await database.transaction { connection in
            guard
                try await connection.queryOne(
                    "SELECT 1 FROM contacts WHERE id = ? AND tenant_id = ?", [.id(contactId), .id(tenantId)])
                    != nil,
                try await connection.queryOne(
                    "SELECT 1 FROM users WHERE id = ? AND tenant_id = ? AND role = 'mentor'",
                    [.id(userId), .id(tenantId)]) != nil
            else { return false }
            if assigned {
                try await connection.execute(
                    "INSERT INTO contact_mentors (contact_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    [.id(contactId), .id(userId)])
            } else {
                try await connection.execute(
                    "DELETE FROM contact_mentors WHERE contact_id = ? AND user_id = ?",
                    [.id(contactId), .id(userId)])
            }
            try await connection.execute(
                "UPDATE contacts SET updated_at = ? WHERE id = ?", [.date(.now), .id(contactId)])
            return true
        }
    }
}
