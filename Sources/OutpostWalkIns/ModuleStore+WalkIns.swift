import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// A lease of walk-in places as the device keeps it.
package struct LocalLease: Codable, Sendable, Hashable {
    package var lease: WalkInLease
    /// Places taken so far (the next walk-in takes place `used + 1`).
    package var used: Int
    /// When the lease stops on this device's clock: the server's expiry moved by the offset
    /// measured at the grant (a device clock that is off does not stretch a lease).
    package var expiresLocally: Date
    /// Sealed here: takes no more places; its seal is queued after its walk-ins.
    package var sealed: Bool

    package var left: Int { sealed ? 0 : lease.granted - used }

    package func usable(at now: Date) -> Bool { !sealed && used < lease.granted && now < expiresLocally }
}

/// A walk-in this device added, as its end-of-shift summary reads it (the name and e-mail are
/// in the guest's sealed row and the sealed outbox request, not here).
package struct LocalWalkIn: Sendable, Hashable {
    package var guestId: GuestID
    package var eventId: EventID
    package var deviceId: String
    package var addedAt: Date
    package var payment: WalkInPayment?
}

/// The walk-in module's tables: its leases and the walk-ins this device added. Walk-ins and
/// their slots are written in the same transaction as the guest's roster row and the outbox
/// entry, so a walk-in exists on the device exactly when its place is taken and its request queued.
extension ModuleStore where Owner == WalkInModule {
    package static var walkInMigrations: [DeviceMigration] {
        [
            DeviceMigration("leases and walk-ins") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE walkin_leases (
                            id TEXT PRIMARY KEY, event_id TEXT NOT NULL, access_type_id TEXT NOT NULL,
                            used INTEGER NOT NULL, expires_locally INTEGER NOT NULL, sealed INTEGER NOT NULL,
                            lease BLOB NOT NULL);
                        CREATE INDEX walkin_leases_type ON walkin_leases (event_id, access_type_id, sealed);
                        CREATE TABLE walkins (
                            guest_id TEXT PRIMARY KEY, event_id TEXT NOT NULL, device_id TEXT NOT NULL,
                            added_at INTEGER NOT NULL, amount_minor INTEGER, currency TEXT, method TEXT);
                        CREATE INDEX walkins_event ON walkins (event_id, added_at);
                        """)
            }
        ]
    }

    /// The leases of an event (every access type), oldest first.
    package func leases(eventId: EventID) throws -> [LocalLease] {
        try readStatement { db in try Self.leases(db, eventId: eventId) }
    }

    static func leases(_ db: Database, eventId: EventID) throws -> [LocalLease] {
        try Row.fetchAll(
            db, sql: "SELECT lease, used, expires_locally, sealed FROM walkin_leases WHERE event_id = ? ORDER BY rowid",
            arguments: [eventId.wire]
        ).map { row in
            LocalLease(
                lease: try OutpostJSON.decode(WalkInLease.self, from: row["lease"] as Data), used: row["used"],
                expiresLocally: Date(millisecondsSince1970: row["expires_locally"]), sealed: row["sealed"] as Int == 1)
        }
    }

    /// Keeps a lease the server granted (its answer came back at `localNow` on this clock).
    package func keep(_ lease: WalkInLease, eventId: EventID, localNow: Date) throws {
        let offset = localNow.timeIntervalSince(lease.grantedAt)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO walkin_leases (id, event_id, access_type_id, used, expires_locally, sealed, lease)
                    VALUES (?, ?, ?, 0, ?, 0, ?) ON CONFLICT (id) DO NOTHING
                    """,
                arguments: [
                    lease.id.wire, eventId.wire, lease.accessTypeId.wire,
                    lease.expiresAt.addingTimeInterval(offset).millisecondsSince1970, try OutpostJSON.encode(lease),
                ])
        }
    }

    /// Seals, in one transaction each, the leases of `eventId` that `due` picks: no more places
    /// are taken, and the seal is queued behind the walk-ins already queued. Returns how many.
    @discardableResult
    package func seal(
        eventId: EventID, owner: UserID, now: Date, where due: (LocalLease) -> Bool
    ) throws -> Int {
        try queue.write { db in
            var sealed = 0
            for lease in try Self.leases(db, eventId: eventId) where !lease.sealed && due(lease) {
                try db.execute(
                    sql: "UPDATE walkin_leases SET sealed = 1 WHERE id = ?", arguments: [lease.lease.id.wire])
                _ = try enqueue(
                    db, kind: .walkInSeal, eventId: eventId, idempotencyKey: "seal:\(lease.lease.id.wire)",
                    request: SealEntry(leaseId: lease.lease.id, used: lease.used), owner: owner, now: now)
                sealed += 1
            }
            return sealed
        }
    }

    /// Adds a walk-in in one transaction: takes the next place of a usable lease (when the
    /// access type has a capacity; nil `place` then refuses), writes `guest` through `writeGuest`
    /// (check-in's roster row), the walk-in row and the outbox entry. Returns the request queued.
    package func admit(
        _ request: WalkInRequest, eventId: EventID, limited: Bool, owner: UserID, now: Date,
        writeGuest: (Database) throws -> Void
    ) throws -> WalkInRequest? {
        try queue.write { db in
            var request = request
            if limited {
                guard
                    let lease = try Self.leases(db, eventId: eventId).first(where: {
                        $0.lease.accessTypeId == request.accessTypeId && $0.usable(at: now)
                    })
                else { return nil }
                try db.execute(
                    sql: "UPDATE walkin_leases SET used = used + 1 WHERE id = ?", arguments: [lease.lease.id.wire])
                request.slot = WalkInSlot(leaseId: lease.lease.id, slot: lease.used + 1)
            }
            try writeGuest(db)
            try db.execute(
                sql: """
                    INSERT INTO walkins (guest_id, event_id, device_id, added_at, amount_minor, currency, method)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    request.guestId.wire, eventId.wire, request.deviceId, request.addedAt.millisecondsSince1970,
                    request.payment?.amountMinor, request.payment?.currency, request.payment?.method.rawValue,
                ])
            _ = try enqueue(
                db, kind: .walkIn, eventId: eventId, idempotencyKey: request.idempotencyKey.description,
                request: request, owner: owner, now: now)
            return request
        }
    }

    /// The walk-ins this device added at `eventId`, oldest first.
    package func walkIns(eventId: EventID) throws -> [LocalWalkIn] {
        try readStatement { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT guest_id, event_id, device_id, added_at, amount_minor, currency, method FROM walkins
                    WHERE event_id = ? ORDER BY added_at, guest_id
                    """,
                arguments: [eventId.wire])
        }.compactMap { row in
            guard let guest = GuestID(wire: row["guest_id"]), let event = EventID(wire: row["event_id"]) else {
                return nil
            }
            var payment: WalkInPayment?
            if let amount = row["amount_minor"] as Int?, let currency = row["currency"] as String?,
                let method = (row["method"] as String?).flatMap(PaymentMethod.init)
            {
                payment = WalkInPayment(amountMinor: amount, currency: currency, method: method)
            }
            return LocalWalkIn(
                guestId: guest, eventId: event, deviceId: row["device_id"],
                addedAt: Date(millisecondsSince1970: row["added_at"]), payment: payment)
        }
    }

    /// A walk-in the server refused for good: its row goes (the roster row goes with check-in).
    package func forgetWalkIn(_ db: Database, guestId: GuestID) throws {
        try db.execute(sql: "DELETE FROM walkins WHERE guest_id = ?", arguments: [guestId.wire])
    }

    package func walkInRequest(of row: OutboxRow) throws -> WalkInRequest {
        try request(of: row, as: WalkInRequest.self)
    }

    package func sealEntry(of row: OutboxRow) throws -> SealEntry {
        try request(of: row, as: SealEntry.self)
    }
}

/// A queued seal: the lease and the places it used.
package struct SealEntry: Codable, Sendable, Hashable {
    package var leaseId: WalkInLeaseID
    package var used: Int
}

extension OutboxKind {
    /// A walk-in: `POST /v1/events/{id}/walkins`.
    package static let walkIn = OutboxKind(rawValue: "walkin")
    /// A lease's seal: `POST /v1/events/{id}/walkin-leases/{leaseId}/seal`.
    package static let walkInSeal = OutboxKind(rawValue: "walkin-seal")
}
