import Foundation
import GRDB
import OutpostCore
import Testing

@testable import OutpostShell

/// The outbox's counts kept by triggers (``DeviceSchema/v8``): what the status line reads after
/// every write, so they must be the queue's own counts whatever happens to it.
@Suite("Outbox counts kept by triggers")
struct OutboxCountsTests {
    static func open(upTo target: String? = nil, home: URL? = nil) throws -> (DeviceStore, URL) {
        let home = home ?? FileManager.default.temporaryDirectory.appendingPathComponent("outpost-counts-\(UUID())")
        let keyStore = FileKeyStore(url: home.appendingPathComponent("device.key"))
        let (store, _) = try DeviceStore.open(home: home, keyStore: keyStore, upTo: target)
        return (store, home)
    }

    /// The kept counts (rows of `outbox_counts`) and the queue counted now, as the same shape.
    static func counts(_ store: DeviceStore) throws -> (kept: [String: Int], counted: [String: Int]) {
        try store.queue.read { db in
            let kept = try Row.fetchAll(db, sql: "SELECT state, owner, kind, entries FROM outbox_counts")
            let counted = try Row.fetchAll(
                db,
                sql: """
                    SELECT state, coalesce(owner, '') AS owner, kind, COUNT(*) AS entries FROM outbox
                    GROUP BY state, coalesce(owner, ''), kind
                    """)
            func shape(_ rows: [Row]) -> [String: Int] {
                Dictionary(
                    uniqueKeysWithValues: rows.map {
                        (
                            "\($0["state"] as String)|\($0["owner"] as String)|\($0["kind"] as String)",
                            $0["entries"] as Int
                        )
                    })
            }
            return (shape(kept), shape(counted))
        }
    }

    @Test(
        "outbox-counts-kept: over seeded random inserts, state and owner changes, deletes and sign-out deletes, the kept counts are the queue's counts, a count that reaches zero leaves no row, and the tally reads them"
    )
    func keptCounts() throws {
        let (store, home) = try Self.open()
        defer { try? FileManager.default.removeItem(at: home) }
        var random = SeededRandom(seed: 37)
        let users = (0..<3).map { _ in UserID.random() }
        let owners: [String?] = [nil] + users.map(\.wire)
        let states = ["pending", "rejected", "quarantined"]
        let kinds = ["checkin", "walkin", "note"]
        var next = 0
        for step in 0..<600 {
            try store.queue.write { db in
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM outbox")
                switch ids.isEmpty ? 0 : Int.random(in: 0..<10, using: &random) {
                case 0..<4:
                    next += 1
                    try db.execute(
                        sql: """
                            INSERT INTO outbox (idempotency_key, request, created_at, state, kind, owner)
                            VALUES (?, x'00', 0, ?, ?, ?)
                            """,
                        arguments: [
                            "key-\(next)", states.randomElement(using: &random), kinds.randomElement(using: &random),
                            owners.randomElement(using: &random) ?? nil,
                        ])
                case 4..<6:
                    try db.execute(
                        sql: "UPDATE outbox SET state = ?, attempts = attempts + 1 WHERE id = ?",
                        arguments: [states.randomElement(using: &random), ids.randomElement(using: &random)])
                case 6:
                    // Entries written before they had owners are adopted.
                    try db.execute(sql: "UPDATE outbox SET owner = ? WHERE owner IS NULL", arguments: [users[0].wire])
                case 7:
                    // A column the counts do not cover.
                    try db.execute(
                        sql: "UPDATE outbox SET last_error = 'x' WHERE id = ?",
                        arguments: [ids.randomElement(using: &random)])
                case 8:
                    try db.execute(
                        sql: "DELETE FROM outbox WHERE id = ?", arguments: [ids.randomElement(using: &random)])
                default:
                    // A sign-out that discards.
                    try db.execute(
                        sql: "DELETE FROM outbox WHERE owner = ?",
                        arguments: [owners.randomElement(using: &random) ?? nil])
                }
            }
            let (kept, counted) = try Self.counts(store)
            #expect(kept == counted, "after step \(step)")
            guard kept == counted else { return }
        }
        #expect(try Self.counts(store).kept.values.allSatisfy { $0 > 0 }, "no row for a count of zero")
        let tally = try store.outboxTally()
        let pending = try store.queue.read {
            try Int.fetchOne(
                $0, sql: "SELECT COUNT(*) FROM outbox WHERE state = 'pending' AND owner = ?", arguments: [users[1].wire]
            )
        }
        #expect(tally.pendingCount(owner: users[1]) == pending)
        #expect(tally.pendingCount(owner: nil) == (try store.pendingCount(owner: nil)))
        #expect(tally.quarantined == (try store.quarantinedCount()))
        try store.queue.write { try $0.execute(sql: "DELETE FROM outbox") }
        #expect(try Self.counts(store).kept.isEmpty, "an empty queue keeps no count, and no user's id")
    }

    @Test("outbox-counts-kept: a store migrated with entries already queued starts with their counts")
    func migratedCounts() throws {
        let (old, home) = try Self.open(upTo: DeviceSchema.v7)
        defer { try? FileManager.default.removeItem(at: home) }
        let (one, two) = (UserID.random().wire, UserID.random().wire)
        try old.queue.write { db in
            for (index, owner) in [one, one, two, nil].enumerated() {
                try db.execute(
                    sql: "INSERT INTO outbox (idempotency_key, request, created_at, owner) VALUES (?, x'00', 0, ?)",
                    arguments: ["old-\(index)", owner])
            }
        }
        try old.queue.close()
        let (store, _) = try Self.open(home: home)
        let (kept, counted) = try Self.counts(store)
        #expect(kept == counted)
        #expect(kept == ["pending|\(one)|checkin": 2, "pending|\(two)|checkin": 1, "pending||checkin": 1])
    }
}
