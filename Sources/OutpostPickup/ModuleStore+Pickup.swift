import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The pickup station's table: every line this device handed out, with how far the server has
/// it: queued (0), answered (1), or counted in the report the device last pulled (2). What the
/// station knows a guest collected is the report plus its own lines not yet in it; each
/// handing-out goes to the outbox in the same transaction.
extension ModuleStore where Owner == PickupModule {
    package static var pickupMigrations: [DeviceMigration] {
        [
            DeviceMigration("pickup lines") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE pickup_lines (
                            redemption_id TEXT NOT NULL, event_id TEXT NOT NULL, guest_id TEXT NOT NULL,
                            item_id TEXT NOT NULL, quantity INTEGER NOT NULL, scanned_at INTEGER NOT NULL,
                            state INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (redemption_id, item_id));
                        CREATE INDEX pickup_lines_guest ON pickup_lines (event_id, guest_id, state);
                        """)
            }
        ]
    }

    /// This device's lines of `eventId` the last pulled report does not count, by item (of
    /// `guestId` only, when given).
    package func uncounted(eventId: EventID, guestId: GuestID? = nil) throws -> [PickupItemID: Int] {
        try readStatement { db in
            var sql = "SELECT item_id, SUM(quantity) AS n FROM pickup_lines WHERE event_id = ? AND state < 2"
            var arguments: StatementArguments = [eventId.wire]
            if let guestId {
                sql += " AND guest_id = ?"
                arguments += [guestId.wire]
            }
            var counts: [PickupItemID: Int] = [:]
            for row in try Row.fetchAll(db, sql: sql + " GROUP BY item_id", arguments: arguments) {
                guard let item = UUID(uuidString: row["item_id"]).map(PickupItemID.init) else {
                    throw DeviceStoreError.damaged("a pickup line's item is not an id")
                }
                counts[item] = row["n"]
            }
            return counts
        }
    }

    /// Records a handing-out and queues it for the server, in one transaction.
    package func record(_ redemption: PickupRedemption, eventId: EventID, owner: UserID, now: Date) throws {
        try queue.write { db in
            for line in redemption.lines {
                try db.execute(
                    sql: """
                        INSERT INTO pickup_lines (redemption_id, event_id, guest_id, item_id, quantity, scanned_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        redemption.id.wire, eventId.wire, redemption.guestId.wire, line.itemId.wire, line.quantity,
                        redemption.scannedAt.millisecondsSince1970,
                    ])
            }
            _ = try enqueue(
                db, kind: .pickupRedemption, eventId: eventId, idempotencyKey: "pickup:\(redemption.id.wire)",
                request: redemption, owner: owner, now: now)
        }
    }

    /// The server answered `redemption` (stored or refused: it is in no report either way that
    /// this device must add to, once the next report comes).
    package func answered(_ db: Database, _ redemption: PickupRedemptionID) throws {
        try db.execute(
            sql: "UPDATE pickup_lines SET state = 1 WHERE redemption_id = ? AND state = 0",
            arguments: [redemption.wire])
    }

    /// The handings-out answered before a report was asked for (the report counts them).
    package func answeredRedemptions(eventId: EventID) throws -> [String] {
        try readStatement { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT redemption_id FROM pickup_lines WHERE event_id = ? AND state = 1",
                arguments: [eventId.wire])
        }
    }

    /// `ids` are counted in the report just pulled.
    package func counted(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try queue.write { db in
            for id in ids {
                try db.execute(sql: "UPDATE pickup_lines SET state = 2 WHERE redemption_id = ?", arguments: [id])
            }
        }
    }

    package func redemption(of row: OutboxRow) throws -> PickupRedemption {
        try request(of: row, as: PickupRedemption.self)
    }
}

extension OutboxKind {
    /// A pickup station's handing-out: `PUT /v1/events/{id}/pickup-redemptions/{redemptionId}`.
    package static let pickupRedemption = OutboxKind(rawValue: "pickup-redemption")
}
