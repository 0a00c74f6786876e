import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// A correction of one of the worker's sessions, as the device keeps it: the session it was
/// made to (which a deletion removed), and who changed what and when.
package struct SessionCorrectionRecord: Codable, Sendable, Hashable {
    package var sessionId: UUID
    package var location: LocationID
    package var method: TrackingMethod
    package var short: Bool
    package var breakMinutes: Int
    package var correction: SessionCorrection
}

extension ModuleStore where Owner == TrackingModule {
    /// Changes a finished session's start or end (seed 003's `UPDATE_TRACKING_START`/`END`;
    /// nil keeps that end): the new times end after they start, not in the future, within 24
    /// hours and overlapping no other session there, and no day the old or new times touch is
    /// confirmed. The times as tracked are kept on the session (at its first correction), and
    /// the change is a row of who, when, before and after. False when nothing changed.
    @discardableResult
    package func correctSession(
        _ id: UUID, start: Date?, end: Date?, now: Date, by user: UserID, owner: UserID,
        days: @escaping (Date, Date) -> [String]
    ) throws -> Bool {
        try queue.write { db in
            guard let session = try Self.ownedSession(db, id, owner: owner), let clockOut = session.clockOut else {
                throw TrackingError.noSuchSession
            }
            let newIn = start ?? session.clockIn
            let newOut = end ?? clockOut
            guard newIn != session.clockIn || newOut != clockOut else { return false }
            guard newOut > newIn else { throw TrackingError.endBeforeStart }
            guard newOut <= now else { throw TrackingError.endInFuture }
            guard newOut.timeIntervalSince(newIn) <= TrackedSession.longestManual else {
                throw TrackingError.sessionTooLong
            }
            guard session.breakMinutes <= Int(newOut.timeIntervalSince(newIn) / 60) else {
                throw TrackingError.breakTooLong
            }
            for day in Set(days(session.clockIn, clockOut) + days(newIn, newOut)).sorted()
            where try isConfirmed(db, day: day, owner: owner) {
                throw TrackingError.dayConfirmed(day)
            }
            let overlapping =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM track_sessions WHERE location_id = ? AND id <> ?
                            AND clock_in < ? AND COALESCE(clock_out, ?) > ?)
                        """,
                    arguments: [
                        session.location.wire, id.uuidString, newOut.millisecondsSince1970, Int64.max,
                        newIn.millisecondsSince1970,
                    ]) ?? false
            guard !overlapping else { throw TrackingError.overlapping }
            try db.execute(
                sql: """
                    UPDATE track_sessions SET clock_in = ?, clock_out = ?, short = ?,
                        tracked_clock_in = COALESCE(tracked_clock_in, ?),
                        tracked_clock_out = COALESCE(tracked_clock_out, ?)
                    WHERE id = ? AND owner = ?
                    """,
                arguments: [
                    newIn.millisecondsSince1970, newOut.millisecondsSince1970, newOut.timeIntervalSince(newIn) < 300,
                    session.clockIn.millisecondsSince1970, clockOut.millisecondsSince1970, id.uuidString, owner.wire,
                ])
            try Self.recordCorrection(
                db, session, before: SessionTimes(clockIn: session.clockIn, clockOut: clockOut),
                after: SessionTimes(clockIn: newIn, clockOut: newOut), by: user, at: now, owner: owner)
            return true
        }
    }

    /// Deletes a finished session on a day not confirmed; its times and the deletion are kept
    /// as a correction row (the data export and the day's submission carry it).
    package func deleteSession(
        _ id: UUID, now: Date, by user: UserID, owner: UserID, days: @escaping (Date, Date) -> [String]
    ) throws {
        try queue.write { db in
            guard let session = try Self.ownedSession(db, id, owner: owner), let clockOut = session.clockOut else {
                throw TrackingError.noSuchSession
            }
            for day in days(session.clockIn, clockOut) where try isConfirmed(db, day: day, owner: owner) {
                throw TrackingError.dayConfirmed(day)
            }
            try Self.recordCorrection(
                db, session, before: SessionTimes(clockIn: session.clockIn, clockOut: clockOut), after: nil, by: user,
                at: now, owner: owner)
            try db.execute(
                sql: "DELETE FROM track_sessions WHERE id = ? AND owner = ?", arguments: [id.uuidString, owner.wire])
        }
    }

    /// One of the owner's sessions by id.
    package func session(_ id: UUID, owner: UserID) throws -> TrackedSession? {
        try readStatement { db in try Self.ownedSession(db, id, owner: owner) }
    }

    /// Every correction of the owner's sessions, oldest first.
    package func sessionCorrections(owner: UserID) throws -> [SessionCorrectionRecord] {
        try readStatement { db in try Self.sessionCorrections(db, owner: owner) }
    }

    package static func sessionCorrections(_ db: Database, owner: UserID) throws -> [SessionCorrectionRecord] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT session_id, location_id, method, short, break_minutes, before_in, before_out, after_in,
                    after_out, by, at
                FROM track_corrections WHERE owner = ? ORDER BY id
                """, arguments: [owner.wire]
        ).map { row in
            guard let id = UUID(uuidString: row["session_id"]), let location = LocationID(wire: row["location_id"]),
                let method = TrackingMethod(rawValue: row["method"]), let by = UserID(wire: row["by"])
            else { throw DeviceStoreError.damaged("a session's correction cannot be read") }
            let afterIn = (row["after_in"] as Int64?).map(Date.init(millisecondsSince1970:))
            let afterOut = (row["after_out"] as Int64?).map(Date.init(millisecondsSince1970:))
            return SessionCorrectionRecord(
                sessionId: id, location: location, method: method, short: row["short"],
                breakMinutes: row["break_minutes"],
                correction: SessionCorrection(
                    by: by, at: Date(millisecondsSince1970: row["at"]),
                    before: SessionTimes(
                        clockIn: Date(millisecondsSince1970: row["before_in"]),
                        clockOut: Date(millisecondsSince1970: row["before_out"])),
                    after: afterIn.flatMap { start in afterOut.map { SessionTimes(clockIn: start, clockOut: $0) } }))
        }
    }

    private static func recordCorrection(
        _ db: Database, _ session: TrackedSession, before: SessionTimes, after: SessionTimes?, by user: UserID,
        at now: Date, owner: UserID
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO track_corrections (owner, session_id, location_id, method, short, break_minutes, before_in,
                    before_out, after_in, after_out, by, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                owner.wire, session.id.uuidString, session.location.wire, session.method.rawValue, session.short,
                session.breakMinutes, before.clockIn.millisecondsSince1970, before.clockOut.millisecondsSince1970,
                after?.clockIn.millisecondsSince1970, after?.clockOut.millisecondsSince1970, user.wire,
                now.millisecondsSince1970,
            ])
    }
}
