import Foundation
import OutpostCore
import OutpostProtocol

/// One check-in as the export lists it.
struct CheckInExportRow: Sendable, Equatable {
    var id: String
    var at: Date
    var guestName: String
    var email: String
    var code: String
    var accessType: String
    var status: String
    var byName: String
    var deviceId: String
    var method: String
    var note: String
}

extension Store {
    /// The event's check-ins after (`at`, `id`), oldest first, `limit` at a time.
    func checkInExport(eventId: EventID, after: (at: Date, id: String)?, limit: Int) async throws -> [CheckInExportRow]
    {
        try await database.read { connection in
            let start = after ?? (Date(millisecondsSince1970: -1), "")
            return try await connection.query(
                """
                SELECT c.id, c.at, c.by_name, c.device_id, c.method, c.note, g.name, g.email, g.code, g.status,
                    a.name AS access_type
                FROM checkins c JOIN guests g ON g.id = c.guest_id JOIN access_types a ON a.id = g.access_type_id
                WHERE c.event_id = ? AND (c.at > ? OR (c.at = ? AND c.id > ?))
                ORDER BY c.at, c.id LIMIT ?
                """,
                [.id(eventId), .date(start.at), .date(start.at), .text(start.id), .int(Int64(limit))]
            ).map {
                CheckInExportRow(
                    id: try $0.text("id"), at: try $0.date("at"), guestName: try $0.text("name"),
                    email: try $0.text("email"), code: try $0.text("code"), accessType: try $0.text("access_type"),
                    status: try $0.text("status"), byName: try $0.text("by_name"), deviceId: try $0.text("device_id"),
                    method: try $0.text("method"), note: try $0.text("note"))
            }
        }
    }
}
