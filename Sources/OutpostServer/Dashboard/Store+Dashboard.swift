import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// Records what a device said of itself after a sync: the check-ins of this event it still
    /// holds. One row per event and device, the latest report.
    func reportDevice(eventId: EventID, deviceId: String, userId: UserID, pending: Int, at: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO device_reports (event_id, device_id, user_id, pending, reported_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (event_id, device_id) DO UPDATE
                SET user_id = excluded.user_id, pending = excluded.pending, reported_at = excluded.reported_at
                """,
                [.id(eventId), .text(deviceId), .id(userId), .int(Int64(pending)), .date(at)])
        }
    }

    /// What changes the dashboard: the event's change counter (every check-in and guest change,
    /// on any instance) and the devices' reports. Cheap, for a stream to poll.
    func dashboardVersion(eventId: EventID) async throws -> String {
        try await database.read { connection in
            let seq = try await connection.queryOne("SELECT seq FROM events WHERE id = ?", [.id(eventId)])
            let reports = try await connection.queryOne(
                "SELECT COUNT(*) AS n, MAX(reported_at) AS last, SUM(pending) AS pending FROM device_reports WHERE event_id = ?",
                [.id(eventId)])
            // Zone stations' entries and exits change the zones' counts (EFx).
            let passages = try await connection.queryOne(
                "SELECT COUNT(*) AS n, MAX(at) AS last FROM zone_passages WHERE event_id = ?", [.id(eventId)])
            // The names the organizer gives the event's devices ("Door 2"): named, renamed, unnamed.
            let names = try await connection.queryOne(
                """
                SELECT COUNT(*) AS n, MAX(named_at) AS last FROM device_names
                WHERE tenant_id = (SELECT tenant_id FROM events WHERE id = ?)
                AND device_id IN (SELECT device_id FROM device_reports WHERE event_id = ?)
                """, [.id(eventId), .id(eventId)])
            // The doors' mesh reports and the entries they hand in (custody).
            let mesh = try await connection.queryOne(
                """
                SELECT (SELECT COUNT(*) FROM mesh_entries WHERE event_id = ?) AS entries,
                    (SELECT MAX(reported_at) FROM mesh_devices WHERE event_id = ?) AS last
                """, [.id(eventId), .id(eventId)])
            return [
                try mesh?.int("entries") ?? 0, try mesh?.optionalInt("last") ?? 0,
                try seq?.int("seq") ?? 0, try reports?.int("n") ?? 0, try reports?.optionalInt("last") ?? 0,
                try reports?.optionalInt("pending") ?? 0, try passages?.int("n") ?? 0,
                try passages?.optionalInt("last") ?? 0, try names?.int("n") ?? 0, try names?.optionalInt("last") ?? 0,
            ].map(String.init).joined(separator: ":")
        }
    }

    /// The doors at `now`: stats per access type, check-ins per minute over the last hour, the
    /// last 20 check-ins with the guest's name and access type, and each device's last report.
    func dashboard(event: EventRecord, now: Date) async throws -> DoorDashboard {
        let stats = try await stats(eventId: event.id)
        let zones = try await zoneReport(eventId: event.id, limit: 0).zones
        return try await database.read { connection in
            let seq = try await connection.queryOne("SELECT seq FROM events WHERE id = ?", [.id(event.id)])
            let minutes = DashboardMinutes(now: now)
            let counts = try await connection.query(
                """
                SELECT at / 60000 AS minute, COUNT(*) AS n FROM checkins
                WHERE event_id = ? AND at >= ? AND at < ? GROUP BY at / 60000
                """,
                [.id(event.id), .date(minutes.start), .date(minutes.end)])
            let perMinute = minutes.fill(try counts.map { (try $0.int("minute"), Int(try $0.int("n"))) })
            let names = try await Self.deviceNames(connection, tenantId: event.tenantId)
            let recent = try await connection.query(
                """
                SELECT c.at, c.by_name, c.device_id, c.method, g.name AS guest_name, a.name AS access_type
                FROM checkins c JOIN guests g ON g.id = c.guest_id JOIN access_types a ON a.id = g.access_type_id
                WHERE c.event_id = ? ORDER BY c.at DESC, c.id DESC LIMIT 20
                """,
                [.id(event.id)]
            ).map {
                DoorDashboard.RecentCheckIn(
                    guestName: try $0.text("guest_name"), accessType: try $0.text("access_type"), at: try $0.date("at"),
                    byName: try $0.text("by_name"), deviceId: try $0.text("device_id"), method: try $0.text("method"),
                    deviceName: names[try $0.text("device_id")])
            }
            let devices = try await connection.query(
                """
                SELECT r.device_id, r.pending, r.reported_at, u.name FROM device_reports r
                JOIN users u ON u.id = r.user_id WHERE r.event_id = ? ORDER BY r.reported_at DESC, r.device_id
                """,
                [.id(event.id)]
            ).map {
                DoorDashboard.Device(
                    deviceId: try $0.text("device_id"), userName: try $0.text("name"),
                    lastContactAt: try $0.date("reported_at"), pending: Int(try $0.int("pending")),
                    name: names[try $0.text("device_id")])
            }
            let mesh = try await Self.meshDoors(connection, eventId: event.id, names: names)
            return DoorDashboard(
                seq: Int(try seq?.int("seq") ?? 0), stats: stats, perMinute: perMinute, recent: recent,
                devices: devices, zones: zones, mesh: mesh, serverTime: now)
        }
    }
}

/// The chart's hour: the 60 whole minutes up to and including the current one. Pure.
struct DashboardMinutes: Sendable {
    /// The first minute's start.
    var start: Date
    /// The end of the current minute.
    var end: Date

    init(now: Date, count: Int = 60) {
        let current = now.millisecondsSince1970 / 60_000
        start = Date(millisecondsSince1970: (current - Int64(count) + 1) * 60_000)
        end = Date(millisecondsSince1970: (current + 1) * 60_000)
    }

    /// Every minute of the hour, oldest first, with its count from `counts` (minute number since
    /// 1970, count) or 0.
    func fill(_ counts: [(Int64, Int)]) -> [DoorDashboard.Minute] {
        let byMinute = Dictionary(counts, uniquingKeysWith: +)
        var minutes: [DoorDashboard.Minute] = []
        var minute = start.millisecondsSince1970 / 60_000
        let last = end.millisecondsSince1970 / 60_000
        while minute < last {
            minutes.append(
                DoorDashboard.Minute(at: Date(millisecondsSince1970: minute * 60_000), count: byMinute[minute] ?? 0))
            minute += 1
        }
        return minutes
    }
}
