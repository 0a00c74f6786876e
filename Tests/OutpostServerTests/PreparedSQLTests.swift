import Foundation
import OutpostTestSupport
import Testing

@testable import OutpostServer

@Suite("Prepared statements")
struct PreparedSQLTests {
    private enum Probe: PreparedSQL {
        static let sql = "SELECT ? + 1 AS n, ? AS t, ? AS b"
        static let parameters: [SQLValue.Kind] = [.int, .text, .blob]
    }

    /// The same statement text under another type: one prepared statement, not a clash.
    private enum SameText: PreparedSQL {
        static let sql = Probe.sql
        static let parameters = Probe.parameters
    }

    /// Another statement: prepared under its own name.
    private enum Other: PreparedSQL {
        static let sql = "SELECT ? AS other"
        static let parameters: [SQLValue.Kind] = [.text]
    }

    @Test(
        "ingest-prepared-statements: a hot statement is parsed and planned once per PostgreSQL connection and then run by name (pg_prepared_statements counts each run), SQLite answers alike from its statement cache",
        arguments: StoreKind.allCases)
    func preparedOnce(kind: StoreKind) async throws {
        try await withDatabase(kind) { database in
            try await database.read { connection in
                for index in 0..<3 {
                    let rows = try await connection.query(
                        Probe.self, [.int(Int64(index)), .text("t\(index)"), .blob([7])])
                    #expect(rows.count == 1)
                    #expect(try rows[0].int("n") == Int64(index) + 1)
                    #expect(try rows[0].text("t") == "t\(index)")
                    #expect(try rows[0].blob("b") == [7])
                }
                _ = try await connection.query(SameText.self, [.null, .text("x"), .null])
                #expect(try await connection.queryOne(Other.self, [.text("o")])?.text("other") == "o")
                guard kind == .postgres else { return }
                // Pool of one: this is the connection that ran the statements.
                let prepared = try await connection.query(
                    """
                    SELECT name, statement, generic_plans + custom_plans AS runs FROM pg_prepared_statements
                    ORDER BY statement DESC
                    """, [])
                #expect(prepared.count == 2)
                #expect(try prepared.allSatisfy { try $0.text("name").hasPrefix("outpost_") })
                #expect(
                    try prepared.map { try $0.text("statement") } == [
                        "SELECT $1 AS other", "SELECT $1 + 1 AS n, $2 AS t, $3 AS b",
                    ])
                #expect(try prepared.map { try $0.int("runs") } == [1, 4])
            }
        }
    }

    @Test(
        "prepared-statement-refuses-wrong-binds: a bind of another kind or a wrong count is refused before anything is sent; null fits any parameter",
        arguments: StoreKind.allCases)
    func refusesWrongBinds(kind: StoreKind) async throws {
        try await withDatabase(kind) { database in
            try await database.read { connection in
                await #expect(throws: PreparedSQLMismatch.self) {
                    _ = try await connection.query(Probe.self, [.text("1"), .text("t"), .blob([])])
                }
                await #expect(throws: PreparedSQLMismatch.self) {
                    _ = try await connection.query(Probe.self, [.int(1), .text("t")])
                }
                let rows = try await connection.query(Probe.self, [.int(1), .null, .null])
                #expect(try rows.first?.int("n") == 2)
            }
        }
    }

    private enum Echo: PreparedSQL {
        static let sql = "SELECT ? AS i, ? AS t, ? AS b"
        static let parameters: [SQLValue.Kind] = [.int, .text, .blob]
    }

    private enum Keep: PreparedSQL {
        static let sql = "INSERT INTO values_probe (n, i, t, b) VALUES (?, ?, ?, ?)"
        static let parameters: [SQLValue.Kind] = [.int, .int, .text, .blob]
    }

    @Test(
        "sql-values-round-trip: every kind of value (null, the extreme integers, empty, long and non-ASCII text, NUL inside text on SQLite, empty and binary blobs) comes back as bound, echoed and stored, through prepared and unprepared statements; a failed prepared statement runs again",
        arguments: StoreKind.allCases)
    func valuesRoundTrip(kind: StoreKind) async throws {
        var texts = ["", "a", "Åse Ødegård", "名前", "emoji 😀 and \u{200D}", String(repeating: "long ", count: 4_000)]
        if kind == .sqlite { texts.append("before\u{0}after") }  // PostgreSQL's text has no NUL
        let blobs: [[UInt8]] = [[], [0], [0, 255, 1, 254], Array(0...255), [UInt8](repeating: 0, count: 10_000)]
        let ints: [Int64] = [0, 1, -1, Int64.min, Int64.max, 1_795_000_000_000]
        var cases: [(SQLValue, SQLValue, SQLValue)] = [(.null, .null, .null)]
        for (index, text) in texts.enumerated() {
            cases.append((.int(ints[index % ints.count]), .text(text), .blob(blobs[index % blobs.count])))
        }
        for (index, blob) in blobs.enumerated() {
            cases.append((.int(ints[(index + 3) % ints.count]), .null, .blob(blob)))
        }
        try await withDatabase(kind) { database in
            try await database.transaction {
                try await $0.execute(
                    "CREATE TABLE values_probe (n INTEGER PRIMARY KEY, i BIGINT, t TEXT, b \(kind == .sqlite ? "BLOB" : "BYTEA"))"
                )
            }
            try await database.transaction { connection in
                for (index, (int, text, blob)) in cases.enumerated() {
                    let echoed = try await connection.queryOne(Echo.self, [int, text, blob])
                    #expect(echoed?.values == [int, text, blob], "echo \(index)")
                    _ = try await connection.query(Keep.self, [.int(Int64(index)), int, text, blob])
                }
            }
            // A prepared statement that fails (a duplicate key) reports it, and runs again after.
            await #expect(throws: (any Error).self) {
                try await database.transaction { connection in
                    _ = try await connection.query(Keep.self, [.int(0), .null, .null, .null])
                }
            }
            try await database.transaction { connection in
                _ = try await connection.query(Keep.self, [.int(Int64(cases.count)), .int(7), .text("again"), .null])
            }
            let stored = try await database.read { connection in
                try await connection.query("SELECT i, t, b FROM values_probe ORDER BY n", [])
            }
            #expect(stored.count == cases.count + 1)
            for (index, (int, text, blob)) in cases.enumerated() where index < stored.count {
                #expect(stored[index].values == [int, text, blob], "stored \(index)")
                #expect(stored[index].columns == ["i", "t", "b"])
            }
            #expect(stored.last?.values == [.int(7), .text("again"), .null])
        }
    }

    struct Abandoned: Error {}

    @Test(
        "bulk-transaction-atomic: a batch's transaction (statements in place on SQLite) commits all of its writes or, when it throws midway, none",
        arguments: StoreKind.allCases)
    func bulkTransactionAtomic(kind: StoreKind) async throws {
        try await withDatabase(kind) { database in
            let table = "bulk_probe_\(UInt32.random(in: 0...UInt32.max))"
            try await database.transaction { try await $0.execute("CREATE TABLE \(table) (n INTEGER NOT NULL)") }
            try await database.bulkTransaction { connection in
                for n in 0..<50 {
                    try await connection.execute("INSERT INTO \(table) (n) VALUES (?)", [.int(Int64(n))])
                }
            }
            await #expect(throws: Abandoned.self) {
                try await database.bulkTransaction { connection in
                    for n in 50..<60 {
                        try await connection.execute("INSERT INTO \(table) (n) VALUES (?)", [.int(Int64(n))])
                    }
                    throw Abandoned()
                }
            }
            let rows = try await database.read {
                try await $0.queryOne("SELECT COUNT(*) AS c, MAX(n) AS m FROM \(table)")
            }
            #expect(try rows?.int("c") == 50 && rows?.int("m") == 49)
            // The gateway is usable afterwards (the lock was released, no transaction left open).
            try await database.transaction { try await $0.execute("INSERT INTO \(table) (n) VALUES (99)") }
            let after = try await database.read { try await $0.queryOne("SELECT COUNT(*) AS c FROM \(table)") }
            #expect(try after?.int("c") == 51)
        }
    }

    /// A bare database of `kind`: in-memory SQLite, or a fresh PostgreSQL database behind a pool
    /// of one connection.
    private func withDatabase(_ kind: StoreKind, _ body: (any SQLDatabase) async throws -> Void) async throws {
        switch kind {
        case .sqlite:
            try await body(try SQLiteDatabase())
        case .postgres:
            try await TestStores.withLocation(.postgres) { location in
                guard case .postgres(let url) = location else { return }
                let database = try PostgresDatabase(url: url, poolSize: 1, logger: TestStores.logger)
                let pool = Task { await database.run() }
                defer { pool.cancel() }
                try await body(database)
            }
        }
    }
}
