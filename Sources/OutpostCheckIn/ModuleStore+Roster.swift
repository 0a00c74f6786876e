import Crypto
import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Check-in's tables in the device store: the roster (guests, access types, ticket keys, the
/// cursor and the kiosk settings that come with it) and the ledger of this device's check-ins.
extension ModuleStore where Owner == CheckInModule {
    /// What a roster page changed for the search: the roster's version before and after it,
    /// read in its own transaction, and (when asked) the guests it added or whose name, e-mail
    /// or code changed.
    package struct RosterPageApplied: Sendable {
        package var versionBefore: Int
        package var versionAfter: Int
        package var rekeyed: [LocalGuest]?
    }

    /// Applies one roster page and its cursor in one transaction. A check-in this device made
    /// that the server has not answered yet survives a page that does not know of it.
    /// `trackChanges`: also name the guests whose search keys the page changed (the keys
    /// digests before the page are read for that), so a built search index can follow.
    @discardableResult
    package func applyRosterPage(
        eventId: EventID, page: RosterPage, trackChanges: Bool = false
    ) throws
        -> RosterPageApplied
    {
        try queue.write { db in
            let versionBefore = try Self.rosterVersion(db, eventId)
            let pendingHere = Set(
                try Data.fetchAll(
                    db, sql: "SELECT id FROM guests WHERE event_id = ? AND local_pending = 1", arguments: [eventId.data]
                ))
            // A guest twice on one page counts once, as the last of its two.
            var place: [GuestID: Int] = [:]
            var guests: [LocalGuest] = []
            guests.reserveCapacity(page.guests.count)
            for guest in page.guests {
                var checkIn = guest.checkIn.map {
                    LocalCheckIn(at: $0.at, byName: $0.byName, deviceId: $0.deviceId, pending: false)
                }
                if checkIn == nil, pendingHere.contains(guest.id.data),
                    let local = try self.guest(db, eventId: eventId, id: guest.id)?.checkIn, local.pending
                {
                    checkIn = local
                }
                let local = LocalGuest(
                    id: guest.id, eventId: eventId, accessTypeId: guest.accessTypeId, name: guest.name,
                    email: guest.email,
                    code: guest.code, notes: guest.notes, status: guest.status, checkIn: checkIn,
                    blockId: guest.blockId, fields: guest.fields)
                if let earlier = place[guest.id] {
                    guests[earlier] = local
                } else {
                    place[guest.id] = guests.count
                    guests.append(local)
                }
            }
            let storedDigests = trackChanges ? try keysDigests(db, eventId: eventId, guests: guests) : nil
            let digests = try writeRosterPages(db, eventId: eventId, guests: guests)
            // New to the store, or their search keys (name, e-mail, code) differ from the stored ones.
            let rekeyed = storedDigests.map { stored in
                zip(guests, digests).filter { stored[$0.0.id.data] != $0.1 }.map(\.0)
            }
            // Every page carries all of the event's guest fields, in order, as it does the blocks.
            try db.execute(sql: "DELETE FROM guest_fields WHERE event_id = ?", arguments: [eventId.wire])
            for (position, field) in page.fields.enumerated() {
                try db.execute(
                    sql: "INSERT INTO guest_fields (event_id, position, sealed) VALUES (?, ?, ?)",
                    arguments: [eventId.wire, position, try sealer.seal(json: field)])
            }
            // Every page carries all of the event's blocks, as it does the access types.
            try db.execute(sql: "DELETE FROM ticket_blocks WHERE event_id = ?", arguments: [eventId.wire])
            for block in page.blocks {
                try db.execute(
                    sql: "INSERT INTO ticket_blocks (event_id, id, sealed) VALUES (?, ?, ?)",
                    arguments: [eventId.wire, block.id.wire, try sealer.seal(json: block)])
            }
            try db.execute(sql: "DELETE FROM access_types WHERE event_id = ?", arguments: [eventId.wire])
            for type in page.accessTypes {
                try db.execute(
                    sql: "INSERT INTO access_types (event_id, id, sealed) VALUES (?, ?, ?)",
                    arguments: [eventId.wire, type.id.wire, try sealer.seal(json: type)])
            }
            try db.execute(sql: "DELETE FROM event_keys WHERE event_id = ?", arguments: [eventId.wire])
            for key in page.keys {
                guard let raw = Base64URL.decode(key.publicKey) else { continue }
                try db.execute(
                    sql: "INSERT INTO event_keys (event_id, key_id, public_key) VALUES (?, ?, ?)",
                    arguments: [eventId.wire, key.keyId, Data(raw)])
            }
            try db.execute(
                sql: """
                    INSERT INTO sync_state (event_id, cursor, synced_at, kiosk) VALUES (?, ?, ?, ?)
                    ON CONFLICT (event_id) DO UPDATE SET cursor = excluded.cursor, synced_at = excluded.synced_at,
                        kiosk = excluded.kiosk
                    """,
                arguments: [
                    eventId.wire, page.cursor, page.serverTime.millisecondsSince1970,
                    try page.kiosk.map { try sealer.seal(json: $0) },
                ])
            return RosterPageApplied(
                versionBefore: versionBefore, versionAfter: try Self.rosterVersion(db, eventId), rekeyed: rekeyed)
        }
    }

    /// The stored keys digests of those of `guests` that are stored, by id.
    private func keysDigests(_ db: Database, eventId: EventID, guests: [LocalGuest]) throws -> [Data: Data] {
        var stored: [Data: Data] = [:]
        for start in stride(from: 0, to: guests.count, by: 500) {
            let ids = guests[start..<min(start + 500, guests.count)].map(\.id.data)
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT id, keys_digest FROM guests
                    WHERE event_id = ? AND id IN (\(databaseQuestionMarks(count: ids.count)))
                    """, arguments: StatementArguments([eventId.data] + ids))
            {
                stored[row["id"]] = row["keys_digest"] as Data? ?? Data()
            }
        }
        return stored
    }

    /// Writes a guest this device changed (a walk-in, a name given at the door, a check-in),
    /// sealed alone: its own box wins over its place on a roster page until the server's next
    /// page that carries it.
    package func upsert(_ db: Database, _ guest: LocalGuest) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO guests (event_id, id, keys_digest, status, checked_in_at, local_pending, sealed, block_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (event_id, id) DO UPDATE SET keys_digest = excluded.keys_digest, status = excluded.status,
                    checked_in_at = excluded.checked_in_at, local_pending = excluded.local_pending,
                    sealed = excluded.sealed, block_id = excluded.block_id
                """)
        try statement.execute(arguments: [
            guest.eventId.data, guest.id.data, sealer.digest([guest.name, guest.email, guest.code]),
            guest.status.rawValue,
            guest.checkIn?.at.millisecondsSince1970, guest.checkIn?.pending == true ? 1 : 0,
            try sealer.seal(guest: guest), guest.blockId?.wire,
        ])
    }

    /// Writes back a guest read in the same transaction `db` whose check-in alone changed (an
    /// outbox answer): the sealed guest and the two check-in columns. Its code, e-mail, name and
    /// status are the stored ones, so its blind indexes and keys digest stand; recomputing them
    /// (three HMACs) and rewriting their index entries was a third of the sealing work per
    /// answer in a drain.
    package func updateCheckIn(_ db: Database, _ guest: LocalGuest) throws {
        try db.cachedStatement(
            sql: "UPDATE guests SET checked_in_at = ?, local_pending = ?, sealed = ? WHERE event_id = ? AND id = ?"
        ).execute(arguments: [
            guest.checkIn?.at.millisecondsSince1970, guest.checkIn?.pending == true ? 1 : 0,
            try sealer.seal(guest: guest), guest.eventId.data, guest.id.data,
        ])
    }

    /// The stored cursor of an event's roster; nil before the first page.
    package func cursor(eventId: EventID) throws -> String? {
        try readStatement { db in
            try String.fetchOne(db, sql: "SELECT cursor FROM sync_state WHERE event_id = ?", arguments: [eventId.wire])
        }
    }

    /// Forgets the stored cursor of an event's roster: the next pull fetches every guest again.
    package func forgetCursor(eventId: EventID) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE sync_state SET cursor = NULL WHERE event_id = ?", arguments: [eventId.wire])
        }
    }

    /// When an event's roster was last brought up to date (the server's time of its last page).
    package func rosterSyncedAt(eventId: EventID) throws -> Date? {
        try readStatement { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT synced_at FROM sync_state WHERE event_id = ?"),
                arguments: [eventId.wire])
        }.map(Date.init(millisecondsSince1970:))
    }

    package func kiosk(eventId: EventID) throws -> KioskInfo? {
        try readStatement { db in
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT kiosk FROM sync_state WHERE event_id = ?"), arguments: [eventId.wire])
        }.map { try sealer.open(json: $0, as: KioskInfo.self) }
    }

    package func guest(eventId: EventID, id: GuestID) throws -> LocalGuest? {
        try readStatement { db in try guest(db, eventId: eventId, id: id) }
    }

    /// The guest, read inside the caller's access `db`.
    package func guest(_ db: Database, eventId: EventID, id: GuestID) throws -> LocalGuest? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT \(Self.guestColumns) FROM \(Self.guestSource) WHERE g.event_id = ? AND g.id = ?"),
            arguments: [eventId.data, id.data]
        ).map { try openGuest(row: $0, eventId: eventId) }
    }

    /// The event's guest fields, in order, as the last roster page carried them.
    package func guestFields(eventId: EventID) throws -> [GuestField] {
        try readStatement { db in
            try Data.fetchAll(
                db, sql: "SELECT sealed FROM guest_fields WHERE event_id = ? ORDER BY position",
                arguments: [eventId.wire])
        }.map { try sealer.open(json: $0, as: GuestField.self) }
    }

    /// The event's ticket blocks, as the last roster page carried them.
    package func ticketBlocks(eventId: EventID) throws -> [RosterBlock] {
        try readStatement { db in
            try Data.fetchAll(
                db, sql: "SELECT sealed FROM ticket_blocks WHERE event_id = ? ORDER BY id", arguments: [eventId.wire])
        }.map { try sealer.open(json: $0, as: RosterBlock.self) }
    }

    /// A ticket of the block nobody has named yet that the door may admit, if one is left.
    package func unnamedTicket(eventId: EventID, blockId: TicketBlockID) throws -> LocalGuest? {
        try readStatement { db in
            var pages: [Int64: RosterPageCoding.Page] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.guestColumns) FROM \(Self.guestSource) WHERE g.event_id = ? AND g.block_id = ?
                    ORDER BY g.id
                    """,
                arguments: [eventId.data, blockId.wire])
            for row in rows {
                let guest = try openGuest(row: row, eventId: eventId, pages: &pages)
                if guest.name.isEmpty && guest.status.isAdmissible { return guest }
            }
            return nil
        }
    }

    package func accessTypes(eventId: EventID) throws -> [AccessTypeInfo] {
        try readStatement { db in
            try Data.fetchAll(
                db.cachedStatement(sql: "SELECT sealed FROM access_types WHERE event_id = ?"), arguments: [eventId.wire]
            )
        }.map { try sealer.open(json: $0, as: AccessTypeInfo.self) }
    }

    /// The event's ticket keys, for offline verification.
    package func ticketKeys(eventId: EventID) throws -> [TicketKeyID: Curve25519.Signing.PublicKey] {
        let rows = try readStatement { db in
            try Row.fetchAll(
                db, sql: "SELECT key_id, public_key FROM event_keys WHERE event_id = ?", arguments: [eventId.wire])
        }
        var keys: [TicketKeyID: Curve25519.Signing.PublicKey] = [:]
        for row in rows {
            // A damaged key row verifies nothing; its tickets answer "unknown key", never admit.
            guard let id = TicketKeyID(hex: row["key_id"]),
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: row["public_key"] as Data)
            else { continue }
            keys[id] = key
        }
        return keys
    }

    /// Every check-in confirmed on this device that the store still holds, answered ones first
    /// (by key), then the outbox in replay order, damaged rows included. Sign-out forgets the
    /// answers; with discard, the user's entries too.
    package func ledger() throws -> [CheckInLedgerEntry] {
        let answers = try readStatement { db in
            // Check-in's answers; those stored before answers had a kind are listed as before.
            try Row.fetchAll(
                db,
                sql: """
                    SELECT idempotency_key, status, body FROM answers WHERE kind = ? OR kind IS NULL
                    ORDER BY idempotency_key
                    """, arguments: [OutboxKind.checkIn.rawValue])
        }
        var entries: [CheckInLedgerEntry] = try answers.map { row in
            let status: Int = row["status"]
            let body = try sealer.open(row["body"] as Data)
            var entry = CheckInLedgerEntry(idempotencyKey: row["idempotency_key"], state: .answered, status: status)
            // An answer that is not a check-in's is listed by its status and error alone.
            if (200..<300).contains(status), let answer = try? OutpostJSON.decode(CheckInResponse.self, from: body) {
                entry.result = answer.result.rawValue
                entry.checkInDeviceId = answer.checkIn.deviceId
            } else {
                // A refusal without the server's error body is listed by its status alone.
                entry.error = try? OutpostJSON.decode(ErrorBody.self, from: body).error
            }
            return entry
        }
        // The outbox by its plaintext columns: a row that cannot be unsealed is still listed.
        let answered = Dictionary(entries.enumerated().map { ($1.idempotencyKey, $0) }) { first, _ in first }
        for row in try outboxRows(kind: .checkIn) {
            let state: CheckInLedgerEntry.State =
                switch row.state {
                case .pending: .pending
                case .rejected: .rejected
                case .quarantined: .quarantined
                }
            if let index = answered[row.idempotencyKey] {
                // A refusal is stored as an answer too; the entry's state says it was refused.
                if state != .pending { entries[index].state = state }
                continue
            }
            entries.append(CheckInLedgerEntry(idempotencyKey: row.idempotencyKey, state: state, error: row.lastError))
        }
        return entries
    }

}
