import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The zone station's table: every entry and exit this device recorded (ids and times only, as
/// the roster's own index keeps them), what it knows of a guest's presence in a zone and its own
/// share of the count. Each passage goes to the outbox in the same transaction.
extension ModuleStore where Owner == ZonesModule {
    package static var zoneMigrations: [DeviceMigration] {
        [
            DeviceMigration("zone passages") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE zone_passages (
                            id TEXT PRIMARY KEY, event_id TEXT NOT NULL, zone_id TEXT NOT NULL,
                            guest_id TEXT NOT NULL, movement TEXT NOT NULL, scanned_at INTEGER NOT NULL);
                        CREATE INDEX zone_passages_guest ON zone_passages (zone_id, guest_id, scanned_at);
                        """)
            }
        ]
    }

    /// What this device knows of `guestId` in `zoneId`: inside (its last passage here was an
    /// entry) and whether it ever entered.
    package func presence(zoneId: ZoneID, guestId: GuestID) throws -> ZonePresence {
        try readStatement { db in
            let movements = try String.fetchAll(
                db,
                sql: "SELECT movement FROM zone_passages WHERE zone_id = ? AND guest_id = ? ORDER BY scanned_at, id",
                arguments: [zoneId.wire, guestId.wire])
            return ZonePresence(
                inside: movements.last == ZoneMovement.enter.rawValue,
                enteredBefore: movements.contains(ZoneMovement.enter.rawValue))
        }
    }

    /// This device's entries minus exits in `zoneId` scanned after `since` (all when nil).
    package func net(zoneId: ZoneID, since: Date?) throws -> Int {
        try readStatement { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(SUM(CASE movement WHEN 'enter' THEN 1 ELSE -1 END), 0) FROM zone_passages
                    WHERE zone_id = ? AND scanned_at > ?
                    """, arguments: [zoneId.wire, since?.millisecondsSince1970 ?? Int64.min]) ?? 0
        }
    }

    /// Records a passage and queues it for the server, in one transaction.
    package func record(_ passage: ZonePassage, eventId: EventID, owner: UserID, now: Date) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO zone_passages (id, event_id, zone_id, guest_id, movement, scanned_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    passage.id.wire, eventId.wire, passage.zoneId.wire, passage.guestId.wire,
                    passage.movement.rawValue, passage.scannedAt.millisecondsSince1970,
                ])
            _ = try enqueue(
                db, kind: .zonePassage, eventId: eventId, idempotencyKey: "zone-passage:\(passage.id.wire)",
                request: passage, owner: owner, now: now)
        }
    }

    package func passage(of row: OutboxRow) throws -> ZonePassage { try request(of: row, as: ZonePassage.self) }
}

extension OutboxKind {
    /// A zone station's entry or exit: `PUT /v1/events/{id}/zone-passages/{passageId}`.
    package static let zonePassage = OutboxKind(rawValue: "zone-passage")
}
