import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// A certificate the authority issued a device for an event, as an uploaded entry is checked
/// against it: the key that must have signed it, whose it is, and until when it held.
struct MeshAuthorKey: Sendable {
    var publicKey: P256.Signing.PublicKey
    var userId: UserID
    var notAfter: Date
    var revokedAt: Date?
}

/// An entry the server checked and keeps, with the door that handed it in.
struct MeshEntryRecord: Sendable {
    var entry: MeshEntry
    var userId: UserID
    var uploadedBy: String
}

extension Store {
    /// Every certificate the authority issued `device` for the event, revoked ones included (an
    /// entry made before the revocation still counts).
    func meshAuthorKeys(eventId: EventID, device: String) async throws -> [MeshAuthorKey] {
        try await database.read { connection in
            try await connection.query(
                "SELECT public_key, user_id, not_after, revoked_at FROM mesh_certificates WHERE event_id = ? AND device = ?",
                [.id(eventId), .text(device)])
        }.compactMap { row in
            guard let key = try? P256.Signing.PublicKey(derRepresentation: try row.blob("public_key")) else {
                return nil
            }
            return MeshAuthorKey(
                publicKey: key, userId: try row.id("user_id"), notAfter: try row.date("not_after"),
                revokedAt: try row.optionalDate("revoked_at"))
        }
    }

    /// The id of the entry the server keeps under (event, author, number), if any.
    func meshEntryId(eventId: EventID, author: String, seq: UInt64) async throws -> [UInt8]? {
        try await database.read { connection in
            try await connection.queryOne(
                "SELECT entry_id FROM mesh_entries WHERE event_id = ? AND author = ? AND seq = ?",
                [.id(eventId), .text(author), .int(Int64(seq))])
        }?.blob("entry_id")
    }

    /// The current role of the users `ids` (an author's check-in is decided as theirs); a
    /// removed user is absent.
    func meshAuthorRoles(_ ids: Set<UserID>) async throws -> [UserID: UserRole] {
        var roles: [UserID: UserRole] = [:]
        try await database.read { connection in
            for id in ids {
                if let row = try await connection.queryOne("SELECT role FROM users WHERE id = ?", [.id(id)]),
                    let role = UserRole(rawValue: try row.text("role"))
                {
                    roles[id] = role
                }
            }
        }
        return roles
    }

    /// Keeps checked entries (once per author and number: a second copy is dropped) and what
    /// the door said of its mesh, in one transaction.
    func keepMeshEntries(
        _ records: [MeshEntryRecord], report: (device: String, userId: UserID, held: Int, peers: [String])?,
        eventId: EventID, now: Date
    ) async throws {
        try await database.transaction { connection in
            for record in records {
                let entry = record.entry
                try await connection.execute(
                    """
                    INSERT INTO mesh_entries (event_id, author, seq, entry_id, guest_id, scanned_at, user_id,
                        uploaded_by, received_at, entry)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (event_id, author, seq) DO NOTHING
                    """,
                    [
                        .id(eventId), .text(entry.author), .int(Int64(entry.seq)), .blob(entry.id), .id(entry.guest),
                        .int(entry.scannedAt), .id(record.userId), .text(record.uploadedBy), .date(now),
                        .blob(entry.encoded),
                    ])
            }
            guard let report else { return }
            try await connection.execute(
                """
                INSERT INTO mesh_devices (event_id, device_id, user_id, held, peers, reported_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (event_id, device_id) DO UPDATE
                SET user_id = excluded.user_id, held = excluded.held, peers = excluded.peers,
                    reported_at = excluded.reported_at
                """,
                [
                    .id(eventId), .text(report.device), .id(report.userId), .int(Int64(report.held)),
                    .text(report.peers.joined(separator: "\n")), .date(now),
                ])
        }
    }

    /// What the server holds of each author of the event: the highest number up to which it has
    /// every entry (a gap, from a door that skipped one, stops the count there).
    func meshVector(eventId: EventID) async throws -> [String: UInt64] {
        let rows = try await database.read { connection in
            try await connection.query(
                "SELECT author, seq FROM mesh_entries WHERE event_id = ? ORDER BY author, seq", [.id(eventId)])
        }
        var vector: [String: UInt64] = [:]
        for row in rows {
            let author = try row.text("author")
            let seq = UInt64(try row.int("seq"))
            if seq == (vector[author] ?? 0) + 1 { vector[author] = seq }
        }
        return vector
    }
}

extension Store {
    /// The event's doors in the venue mesh for the dashboard: each author of entries the server
    /// holds and each door that reported, kept when it met other doors or when some of its
    /// admissions came through other doors (a door alone in its mesh is just a door).
    static func meshDoors(
        _ connection: any SQLConnection, eventId: EventID, names: [String: String]
    ) async throws -> [DoorDashboard.MeshDoor] {
        var doors: [String: DoorDashboard.MeshDoor] = [:]
        for row in try await connection.query(
            """
            SELECT m.author, COUNT(*) AS admitted, SUM(CASE WHEN m.uploaded_by = m.author THEN 0 ELSE 1 END) AS others,
                MIN(u.name) AS user_name
            FROM mesh_entries m LEFT JOIN users u ON u.id = m.user_id
            WHERE m.event_id = ? GROUP BY m.author
            """, [.id(eventId)])
        {
            let device = try row.text("author")
            doors[device] = DoorDashboard.MeshDoor(
                deviceId: device, name: names[device], userName: try row.optionalText("user_name") ?? "",
                admitted: Int(try row.int("admitted")), throughOthers: Int(try row.int("others")), peers: [],
                held: nil, reportedAt: nil)
        }
        for row in try await connection.query(
            """
            SELECT d.device_id, d.held, d.peers, d.reported_at, u.name AS user_name
            FROM mesh_devices d LEFT JOIN users u ON u.id = d.user_id WHERE d.event_id = ?
            """, [.id(eventId)])
        {
            let device = try row.text("device_id")
            let userName = try row.optionalText("user_name") ?? ""
            var door =
                doors[device]
                ?? DoorDashboard.MeshDoor(
                    deviceId: device, name: names[device], userName: userName, admitted: 0, throughOthers: 0,
                    peers: [], held: nil, reportedAt: nil)
            door.peers = try row.text("peers").split(separator: "\n").map(String.init)
            door.held = Int(try row.int("held"))
            door.reportedAt = try row.date("reported_at")
            doors[device] = door
        }
        return doors.values.filter { !$0.peers.isEmpty || $0.throughOthers > 0 }.sorted { $0.deviceId < $1.deviceId }
    }
}
