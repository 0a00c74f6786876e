import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// The server's repository: every read and write the routes need, written once in SQL both
/// dialects accept and run through an ``SQLDatabase`` gateway (SQLite or PostgreSQL).
///
/// Rules that must hold across server instances live in the database: each event has a change
/// counter (`events.seq`) that every writing transaction bumps first, so its row lock orders
/// the event's writes and change sequence numbers follow commit order.
public final class Store: Sendable {
    public let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Brings the schema up to date.
    public func migrate() async throws {
        try await Migrator.migrate(database)
        try await fillGuestNameKeys()
        try await normalizeStoredEmails()
    }

    /// Accounts stored before e-mail addresses were normalised one way (NFKC
    /// and lower case, ``normalizedEmail(_:)``) take their normal form, so sign-in and codes find
    /// them. Only a non-ASCII address can differ. One whose normal form another account already
    /// has is left as it is: merging accounts is an organizer's decision. Returns the addresses
    /// left so.
    @discardableResult
    func normalizeStoredEmails() async throws -> [String] {
        let rows = try await database.read { connection in
            try await connection.query("SELECT id, email FROM users", [])
        }
        var taken = Set(try rows.map { try $0.text("email") })
        var left: [String] = []
        for row in rows {
            let email = try row.text("email")
            guard !email.allSatisfy(\.isASCII) else { continue }
            let normal = Self.normalizedEmail(email)
            guard normal != email else { continue }
            guard !taken.contains(normal) else {
                left.append(email)
                continue
            }
            try await database.transaction { connection in
                try await connection.execute(
                    "UPDATE users SET email = ? WHERE id = ?", [.text(normal), .text(try row.text("id"))])
            }
            taken.insert(normal)
        }
        return left
    }

    /// Guests written before names had their folded key (migration v8) get it, in batches; a
    /// no-op once every row has one.
    func fillGuestNameKeys() async throws {
        while true {
            let rows = try await database.read { connection in
                try await connection.query("SELECT id, name FROM guests WHERE name_key IS NULL LIMIT 1000", [])
            }
            guard !rows.isEmpty else { return }
            try await database.transaction { connection in
                for row in rows {
                    try await connection.execute(
                        "UPDATE guests SET name_key = ? WHERE id = ?",
                        [.text(GuestNameKey.of(try row.text("name"))), .text(try row.text("id"))])
                }
            }
        }
    }

    /// Bumps the event's change counter by `count` and returns the new value; rows written in
    /// this transaction take the numbers `value - count + 1 ... value`. Nil when no such event.
    func bumpSequence(_ connection: any SQLConnection, eventId: EventID, by count: Int = 1) async throws -> Int64? {
        let row = try await connection.queryOne(
            "UPDATE events SET seq = seq + ? WHERE id = ? RETURNING seq", [.int(Int64(count)), .id(eventId)])
        return try row?.int("seq")
    }

    /// A named random secret shared by every server instance on this database, created on first use.
    public func secret(named name: String) async throws -> [UInt8] {
        if let row = try await database.read({
            try await $0.queryOne("SELECT value FROM server_secrets WHERE name = ?", [.text(name)])
        }) {
            return try row.blob("value")
        }
        let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        return try await database.transaction { connection in
            try await connection.execute(
                "INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [.text(name), .blob(fresh)])
            guard
                let row = try await connection.queryOne(
                    "SELECT value FROM server_secrets WHERE name = ?", [.text(name)])
            else { throw StoreError.notFound }
            return try row.blob("value")
        }
    }
}
