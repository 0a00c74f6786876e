import Foundation
import OutpostCore
import OutpostProtocol

/// Taking a check-in back: the check-in moves whole into `checkins_undone` with who took it
/// back, when and why; the guest's row takes a new change number, so the roster feed tells the
/// doors the guest is not checked in; the audit log gets `check_in_undone` with the reason.
extension Store {
    /// Undoes check-in `checkInId` of `event` (nil: the event has no such check-in, current or
    /// undone). At most once: a check-in already undone answers as it was undone, so a form sent
    /// twice, or two people undoing at once, take it back once.
    func undoCheckIn(
        event: EventRecord, checkInId: CheckInID, caller: Caller, reason: String, now: Date
    ) async throws -> UndoneCheckIn? {
        try await database.transaction { connection in
            // Taken from `checkins` first: of two concurrent undos, the second waits here for the
            // first to commit, deletes nothing and reads the first's row below.
            guard
                let row = try await connection.queryOne(
                    """
                    DELETE FROM checkins WHERE id = ? AND event_id = ?
                    RETURNING id, guest_id, at, client_at, device_id, user_id, by_name, method, note
                    """,
                    [.id(checkInId), .id(event.id)])
            else { return try await Self.undone(connection, eventId: event.id, checkInId: checkInId) }
            let byName =
                try await connection.queryOne("SELECT name FROM users WHERE id = ?", [.id(caller.userId)])?.text("name")
                ?? ""
            let guestId = try row.id("guest_id", as: GuestID.self)
            try await connection.execute(
                """
                INSERT INTO checkins_undone (id, event_id, guest_id, at, client_at, device_id, user_id, by_name,
                    method, note, undone_at, undone_by, undone_by_name, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(checkInId), .id(event.id), .id(guestId), .date(try row.date("at")),
                    .date(try row.date("client_at")), .text(try row.text("device_id")),
                    .text(try row.text("user_id")), .text(try row.text("by_name")), .text(try row.text("method")),
                    .text(try row.text("note")), .date(now), .id(caller.userId), .text(byName), .text(reason),
                ])
            // The guest changed: the next change number, so the roster feed carries them again.
            guard
                let seq = try await connection.queryOne(
                    "UPDATE events SET seq = seq + 1 WHERE id = ? RETURNING seq", [.id(event.id)])?.int("seq")
            else { throw StoreError.notFound }
            try await connection.execute(
                "UPDATE guests SET seq = ? WHERE id = ? AND event_id = ?", [.int(seq), .id(guestId), .id(event.id)])
            try await connection.execute(
                """
                INSERT INTO audit_log (tenant_id, event_id, seq, kind, guest_id, device_id, user_id, at, client_at, method)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(event.tenantId), .id(event.id), .int(seq), .text(AuditKind.checkInUndone.rawValue),
                    .id(guestId), .optionalText(nil), .id(caller.userId), .date(now), .date(try row.date("at")),
                    .text(reason),
                ])
            return UndoneCheckIn(
                checkIn: try Self.checkInRecord(row, guestId: guestId), undoneAt: now, undoneByName: byName,
                reason: reason)
        }
    }

    /// The check-ins of a guest that were taken back, newest first.
    func undoneCheckIns(eventId: EventID, guestId: GuestID) async throws -> [UndoneCheckIn] {
        try await database.read { connection in
            try await connection.query(
                "\(Self.undoneSelect) WHERE event_id = ? AND guest_id = ? ORDER BY undone_at DESC, id",
                [.id(eventId), .id(guestId)]
            ).map(Self.undoneCheckIn(from:))
        }
    }

    private static let undoneSelect = """
        SELECT id, guest_id, at, client_at, device_id, by_name, undone_at, undone_by_name, reason FROM checkins_undone
        """

    private static func undone(
        _ connection: any SQLConnection, eventId: EventID, checkInId: CheckInID
    ) async throws -> UndoneCheckIn? {
        try await connection.queryOne(
            "\(undoneSelect) WHERE id = ? AND event_id = ?", [.id(checkInId), .id(eventId)]
        ).map(undoneCheckIn(from:))
    }

    private static func undoneCheckIn(from row: SQLRow) throws -> UndoneCheckIn {
        UndoneCheckIn(
            checkIn: try checkInRecord(row, guestId: try row.id("guest_id")), undoneAt: try row.date("undone_at"),
            undoneByName: try row.text("undone_by_name"), reason: try row.text("reason"))
    }

    private static func checkInRecord(_ row: SQLRow, guestId: GuestID) throws -> CheckInRecord {
        CheckInRecord(
            id: try row.id("id"), guestId: guestId, at: try row.date("at"), clientAt: try row.date("client_at"),
            byName: try row.text("by_name"), deviceId: try row.text("device_id"))
    }
}
