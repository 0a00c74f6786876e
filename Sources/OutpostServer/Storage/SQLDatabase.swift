/// The SQL dialects Outpost's server stores speak.
public enum SQLDialect: String, Sendable {
    case sqlite
    case postgres
}

/// A connection inside a read or a transaction. Statements use `?` placeholders, which the
/// PostgreSQL gateway numbers; no SQL text may contain a literal `?` otherwise.
public protocol SQLConnection: Sendable {
    func execute(_ sql: String, _ binds: [SQLValue]) async throws
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
    /// Runs a statement the connection compiles once and keeps (``PreparedSQL``).
    func query<Statement: PreparedSQL>(_ statement: Statement.Type, _ binds: [SQLValue]) async throws -> [SQLRow]
}

extension SQLConnection {
    func execute(_ sql: String) async throws { try await execute(sql, []) }

    func queryOne(_ sql: String, _ binds: [SQLValue] = []) async throws -> SQLRow? {
        try await query(sql, binds).first
    }

    func queryOne<Statement: PreparedSQL>(_ statement: Statement.Type, _ binds: [SQLValue]) async throws -> SQLRow? {
        try await query(statement, binds).first
    }
}

/// One gateway per database: focused reads and named write transactions.
///
/// A transaction either commits everything its body did or nothing; the body may run again
/// only if the caller retries. Implementations: ``SQLiteDatabase`` and ``PostgresDatabase``.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Runs reads that need no transaction.
    func read<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T
    /// Runs a write transaction (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: `READ COMMITTED`).
    func transaction<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T
    /// A write transaction of many short statements in a row (a batch of check-ins). SQLite runs
    /// each statement in place instead of hopping to its queue and back; the others run
    /// ``transaction(_:)``.
    func bulkTransaction<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T
}

extension SQLDatabase {
    public func bulkTransaction<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await transaction(body)
    }
}
