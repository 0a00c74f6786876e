import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// A badge in the device's print queue. Kept until the printer has printed it: paper out or a
/// printer switched off leaves it queued and it is retried; the printer is asked about the job
/// (by its id) before it is ever sent again, so nothing is printed twice unless staff ask.
package struct PrintJobRecord: Codable, Sendable, Hashable {
    package enum State: String, Codable, Sendable {
        /// Not received by the printer yet.
        case queued
        /// The printer has it (a CUPS queue may hold it while it is out of labels).
        case sent
        case printed
        /// The printer canceled or aborted it: only staff's reprint prints the badge now.
        case failed
    }

    package var id: BadgePrintID
    package var eventId: EventID
    package var guestId: GuestID
    package var reprint: Bool
    package var reason: String?
    /// The scanned ticket the check-in came from, for the badge's QR (else the guest's code).
    package var ticket: String?
    package var state: State
    package var attempts: Int
    package var lastError: String?
    package var createdAt: Date
    package var printedAt: Date?
    package var owner: UserID
}

/// The print module's table: its queue of badges, sealed at rest (a ticket is a credential).
extension ModuleStore where Owner == PrintModule {
    package static var printMigrations: [DeviceMigration] {
        [
            DeviceMigration("the badge queue") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE print_jobs (
                            id TEXT PRIMARY KEY, event_id TEXT NOT NULL, guest_id TEXT NOT NULL,
                            state TEXT NOT NULL, created_at INTEGER NOT NULL, sealed BLOB NOT NULL);
                        CREATE INDEX print_jobs_state ON print_jobs (state, created_at);
                        CREATE INDEX print_jobs_guest ON print_jobs (event_id, guest_id);
                        """)
            }
        ]
    }

    package func keep(_ job: PrintJobRecord) throws {
        try queue.write { db in try Self.keep(db, job, sealer: sealer) }
    }

    static func keep(_ db: Database, _ job: PrintJobRecord, sealer: Sealer) throws {
        try db.execute(
            sql: """
                INSERT INTO print_jobs (id, event_id, guest_id, state, created_at, sealed) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET state = excluded.state, sealed = excluded.sealed
                """,
            arguments: [
                job.id.wire, job.eventId.wire, job.guestId.wire, job.state.rawValue,
                job.createdAt.millisecondsSince1970,
                try sealer.seal(json: job),
            ])
    }

    /// Jobs in `states`, oldest first.
    package func jobs(in states: [PrintJobRecord.State]) throws -> [PrintJobRecord] {
        let marks = Array(repeating: "?", count: states.count).joined(separator: ", ")
        return try readStatement { db in
            try Data.fetchAll(
                db, sql: "SELECT sealed FROM print_jobs WHERE state IN (\(marks)) ORDER BY created_at, id",
                arguments: StatementArguments(states.map(\.rawValue)))
        }.map { try sealer.open(json: $0, as: PrintJobRecord.self) }
    }

    /// The guest's jobs on this device, oldest first.
    package func jobs(eventId: EventID, guestId: GuestID) throws -> [PrintJobRecord] {
        try readStatement { db in
            try Data.fetchAll(
                db, sql: "SELECT sealed FROM print_jobs WHERE event_id = ? AND guest_id = ? ORDER BY created_at, id",
                arguments: [eventId.wire, guestId.wire])
        }.map { try sealer.open(json: $0, as: PrintJobRecord.self) }
    }

    /// The event's latest jobs, newest first (the Print tab's list).
    package func recentJobs(eventId: EventID, limit: Int) throws -> [PrintJobRecord] {
        try readStatement { db in
            try Data.fetchAll(
                db, sql: "SELECT sealed FROM print_jobs WHERE event_id = ? ORDER BY created_at DESC, id LIMIT ?",
                arguments: [eventId.wire, limit])
        }.map { try sealer.open(json: $0, as: PrintJobRecord.self) }
    }

    /// The printer printed `job`: marked printed and the print queued for the server (its audit),
    /// in one transaction.
    package func printed(_ job: PrintJobRecord, deviceId: String, now: Date) throws {
        var done = job
        done.state = .printed
        done.printedAt = now
        done.lastError = nil
        let record = BadgePrintRecord(
            id: job.id, guestId: job.guestId, reprint: job.reprint, reason: job.reason, deviceId: deviceId,
            printedAt: Date(millisecondsSince1970: now.millisecondsSince1970))
        try queue.write { db in
            try Self.keep(db, done, sealer: sealer)
            _ = try enqueue(
                db, kind: .badgePrint, eventId: job.eventId, idempotencyKey: "badge-print:\(job.id.wire)",
                request: record, owner: job.owner, now: now)
        }
    }

    package func printRecord(of row: OutboxRow) throws -> BadgePrintRecord {
        try request(of: row, as: BadgePrintRecord.self)
    }
}

extension OutboxKind {
    /// A printed badge: `PUT /v1/events/{id}/badge-prints/{printId}` (counted and audited).
    package static let badgePrint = OutboxKind(rawValue: "badge-print")
}
