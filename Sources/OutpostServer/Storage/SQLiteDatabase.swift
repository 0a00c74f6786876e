import Foundation
import GRDB

/// The embedded SQLite gateway (through GRDB): one connection in WAL mode, one transaction at a
/// time. Every statement hops to GRDB's serial queue, so no cooperative thread ever blocks.
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    private let queue: DatabaseQueue
    private let lock = AsyncLock()

    /// Opens (creating if needed) the database file at `path`, creating its directory too.
    ///
    /// The file holds password hashes and the access-token signing secret, so it is created
    /// readable by the server's user only (0600, its new directory 0700), and an existing file
    /// and its WAL and shared-memory files are narrowed to 0600. SQLite creates the WAL and
    /// shared-memory files with the database file's permissions.
    public init(path: String) throws {
        try Self.makePrivate(path: path)
        queue = try DatabaseQueue(path: path, configuration: Self.configuration(wal: true))
    }

    static func makePrivate(path: String) throws {
        let manager = FileManager.default
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        if !manager.fileExists(atPath: directory.path) {
            try manager.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if !manager.fileExists(atPath: path) {
            // An empty file is an empty SQLite database.
            guard manager.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        for file in [path, path + "-wal", path + "-shm"] where manager.fileExists(atPath: file) {
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
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
        try await lock.withLock { try await body(Connection(queue: queue, inPlace: false)) }
    }

    public func transaction<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await transaction(inPlace: false, body)
    }

    /// A batch's transaction: each statement runs in place, on the calling thread, through GRDB's
    /// synchronous access (under the gateway's lock nothing else uses the connection). A batch of
    /// 100 check-ins is about 700 statements, and hopping to GRDB's queue and back for each was
    /// a third of the server's time per entry (issue 15, step 7: a batch of 100 took 65-73 ms,
    /// now 44-45). The cost: a cooperative thread is held for the batch's statements (tens of
    /// milliseconds, like a password hash), and for as long as another process holds the file's
    /// write lock (up to the busy timeout), which only an operator's command on the live file
    /// does. A single check-in keeps the hop: run in place it got faster alone but not while an
    /// import's chunk held the lock, and import-cross-tenant-latency compares the two (step 5).
    public func bulkTransaction<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await transaction(inPlace: true, body)
    }

    private func transaction<T: Sendable>(
        inPlace: Bool, _ body: (any SQLConnection) async throws -> T
    ) async throws -> T {
        try await lock.withLock {
            let connection = Connection(queue: queue, inPlace: inPlace)
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
        /// Runs statements on the calling thread (``bulkTransaction(_:)``) instead of GRDB's queue.
        let inPlace: Bool

        private func access<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
            if inPlace { return try queue.inDatabase(work) }
            return try await queue.writeWithoutTransaction(work)
        }

        func execute(_ sql: String, _ binds: [SQLValue]) async throws {
            let arguments = StatementArguments(binds.map(\.databaseValue))
            try await access { db in
                try db.execute(sql: sql, arguments: arguments)
            }
        }

        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            let arguments = StatementArguments(binds.map(\.databaseValue))
            return try await access { db in try Self.rows(of: try db.makeStatement(sql: sql), arguments) }
        }

        func query<Statement: PreparedSQL>(_ statement: Statement.Type, _ binds: [SQLValue]) async throws -> [SQLRow] {
            let arguments = StatementArguments(try Statement.checked(binds).map(\.databaseValue))
            let sql = Statement.sql
            return try await access { db in try Self.rows(of: try db.cachedStatement(sql: sql), arguments) }
        }

        /// The statement's rows, read straight off its cursor: no copy of each row, and one array
        /// of column names shared by every row (a batch of 100 check-ins runs ~700 statements,
        /// and `Row.fetchAll`'s copies showed in the batch's profile; issue 15, step 8).
        private static func rows(of statement: GRDB.Statement, _ arguments: StatementArguments) throws -> [SQLRow] {
            let columns = statement.columnNames
            var rows: [SQLRow] = []
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try cursor.next() {
                var values: [SQLValue] = []
                values.reserveCapacity(columns.count)
                for index in columns.indices {
                    values.append(SQLValue(databaseValue: row[index] as DatabaseValue))
                }
                rows.append(SQLRow(columns: columns, values: values))
            }
            return rows
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
