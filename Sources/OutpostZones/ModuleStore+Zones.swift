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
            },
            // How far the server has each passage: queued (0), answered (1), counted in the report
            // last pulled (2). Counting "scanned after the last pull" missed a passage scanned
            // before a pull whose send had failed (one short). Passages already kept count as
            // answered: until the next pull they may be counted twice, one over rather than short.
            DeviceMigration("zone passages: how far the server has them") { db, _ in
                try db.execute(sql: "ALTER TABLE zone_passages ADD COLUMN state INTEGER NOT NULL DEFAULT 1")
            },
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

    /// This device's entries minus exits in `zoneId` that the last pulled count does not include.
    package func uncountedNet(zoneId: ZoneID) throws -> Int {
        try readStatement { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(SUM(CASE movement WHEN 'enter' THEN 1 ELSE -1 END), 0) FROM zone_passages
                    WHERE zone_id = ? AND state < 2
                    """, arguments: [zoneId.wire]) ?? 0
        }
    }

    /// The server answered `passage` (it is in the next count pulled).
    package func answered(_ db: Database, _ passage: ZonePassageID) throws {
        try db.execute(sql: "UPDATE zone_passages SET state = 1 WHERE id = ? AND state = 0", arguments: [passage.wire])
    }

    /// The passages of `eventId` answered before a count was asked for.
    package func answeredPassages(eventId: EventID) throws -> [String] {
        try readStatement { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM zone_passages WHERE event_id = ? AND state = 1", arguments: [eventId.wire])
        }
    }

    /// `ids` are in the count just pulled.
    package func counted(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try queue.write { db in
            for id in ids { try db.execute(sql: "UPDATE zone_passages SET state = 2 WHERE id = ?", arguments: [id]) }
        }
    }

    /// Records a passage and queues it for the server, in one transaction.
    package func record(_ passage: ZonePassage, eventId: EventID, owner: UserID, now: Date) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO zone_passages (id, event_id, zone_id, guest_id, movement, scanned_at, state)
                    VALUES (?, ?, ?, ?, ?, ?, 0)
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
