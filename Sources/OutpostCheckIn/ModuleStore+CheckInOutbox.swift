import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

extension OutboxKind {
    /// A check-in from the check-in tab or the kiosk: `POST /v1/events/{id}/checkins`.
    public static let checkIn = OutboxKind(rawValue: "checkin")
}

extension ModuleStore where Owner == CheckInModule {
    /// Commits a check-in locally: the guest's check-in state and its outbox entry (owned by
    /// `owner`, with its Idempotency-Key fixed now), and what `journal` writes with them (the
    /// venue mesh's entry), in one transaction, before anything touches the network.
    package func confirmCheckIn(
        guest: LocalGuest, request: CheckInRequest, byName: String, owner: UserID, now: Date,
        journal: (Database) throws -> Void = { _ in }
    ) throws -> CheckInEntry {
        let key = request.idempotencyKey.description
        return try queue.write { db in
            var updated = guest
            if updated.checkIn == nil {
                updated.checkIn = LocalCheckIn(
                    at: request.scannedAt, byName: byName, deviceId: request.deviceId, pending: true)
                try upsert(db, updated)
            }
            let id = try enqueue(
                db, kind: .checkIn, eventId: guest.eventId, idempotencyKey: key, request: request, owner: owner,
                now: now)
            try journal(db)
            return CheckInEntry(
                id: id.rawValue, eventId: guest.eventId, idempotencyKey: key, request: request, attempts: 0,
                nextAttemptAt: .distantPast, state: .pending, lastError: nil)
        }
    }

    /// The check-in request of a row; throws when the row cannot be unsealed (damaged).
    package func checkInRequest(of row: OutboxRow) throws -> CheckInRequest {
        try request(of: row, as: CheckInRequest.self)
    }

    /// The readable check-in entries in `state`, oldest first, of `owner` (nil: every owner).
    /// A row that cannot be unsealed is left out here; the replayer quarantines it.
    package func outbox(state: OutboxState = .pending, owner: UserID?) throws -> [CheckInEntry] {
        // Filtered in SQL (by the state index): every screen reload asks for the refused
        // entries, and reading the whole queue made each action cost more the longer it grew.
        try outboxRows(kind: .checkIn, state: state).filter { owner == nil || $0.owner == owner }.compactMap { row in
            // A row that cannot be unsealed is the replayer's to quarantine, not this list's.
            guard row.kind == .checkIn, let eventId = row.eventId, let request = try? checkInRequest(of: row) else {
                return nil
            }
            return CheckInEntry(
                id: row.id.rawValue, eventId: eventId, idempotencyKey: row.idempotencyKey, request: request,
                attempts: row.attempts, nextAttemptAt: row.nextAttemptAt, state: row.state, lastError: row.lastError)
        }
    }

    /// Check-ins of `eventId` this device still holds, of every user who signed in on it (what
    /// it reports to the organizer's door dashboard).
    package func pendingCheckIns(eventId: EventID) throws -> Int {
        try readStatement { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending' AND kind = ? AND event_id = ?",
                arguments: [OutboxKind.checkIn.rawValue, eventId.wire]) ?? 0
        }
    }
}
