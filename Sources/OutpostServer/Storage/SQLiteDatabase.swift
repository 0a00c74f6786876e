import Foundation
import GRDB
import GRDBSQLite

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
    /// a third of the server's time per entry (a batch of 100 took 65-73 ms,
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
            try await access { db in try Self.rows(of: try db.makeStatement(sql: sql), binds, in: db) }
        }

        func query<Statement: PreparedSQL>(_ statement: Statement.Type, _ binds: [SQLValue]) async throws -> [SQLRow] {
            let binds = try Statement.checked(binds)
            let sql = Statement.sql
            return try await access { db in try Self.rows(of: try db.cachedStatement(sql: sql), binds, in: db) }
        }

        /// Runs `statement` with `binds` and returns its rows, through SQLite's own calls: the
        /// values are bound as they are (no `StatementArguments` of boxed values), stepped, and
        /// read column by column into one array of column names shared by every row. GRDB's
        /// arguments and row cursor were a quarter of the server's samples in a batch of
        /// check-ins (~700 statements per batch of 100). The statement is reset
        /// before and after, so a cached one holds no lock between uses. These are single
        /// statements inside transactions the gateway opens and closes through GRDB, with no
        /// transaction observers on the server's connection, so GRDB's per-statement
        /// bookkeeping (observation, schema-cache invalidation) has nothing to do for them.
        private static func rows(
            of statement: GRDB.Statement, _ binds: [SQLValue], in db: Database
        ) throws
            -> [SQLRow]
        {
            let handle = statement.sqliteStatement
            sqlite3_reset(handle)
            defer { sqlite3_reset(handle) }
            let parameters = Int(sqlite3_bind_parameter_count(handle))
            guard parameters == binds.count else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "\(binds.count) binds for \(parameters) parameters",
                    sql: statement.sql)
            }
            for (offset, value) in binds.enumerated() {
                let code = bind(value, at: Int32(offset + 1), to: handle)
                guard code == SQLITE_OK else { throw error(code, db, statement) }
            }
            let columns = statement.columnNames
            var rows: [SQLRow] = []
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { return rows }
                guard code == SQLITE_ROW else { throw error(code, db, statement) }
                var values: [SQLValue] = []
                values.reserveCapacity(columns.count)
                for index in 0..<Int32(columns.count) {
                    values.append(column(index, of: handle))
                }
                rows.append(SQLRow(columns: columns, values: values))
            }
        }

        private static func bind(_ value: SQLValue, at index: Int32, to handle: OpaquePointer) -> Int32 {
            switch value {
            case .null:
                return sqlite3_bind_null(handle, index)
            case .int(let int):
                return sqlite3_bind_int64(handle, index, int)
            case .text(var text):
                return text.withUTF8 { bytes in
                    // An empty buffer may have no address; SQLite binds a null pointer as NULL.
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return sqlite3_bind_text(handle, index, "", 0, transient)
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text(handle, index, $0, Int32(bytes.count), transient)
                    }
                }
            case .blob(let blob):
                if blob.isEmpty { return sqlite3_bind_zeroblob(handle, index, 0) }
                return blob.withUnsafeBytes {
                    sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient)
                }
            }
        }

        private static func column(_ index: Int32, of handle: OpaquePointer) -> SQLValue {
            switch sqlite3_column_type(handle, index) {
            case SQLITE_NULL:
                return .null
            case SQLITE_INTEGER:
                return .int(sqlite3_column_int64(handle, index))
            case SQLITE_FLOAT:
                return .int(Int64(sqlite3_column_double(handle, index)))
            case SQLITE_TEXT:
                // The pointer first, then the length: SQLite's documented order.
                guard let text = sqlite3_column_text(handle, index) else { return .text("") }
                let count = Int(sqlite3_column_bytes(handle, index))
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            default:
                guard let blob = sqlite3_column_blob(handle, index) else { return .blob([]) }
                let count = Int(sqlite3_column_bytes(handle, index))
                return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
            }
        }

        private static func error(_ code: Int32, _ db: Database, _ statement: GRDB.Statement) -> DatabaseError {
            let extended = sqlite3_extended_errcode(db.sqliteConnection)
            let message = sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) }
            return DatabaseError(
                resultCode: ResultCode(rawValue: extended != 0 ? extended : code), message: message, sql: statement.sql)
        }
    }
}

/// SQLite copies a value bound with this destructor before the bind returns (the C macro
/// `SQLITE_TRANSIENT`, which Swift does not import).
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

extension SQLValue {
    fileprivate var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): Data(value).databaseValue
        }
    }
}
