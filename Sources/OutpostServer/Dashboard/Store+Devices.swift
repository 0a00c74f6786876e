import Foundation
import OutpostCore
import OutpostProtocol

/// The tenant's devices, from what each said of itself after a sync, and the names organizers
/// give them.
extension Store {
    /// Every device that reported to the tenant: its latest contact and who was signed in then,
    /// what it still held summed over its reports (a door device reports per event, a mentor's
    /// or worker's per user), and its name; the latest contact first.
    func devices(tenantId: TenantID) async throws -> [DeviceList.Device] {
        try await database.read { connection in
            let rows = try await connection.query(
                """
                SELECT r.device_id, r.pending, r.reported_at, u.name AS user_name FROM device_reports r
                JOIN events e ON e.id = r.event_id JOIN users u ON u.id = r.user_id WHERE e.tenant_id = ?
                UNION ALL
                SELECT r.device_id, r.pending, r.reported_at, u.name AS user_name FROM user_device_reports r
                JOIN users u ON u.id = r.user_id WHERE u.tenant_id = ?
                """, [.id(tenantId), .id(tenantId)])
            let names = try await Self.deviceNames(connection, tenantId: tenantId)
            var devices: [String: DeviceList.Device] = [:]
            for row in rows {
                let id = try row.text("device_id")
                let at = try row.date("reported_at")
                let pending = Int(try row.int("pending"))
                let user = try row.text("user_name")
                if var device = devices[id] {
                    device.pending += pending
                    if at > device.lastContactAt {
                        device.lastContactAt = at
                        device.userName = user
                    }
                    devices[id] = device
                } else {
                    devices[id] = DeviceList.Device(
                        deviceId: id, name: names[id], userName: user, lastContactAt: at, pending: pending)
                }
            }
            return devices.values.sorted {
                ($0.lastContactAt, $1.deviceId) > ($1.lastContactAt, $0.deviceId)
            }
        }
    }

    /// The names the tenant gave its devices, by device id.
    static func deviceNames(_ connection: any SQLConnection, tenantId: TenantID) async throws -> [String: String] {
        var names: [String: String] = [:]
        for row in try await connection.query(
            "SELECT device_id, name FROM device_names WHERE tenant_id = ?", [.id(tenantId)])
        {
            names[try row.text("device_id")] = try row.text("name")
        }
        return names
    }

    /// Names a device of the tenant (an empty name removes it).
    func nameDevice(tenantId: TenantID, deviceId: String, name: String, now: Date) async throws {
        try await database.transaction { connection in
            if name.isEmpty {
                try await connection.execute(
                    "DELETE FROM device_names WHERE tenant_id = ? AND device_id = ?", [.id(tenantId), .text(deviceId)])
                return
            }
            try await connection.execute(
                """
                INSERT INTO device_names (tenant_id, device_id, name, named_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (tenant_id, device_id) DO UPDATE SET name = excluded.name, named_at = excluded.named_at
                """, [.id(tenantId), .text(deviceId), .text(name), .date(now)])
        }
    }
}
