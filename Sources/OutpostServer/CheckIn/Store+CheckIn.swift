import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// One check-in request, validated and ready for the database.
struct CheckInCommand: Sendable {
    var caller: Caller
    var eventId: UUID
    var guestId: UUID
    var idempotencyKey: String
    /// SHA-256 of the request's canonical form, to tell a retry from a reused key.
    var requestHash: [UInt8]
    var request: CheckInRequest
    var now: Date
    var dedupeWindow: TimeInterval
}

/// What the database decided.
enum CheckInOutcome: Sendable, Equatable {
    case checkedIn(CheckInRecord)
    case alreadyCheckedIn(CheckInRecord)
    case reconfirmed(CheckInRecord)
    case notAdmissible
    case notFound
    /// The event is not one the caller can see (another tenant's, not on the caller's staff, or
    /// none): answered exactly like `notFound`, recorded under the caller's tenant only.
    case eventNotVisible
}

/// An HTTP answer exactly as it was first sent.
struct StoredAnswer: Sendable, Equatable {
    var status: Int
    var body: [UInt8]
}

/// How a check-in request ended.
enum CheckInAnswer: Sendable {
    /// Decided now; the answer is stored under the key.
    case fresh(StoredAnswer, CheckInOutcome)
    /// A retry: the stored answer of the first request with this key.
    case replayed(StoredAnswer)
    /// The key was used before with a different request.
    case keyReused
}

extension Store {
    /// Applies a check-in at most once per Idempotency-Key, in one transaction: the key is claimed
    /// first (a concurrent request with the same key waits on it, then replays the stored answer),
    /// then the event's row lock orders the decision against every other writer of the event, and
    /// the unique (event, guest) constraint backs the one-check-in-row rule.
    func checkIn(
        _ command: CheckInCommand, render: @Sendable (CheckInOutcome) throws -> StoredAnswer
    ) async throws -> CheckInAnswer {
        try await database.transaction { connection in
            let claimed = try await connection.queryOne(
                """
                INSERT INTO idempotency_keys (tenant_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING RETURNING key
                """,
                [
                    .uuid(command.caller.tenantId), .text(command.idempotencyKey), .blob(command.requestHash),
                    .date(command.now),
                ])
            if claimed == nil {
                guard
                    let stored = try await connection.queryOne(
                        "SELECT request_hash, status, body FROM idempotency_keys WHERE tenant_id = ? AND key = ?",
                        [.uuid(command.caller.tenantId), .text(command.idempotencyKey)])
                else { throw StoreError.notFound }
                guard try stored.blob("request_hash") == command.requestHash else { return .keyReused }
                guard let status = try stored.optionalInt("status"), let body = try stored.optionalBlob("body") else {
                    throw StoreError.notFound
                }
                return .replayed(StoredAnswer(status: Int(status), body: body))
            }
            let outcome = try await decide(connection, command)
            let answer = try render(outcome)
            try await connection.execute(
                "UPDATE idempotency_keys SET status = ?, body = ? WHERE tenant_id = ? AND key = ?",
                [
                    .int(Int64(answer.status)), .blob(answer.body), .uuid(command.caller.tenantId),
                    .text(command.idempotencyKey),
                ])
            return .fresh(answer, outcome)
        }
    }

    private func decide(_ connection: any SQLConnection, _ command: CheckInCommand) async throws -> CheckInOutcome {
        let request = command.request
        let eventText = command.eventId.lowercasedString
        guard let event = try await Self.event(connection, command.eventId, visibleTo: command.caller),
            let seq = try await bumpSequence(connection, eventId: event.id)
        else {
            try await appendAudit(connection, command, eventId: eventText, seq: 0, kind: .rejectedNotFound)
            return .eventNotVisible
        }
        let row = try await connection.queryOne(
            """
            SELECT g.status, c.id AS checkin_id, c.at, c.client_at, c.by_name, c.device_id
            FROM \(Self.guestJoin) WHERE g.id = ? AND g.event_id = ?
            """,
            [.uuid(command.guestId), .uuid(event.id)])
        var facts: GuestFacts?
        var existing: CheckInRecord?
        if let row {
            let status = try row.enumeration("status", as: GuestStatus.self)
            if let checkInId = try row.optionalID("checkin_id", as: CheckInID.self) {
                existing = CheckInRecord(
                    id: checkInId, guestId: GuestID(command.guestId), at: try row.date("at"),
                    clientAt: try row.date("client_at"), byName: try row.text("by_name"),
                    deviceId: try row.text("device_id"))
            }
            facts = GuestFacts(eventId: event.id, status: status, checkedInAt: existing?.at)
        }
        if let ticket = request.ticket, facts != nil {
            let keys = try await Self.eventKeys(connection, eventId: event.id, now: command.now)
            var publicKeys: [TicketKeyID: Curve25519.Signing.PublicKey] = [:]
            for key in keys {
                publicKeys[key.keyID] = try? Curve25519.Signing.PublicKey(rawRepresentation: key.publicKey)
            }
            // The scanner's framing (a suffix, a prefix, case) is not part of the ticket (``ScannedText``).
            let payload = try? TicketCodec.verify(
                ScannedText.normalized(ticket), tenantId: event.tenantId, eventId: event.id, keys: publicKeys)
            if payload?.guestId != command.guestId { facts = nil }
        }
        switch CheckInRules.decide(guest: facts, eventId: event.id, reconfirm: request.reconfirm ?? false) {
        case .notFound:
            try await appendAudit(connection, command, eventId: eventText, seq: seq, kind: .rejectedNotFound)
            return .notFound
        case .notAdmissible:
            try await appendAudit(connection, command, eventId: eventText, seq: seq, kind: .rejectedNotAdmissible)
            return .notAdmissible
        case .checkIn:
            let byName = try await connection.queryOne(
                "SELECT name FROM users WHERE id = ?", [.uuid(command.caller.userId)])
            let record = CheckInRecord(
                id: .random(), guestId: GuestID(command.guestId), at: command.now,
                clientAt: request.scannedAt, byName: try byName?.text("name") ?? "", deviceId: request.deviceId)
            let inserted = try await connection.queryOne(
                """
                INSERT INTO checkins (id, event_id, guest_id, at, client_at, device_id, user_id, by_name, method, note)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
                """,
                [
                    .id(record.id), .uuid(event.id), .uuid(command.guestId), .date(record.at), .date(record.clientAt),
                    .text(record.deviceId), .uuid(command.caller.userId), .text(record.byName),
                    .text(request.method.rawValue), .text(request.note ?? ""),
                ])
            guard inserted != nil else { throw StoreError.notFound }  // unreachable: the event row lock is held
            try await connection.execute(
                "UPDATE guests SET seq = ? WHERE id = ? AND event_id = ?",
                [.int(seq), .uuid(command.guestId), .uuid(event.id)])
            try await appendAudit(connection, command, eventId: eventText, seq: seq, kind: .checkedIn)
            return .checkedIn(record)
        case .alreadyCheckedIn:
            guard let existing else { throw StoreError.notFound }
            let kind = CheckInRules.repeatKind(
                firstAt: existing.at, now: command.now, dedupeWindow: command.dedupeWindow)
            try await appendCheckInEvent(connection, command, checkInId: existing.id, kind: kind.rawValue)
            let auditKind: AuditKind = request.method == .kiosk ? .kioskAlreadyCheckedIn : .alreadyCheckedIn
            try await appendAudit(connection, command, eventId: eventText, seq: seq, kind: auditKind)
            return .alreadyCheckedIn(existing)
        case .reconfirm:
            guard let existing else { throw StoreError.notFound }
            try await appendCheckInEvent(connection, command, checkInId: existing.id, kind: "reconfirm")
            if let note = request.note, !note.isEmpty {
                try await connection.execute(
                    """
                    UPDATE checkins SET note = CASE WHEN note = '' THEN ? ELSE note || ? END WHERE id = ?
                    """,
                    [.text(note), .text("\n" + note), .id(existing.id)])
            }
            try await appendAudit(connection, command, eventId: eventText, seq: seq, kind: .reconfirmed)
            return .reconfirmed(existing)
        }
    }

    private func appendCheckInEvent(
        _ connection: any SQLConnection, _ command: CheckInCommand, checkInId: CheckInID, kind: String
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO checkin_events (id, checkin_id, event_id, guest_id, kind, at, client_at, device_id, user_id, method, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .uuid(UUID()), .id(checkInId), .uuid(command.eventId), .uuid(command.guestId), .text(kind),
                .date(command.now), .date(command.request.scannedAt), .text(command.request.deviceId),
                .uuid(command.caller.userId), .text(command.request.method.rawValue),
                .optionalText(command.request.note),
            ])
    }

    private func appendAudit(
        _ connection: any SQLConnection, _ command: CheckInCommand, eventId: String, seq: Int64, kind: AuditKind
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO audit_log (tenant_id, event_id, seq, kind, guest_id, device_id, user_id, at, client_at, method)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .uuid(command.caller.tenantId), .text(eventId), .int(seq), .text(kind.rawValue), .uuid(command.guestId),
                .text(command.request.deviceId), .uuid(command.caller.userId), .date(command.now),
                .date(command.request.scannedAt), .text(command.request.method.rawValue),
            ])
    }

    /// Check-in rows and check-in event rows of a guest (for tests and diagnostics).
    public func checkInCounts(eventId: UUID, guestId: UUID) async throws -> (checkIns: Int, events: Int) {
        try await database.read { connection in
            let rows = try await connection.queryOne(
                """
                SELECT (SELECT COUNT(*) FROM checkins WHERE event_id = ? AND guest_id = ?) AS checkins,
                       (SELECT COUNT(*) FROM checkin_events WHERE event_id = ? AND guest_id = ?) AS events
                """,
                [.uuid(eventId), .uuid(guestId), .uuid(eventId), .uuid(guestId)])
            return (Int(try rows?.int("checkins") ?? 0), Int(try rows?.int("events") ?? 0))
        }
    }
}
