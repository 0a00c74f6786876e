import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// Whether the user was removed by an organizer.
    func isRemoved(userId: UserID) async throws -> Bool {
        try await database.read { connection in
            try await connection.queryOne(
                "SELECT 1 FROM users WHERE id = ? AND removed_at IS NOT NULL", [.id(userId)]) != nil
        }
    }

    /// Whether a refresh token (by its hash) belongs to a user who was removed.
    func refreshTokenOfRemovedUser(hash: [UInt8]) async throws -> Bool {
        try await database.read { connection in
            try await connection.queryOne(
                """
                SELECT 1 FROM refresh_tokens t JOIN users u ON u.id = t.user_id
                WHERE t.token_hash = ? AND u.removed_at IS NOT NULL
                """, [.blob(hash)]) != nil
        }
    }

    /// A device's report of the entries it has not sent for its signed-in user.
    func reportUserDevice(userId: UserID, deviceId: String, pending: Int, at now: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO user_device_reports (user_id, device_id, pending, reported_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, device_id) DO UPDATE
                SET pending = excluded.pending, reported_at = excluded.reported_at
                """, [.id(userId), .text(deviceId), .int(Int64(pending)), .date(now)])
        }
    }

    /// What the user's devices last reported not sent: their own reports and the door
    /// devices' reports of check-ins made under this user, those with entries only.
    func unsentWork(userId: UserID) async throws -> [UnsentWork.Device] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT device_id, pending, reported_at FROM user_device_reports WHERE user_id = ? AND pending > 0
                UNION ALL
                SELECT device_id, pending, reported_at FROM device_reports WHERE user_id = ? AND pending > 0
                ORDER BY reported_at DESC
                """, [.id(userId), .id(userId)]
            ).map {
                UnsentWork.Device(
                    deviceId: try $0.text("device_id"), pending: Int(try $0.int("pending")),
                    reportedAt: try $0.date("reported_at"))
            }
        }
    }
}
