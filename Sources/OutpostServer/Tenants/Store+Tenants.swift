import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// The tenant's settings (defaults until an organizer changes them).
    func tenantSettings(_ tenantId: TenantID) async throws -> TenantSettings {
        try await database.read { connection in
            guard
                let row = try await connection.queryOne(
                    """
                    SELECT offline_unlock_hours, time_zone, organizers_need_two_factor FROM tenant_settings
                    WHERE tenant_id = ?
                    """,
                    [.id(tenantId)])
            else { return TenantSettings() }
            return TenantSettings(
                offlineUnlockHours: Int(try row.int("offline_unlock_hours")),
                timeZone: try row.optionalText("time_zone"),
                organizersNeedTwoFactor: try row.bool("organizers_need_two_factor") ? true : nil)
        }
    }

    func setTenantSettings(_ tenantId: TenantID, _ settings: TenantSettings) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO tenant_settings (tenant_id, offline_unlock_hours, time_zone, organizers_need_two_factor)
                VALUES (?, ?, ?, ?)
                ON CONFLICT (tenant_id) DO UPDATE SET offline_unlock_hours = excluded.offline_unlock_hours,
                    time_zone = excluded.time_zone, organizers_need_two_factor = excluded.organizers_need_two_factor
                """,
                [
                    .id(tenantId), .int(Int64(settings.offlineUnlockHours)), .optionalText(settings.timeZone),
                    .bool(settings.organizersNeedTwoFactor == true),
                ])
        }
    }
}
