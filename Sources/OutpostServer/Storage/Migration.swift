/// One versioned schema change. Migrations are frozen once released: a change is a new one.
public struct Migration: Sendable {
    public var version: Int
    public var name: String
    /// The statements for a dialect, run in one transaction with the version record.
    public var statements: @Sendable (SQLDialect) -> [String]
}

/// Brings a database to the newest schema this server knows.
public enum Migrator {
    /// Applies every migration newer than the database's version, each in its own transaction.
    /// Safe to run from several server instances at once (PostgreSQL: an advisory lock).
    public static func migrate(_ database: any SQLDatabase, migrations: [Migration] = Schema.migrations) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)
                """)
        }
        let known = migrations.map(\.version).max() ?? 0
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            try await database.transaction { connection in
                if database.dialect == .postgres {
                    try await connection.execute("SELECT pg_advisory_xact_lock(7243611)")
                }
                let current = try await currentVersion(connection)
                if current > known { throw SQLError.newerSchema(found: current, known: known) }
                guard current < migration.version else { return }
                do {
                    for statement in migration.statements(database.dialect) {
                        try await connection.execute(statement)
                    }
                } catch {
                    throw SQLError.migrationFailed(version: migration.version, name: migration.name, underlying: error)
                }
                try await connection.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    [.int(Int64(migration.version)), .text(migration.name), .date(.now)])
            }
        }
    }

    /// The highest applied migration version, 0 for an empty database.
    public static func currentVersion(_ connection: any SQLConnection) async throws -> Int {
        let row = try await connection.queryOne("SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations")
        return Int(try row?.int("version") ?? 0)
    }
}
