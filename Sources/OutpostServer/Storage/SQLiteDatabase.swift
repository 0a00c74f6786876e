import Foundation
import GRDB

/// The embedded SQLite gateway (through GRDB): one connection in WAL mode, one transaction at a
/// time. Every statement hops to GRDB's serial queue, so no cooperative thread ever blocks.
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    private let queue: DatabaseQueue
    private let lock = AsyncLock()

    /// Opens (creating if needed) the database file at `path`, creating its directory too.
    public init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        queue = try DatabaseQueue(path: path, configuration: Self.configuration(wal: true))
    }

    /// A private in-memory database, for tests.
    public init() throws {
        queue = try DatabaseQueue(configuration: Self.configuration(wal: false))
    }

    private static func configuration(wal: Bool) -> Configuration {
        var configuration = Configuration()
        // Transactions span several async statements, each its own GRDB access.
        configuration.allowsUnsafeTransactions = true
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        if wal { configuration.journalMode = .wal }
        return configuration
    }

    public func read<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await lock.withLock { try await body(Connection(queue: queue)) }
    }

    public func transaction<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await lock.withLock {
            let connection = Connection(queue: queue)
            try await connection.execute("BEGIN IMMEDIATE", [])
            do {
                let value = try await body(connection)
                try await connection.execute("COMMIT", [])
                return value
            } catch {
                try? await connection.execute("ROLLBACK", [])
                throw error
            }
        }
    }

    struct Connection: SQLConnection {
        let queue: DatabaseQueue

        func execute(_ sql: String, _ binds: [SQLValue]) async throws {
            let arguments = StatementArguments(binds.map(\.databaseValue))
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: sql, arguments: arguments)
            }
        }

        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            let arguments = StatementArguments(binds.map(\.databaseValue))
            return try await queue.writeWithoutTransaction { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                    SQLRow(
                        columns: Array(row.columnNames), values: row.databaseValues.map(SQLValue.init(databaseValue:)))
                }
            }
        }
    }
}

extension SQLValue {
    fileprivate var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): Data(value).databaseValue
        }
    }

    fileprivate init(databaseValue: DatabaseValue) {
        switch databaseValue.storage {
        case .null: self = .null
        case .int64(let value): self = .int(value)
        case .double(let value): self = .int(Int64(value))
        case .string(let value): self = .text(value)
        case .blob(let value): self = .blob(Array(value))
        }
    }
}
