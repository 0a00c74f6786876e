import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// Everything the server holds about `caller` (GDPR Art. 20).
    func accountExport(of caller: Caller, now: Date) async throws -> AccountExport? {
        try await database.read { connection in
            guard
                let row = try await connection.queryOne(
                    """
                    SELECT id, tenant_id, email, name, role, created_at, consent_version, consent_at FROM users
                    WHERE id = ? AND removed_at IS NULL
                    """, [.id(caller.userId)])
            else { return nil }
            let user = UserInfo(
                id: try row.id("id"), name: try row.text("name"), email: try row.text("email"),
                role: try row.enumeration("role", as: UserRole.self), tenantId: try row.id("tenant_id"))
            let devices = try await connection.query(
                "SELECT DISTINCT device_id FROM refresh_tokens WHERE user_id = ? ORDER BY device_id",
                [.id(caller.userId)]
            ).map { try $0.text("device_id") }
            let tracking = try await Self.daySubmissionList(connection, of: caller.userId)
            let activities = try await connection.query(
                "SELECT \(Self.activityColumns) FROM activities WHERE mentor_id = ? ORDER BY on_date, id",
                [.id(caller.userId)]
            ).map(Self.activity(from:))
            return AccountExport(
                user: user, createdAt: try row.date("created_at"),
                consent: ConsentRecord(
                    version: try row.optionalText("consent_version"), acceptedAt: try row.optionalDate("consent_at")),
                devices: devices, days: tracking.days, finalisedWeeks: tracking.finalisedWeeks, activities: activities,
                exportedAt: now)
        }
    }

    /// Deletes a worker's account and everything of theirs (GDPR Art. 17): their submitted days
    /// and finalised weeks, sign-ins, codes and sign-in counters, the user row and the record of
    /// changes to it, and the tenant
    /// it made when they registered if nobody else is in it. False when there is no such user.
    func deleteWorkerAccount(_ caller: Caller) async throws -> Bool {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT email FROM users WHERE id = ? AND role = 'worker'", [.id(caller.userId)])
            else { return false }
            let email = try row.text("email")
            let user: [SQLValue] = [.id(caller.userId)]
            for table in [
                "day_submissions", "finalised_weeks", "refresh_tokens", "event_staff", "contact_mentors",
                "user_device_reports", "two_factor", "recovery_codes", "password_links", "mesh_certificates",
            ] {
                try await connection.execute("DELETE FROM \(table) WHERE user_id = ?", user)
            }
            try await connection.execute("DELETE FROM email_codes WHERE email = ?", [.text(email)])
            // Mail to the address (a code on its way, or a sent one's envelope) goes too.
            try await connection.execute("DELETE FROM mail_queue WHERE rcpt_to = ?", [.text(email)])
            try await connection.execute(
                "DELETE FROM signin_failures WHERE subject IN (?, ?)",
                [.text("email:" + email), .text("code-email:" + email)])
            try await connection.execute("DELETE FROM users WHERE id = ?", user)
            // The organisation's record of changes to the account goes with it (its triggers let
            // a change go only once the account has).
            try await connection.execute("DELETE FROM user_changes WHERE user_id = ?", user)
            let tenant: [SQLValue] = [.id(caller.tenantId)]
            let occupied = try await connection.queryOne(
                """
                SELECT 1 WHERE EXISTS (SELECT 1 FROM users WHERE tenant_id = ?)
                    OR EXISTS (SELECT 1 FROM events WHERE tenant_id = ?)
                    OR EXISTS (SELECT 1 FROM contacts WHERE tenant_id = ?)
                """, tenant + tenant + tenant)
            if occupied == nil {
                for table in ["tenant_settings", "tenant_data_keys"] {
                    try await connection.execute("DELETE FROM \(table) WHERE tenant_id = ?", tenant)
                }
                try await connection.execute("DELETE FROM tenants WHERE id = ?", tenant)
            }
            return true
        }
    }
}
