import Foundation
import OutpostCore
import OutpostProtocol

/// One walk-in request, validated and ready for the database.
struct WalkInCommand: Sendable {
    var caller: Caller
    var eventId: EventID
    var request: WalkInRequest
    var idempotencyKey: String
    var requestHash: [UInt8]
    var now: Date
}

/// What the database decided for a walk-in.
enum WalkInOutcome: Sendable, Equatable {
    case added(WalkInResponse)
    /// The access type is not the event's, or does not admit walk-ins.
    case notAllowed
    /// Another guest already has the id the device made (another request's guest).
    case guestIdTaken
    /// The event is not one the caller can see.
    case eventNotVisible
}

/// How a walk-in request ended.
enum WalkInAnswer: Sendable {
    case fresh(StoredAnswer, WalkInOutcome)
    case replayed(StoredAnswer)
    case keyReused
}

extension Store {
    /// Two walk-ins with the same folded name added this close together may be one person
    /// added at two doors.
    static let walkInDuplicateWindow: TimeInterval = 10 * 60

    /// Adds a walk-in at most once per Idempotency-Key: the guest, their check-in (method
    /// `walk_in`, audited like any check-in, with the event's next sequence number so every
    /// device's roster gets them) and the walk-in row, in one transaction. A walk-in is someone
    /// staff already let in: it is never refused for capacity. One without a valid leased place
    /// (no lease, a place past the grant or the seal, a place taken twice) is kept and flagged
    /// over capacity; one that may be a guest already known (the same e-mail, or the same name
    /// added at another door within ``walkInDuplicateWindow``) is kept and flagged with that
    /// guest, never merged.
    func addWalkIn(
        _ command: WalkInCommand, render: @Sendable (WalkInOutcome) throws -> StoredAnswer
    ) async throws -> WalkInAnswer {
        try await database.transaction { connection in
            let tenant = command.caller.tenantId
            guard
                try await Self.claimKey(
                    connection, tenantId: tenant, key: command.idempotencyKey, hash: command.requestHash,
                    now: command.now)
            else {
                return try await Self.earlierAnswer(
                    connection, tenantId: tenant, key: command.idempotencyKey, hash: command.requestHash
                ).map(WalkInAnswer.replayed) ?? .keyReused
            }
            let outcome = try await self.decideWalkIn(connection, command)
            let answer = try render(outcome)
            try await Self.keepAnswer(connection, tenantId: tenant, key: command.idempotencyKey, answer: answer)
            return .fresh(answer, outcome)
        }
    }

    private func decideWalkIn(_ connection: any SQLConnection, _ command: WalkInCommand) async throws -> WalkInOutcome {
        let request = command.request
        guard try await Self.event(connection, command.eventId, visibleTo: command.caller) != nil else {
            return .eventNotVisible
        }
        guard
            let type = try await connection.queryOne(
                "SELECT walk_in_allowed, walk_in_capacity FROM access_types WHERE id = ? AND event_id = ?",
                [.id(request.accessTypeId), .id(command.eventId)]), try type.bool("walk_in_allowed")
        else { return .notAllowed }
        if try await connection.queryOne("SELECT 1 FROM guests WHERE id = ?", [.id(request.guestId)]) != nil {
            return .guestIdTaken
        }
        let limited = try type.optionalInt("walk_in_capacity") != nil
        let overCapacity = limited ? !(try await Self.validPlace(connection, command)) : false
        let email = request.email?.trimmingCharacters(in: .whitespaces) ?? ""
        let duplicate = try await Self.possibleDuplicate(
            connection, eventId: command.eventId, name: request.name, email: email, addedAt: request.addedAt)
        guard let seq = try await bumpSequence(connection, eventId: command.eventId) else { throw StoreError.notFound }
        let byName =
            try await connection.queryOne("SELECT name FROM users WHERE id = ?", [.id(command.caller.userId)])?
            .text("name") ?? ""
        let code = try await Self.insertWalkInGuest(connection, command, email: email, seq: seq)
        let checkIn = CheckInRecord(
            id: .random(), guestId: request.guestId, at: command.now, clientAt: request.addedAt, byName: byName,
            deviceId: request.deviceId)
        try await connection.execute(
            """
            INSERT INTO checkins (id, event_id, guest_id, at, client_at, device_id, user_id, by_name, method, note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '')
            """,
            [
                .id(checkIn.id), .id(command.eventId), .id(request.guestId), .date(checkIn.at),
                .date(checkIn.clientAt), .text(request.deviceId), .id(command.caller.userId), .text(byName),
                .text(CheckInMethod.walkIn.rawValue),
            ])
        try await connection.execute(
            """
            INSERT INTO walkins (guest_id, tenant_id, event_id, access_type_id, lease_id, slot, device_id, user_id,
                by_name, amount_minor, currency, payment_method, added_at, at, duplicate_of, over_capacity)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .id(request.guestId), .id(command.caller.tenantId), .id(command.eventId), .id(request.accessTypeId),
                request.slot.map { .id($0.leaseId) } ?? .null, request.slot.map { .int(Int64($0.slot)) } ?? .null,
                .text(request.deviceId), .id(command.caller.userId), .text(byName),
                request.payment.map { .int(Int64($0.amountMinor)) } ?? .null,
                .optionalText(request.payment?.currency), .optionalText(request.payment?.method.rawValue),
                .date(request.addedAt), .date(command.now), duplicate.map { .id($0) } ?? .null,
                .bool(overCapacity),
            ])
        try await connection.execute(
            """
            INSERT INTO audit_log (tenant_id, event_id, seq, kind, guest_id, device_id, user_id, at, client_at, method)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .id(command.caller.tenantId), .id(command.eventId), .int(seq), .text(AuditKind.checkedIn.rawValue),
                .id(request.guestId), .text(request.deviceId), .id(command.caller.userId), .date(command.now),
                .date(request.addedAt), .text(CheckInMethod.walkIn.rawValue),
            ])
        let record = WalkInRecord(
            guestId: request.guestId, accessTypeId: request.accessTypeId, name: request.name, email: email, code: code,
            payment: request.payment, addedAt: request.addedAt, at: command.now, byName: byName,
            deviceId: request.deviceId, slot: request.slot, possibleDuplicateOf: duplicate,
            overCapacity: overCapacity)
        return .added(WalkInResponse(walkIn: record, checkIn: checkIn))
    }

    /// True when the walk-in's place is one its device was leased for this access type, within
    /// the grant (and the seal, once sealed), and no other walk-in took it.
    private static func validPlace(_ connection: any SQLConnection, _ command: WalkInCommand) async throws -> Bool {
        let request = command.request
        guard let slot = request.slot, slot.slot >= 1,
            let lease = try await connection.queryOne(
                """
                SELECT granted, used FROM walkin_leases
                WHERE id = ? AND tenant_id = ? AND event_id = ? AND access_type_id = ? AND device_id = ?
                """,
                [
                    .id(slot.leaseId), .id(command.caller.tenantId), .id(command.eventId), .id(request.accessTypeId),
                    .text(request.deviceId),
                ])
        else { return false }
        let limit = try lease.optionalInt("used") ?? lease.int("granted")
        guard Int64(slot.slot) <= limit else { return false }
        return try await connection.queryOne(
            "SELECT 1 FROM walkins WHERE lease_id = ? AND slot = ? AND over_capacity = 0",
            [.id(slot.leaseId), .int(Int64(slot.slot))]) == nil
    }

    /// A guest of the event the walk-in may be: one with the same e-mail, else a walk-in with the
    /// same folded name added within ``walkInDuplicateWindow`` of this one.
    private static func possibleDuplicate(
        _ connection: any SQLConnection, eventId: EventID, name: String, email: String, addedAt: Date
    ) async throws -> GuestID? {
        if !email.isEmpty,
            let row = try await connection.queryOne(
                "SELECT id FROM guests WHERE event_id = ? AND lower(email) = ? ORDER BY created_at, id LIMIT 1",
                [.id(eventId), .text(email.lowercased())])
        {
            return try row.id("id")
        }
        // The walk-ins of those minutes are few: their names are compared here, folded and with
        // spaces collapsed ("  ana  RUIZ " is "Ana Ruiz").
        let near = try await connection.query(
            """
            SELECT w.guest_id, g.name FROM walkins w JOIN guests g ON g.id = w.guest_id
            WHERE w.event_id = ? AND w.added_at BETWEEN ? AND ? ORDER BY w.added_at, w.guest_id
            """,
            [
                .id(eventId), .date(addedAt.addingTimeInterval(-walkInDuplicateWindow)),
                .date(addedAt.addingTimeInterval(walkInDuplicateWindow)),
            ])
        let wanted = duplicateKey(name)
        return try near.first { try duplicateKey($0.text("name")) == wanted }?.id("guest_id")
    }

    /// A name as duplicates are matched: case, diacritics and width folded, spaces collapsed.
    static func duplicateKey(_ name: String) -> String {
        GuestNameKey.of(name).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The walk-in's guest row under the id the device made, with a fresh code; returns the code.
    private static func insertWalkInGuest(
        _ connection: any SQLConnection, _ command: WalkInCommand, email: String, seq: Int64
    ) async throws -> String {
        let request = command.request
        for _ in 0..<5 {
            let code = makeGuestCode()
            let inserted = try await connection.queryOne(
                """
                INSERT INTO guests
                    (id, event_id, access_type_id, name, email, code, status, notes, seq, created_at, name_key)
                VALUES (?, ?, ?, ?, ?, ?, 'confirmed', '', ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
                """,
                [
                    .id(request.guestId), .id(command.eventId), .id(request.accessTypeId), .text(request.name),
                    .text(email), .text(code), .int(seq), .date(command.now), .text(GuestNameKey.of(request.name)),
                ])
            if inserted != nil { return code }
        }
        throw StoreError.notFound
    }

    /// The event's walk-ins, newest first.
    func walkIns(eventId: EventID) async throws -> [WalkInRecord] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT w.*, g.name, g.email, g.code FROM walkins w JOIN guests g ON g.id = w.guest_id
                WHERE w.event_id = ? ORDER BY w.at DESC, w.guest_id
                """,
                [.id(eventId)]
            ).map(Self.walkIn(from:))
        }
    }

    static func walkIn(from row: SQLRow) throws -> WalkInRecord {
        var payment: WalkInPayment?
        if let amount = try row.optionalInt("amount_minor"), let currency = try row.optionalText("currency"),
            let method = try row.optionalText("payment_method").flatMap(PaymentMethod.init)
        {
            payment = WalkInPayment(amountMinor: Int(amount), currency: currency, method: method)
        }
        var slot: WalkInSlot?
        if let lease = try row.optionalID("lease_id", as: WalkInLeaseID.self),
            let number = try row.optionalInt("slot")
        {
            slot = WalkInSlot(leaseId: lease, slot: Int(number))
        }
        return WalkInRecord(
            guestId: try row.id("guest_id"), accessTypeId: try row.id("access_type_id"), name: try row.text("name"),
            email: try row.text("email"), code: try row.text("code"), payment: payment,
            addedAt: try row.date("added_at"), at: try row.date("at"), byName: try row.text("by_name"),
            deviceId: try row.text("device_id"), slot: slot,
            possibleDuplicateOf: try row.optionalID("duplicate_of"),
            overCapacity: try row.bool("over_capacity"))
    }
}
