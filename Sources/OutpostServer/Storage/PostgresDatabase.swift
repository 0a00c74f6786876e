import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import ServiceLifecycle

/// The PostgreSQL gateway: a PostgresNIO connection pool. It is a `Service`; its `run()` must
/// be running (in the application's service group) for queries to proceed.
public final class PostgresDatabase: SQLDatabase, Service {
    public let dialect = SQLDialect.postgres
    let client: PostgresClient
    let configuration: PostgresClient.Configuration
    private let logger: Logger

    /// Parses a `postgres://user:password@host:port/database?sslmode=disable|require` URL.
    /// False when the URL asks for TLS (`sslmode=require|prefer|verify-*`).
    let usesPlainTCP: Bool

    public init(url: String, poolSize: Int = 8, logger: Logger) throws {
        usesPlainTCP = Self.sslMode(of: url) == "disable"
        var configuration = try Self.configuration(from: url)
        configuration.options.maximumConnections = poolSize
        self.configuration = configuration
        self.logger = logger
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    public func run() async {
        await client.run()
    }

    /// Opens one connection outside the pool and closes it: a quick, clear answer to "is the
    /// database reachable with these credentials?" before anything else starts.
    public func checkReachable() async throws {
        // The preflight speaks plain TCP; with TLS configured, the pool's first query reports instead.
        guard usesPlainTCP else { return }
        let connectionConfiguration = PostgresConnection.Configuration(
            host: configuration.host ?? "127.0.0.1", port: configuration.port ?? 5432,
            username: configuration.username, password: configuration.password,
            database: configuration.database, tls: .disable)
        let connection = try await PostgresConnection.connect(
            configuration: connectionConfiguration, id: 0, logger: logger)
        try await connection.close()
    }

    public func read<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await body(Connection(connection: connection, logger: logger))
        }
    }

    public func transaction<T: Sendable>(_ body: (any SQLConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            let wrapped = Connection(connection: connection, logger: logger)
            try await wrapped.execute("BEGIN ISOLATION LEVEL READ COMMITTED", [])
            do {
                let value = try await body(wrapped)
                try await wrapped.execute("COMMIT", [])
                return value
            } catch {
                try? await wrapped.execute("ROLLBACK", [])
                throw error
            }
        }
    }

    static func sslMode(of url: String) -> String {
        URLComponents(string: url)?.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
    }

    static func configuration(from url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url),
            ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else { throw PostgresURLError(url: url) }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let sslMode = sslMode(of: url)
        let tls: PostgresClient.Configuration.TLS =
            switch sslMode {
            case "require", "verify-full", "verify-ca": .require(.makeClientConfiguration())
            case "prefer": .prefer(.makeClientConfiguration())
            default: .disable
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432,
            username: components.percentEncodedUser?.removingPercentEncoding ?? "postgres",
            password: components.percentEncodedPassword?.removingPercentEncoding,
            database: database.isEmpty ? nil : database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    struct Connection: SQLConnection {
        let connection: PostgresConnection
        let logger: Logger

        func execute(_ sql: String, _ binds: [SQLValue]) async throws {
            _ = try await query(sql, binds)
        }

        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: Self.numberPlaceholders(sql), binds: Self.bindings(binds)), logger: logger)
            var result: [SQLRow] = []
            for try await row in rows { result.append(try Self.row(row)) }
            return result
        }

        /// Prepared once per pooled connection (PostgresNIO keeps it by name) and then only bound
        /// and executed: no parse and, once PostgreSQL settles on a generic plan, no planning.
        func query<Statement: PreparedSQL>(_ statement: Statement.Type, _ binds: [SQLValue]) async throws -> [SQLRow] {
            let rows = try await connection.execute(
                Prepared<Statement>(binds: try Statement.checked(binds)), logger: logger)
            var result: [SQLRow] = []
            for try await row in rows { result.append(row) }
            return result
        }

        static func bindings(_ binds: [SQLValue]) -> PostgresBindings {
            var bindings = PostgresBindings(capacity: binds.count)
            for value in binds {
                switch value {
                case .null: bindings.appendNull()
                case .int(let int): bindings.append(int)
                case .text(let text): bindings.append(text)
                case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
                }
            }
            return bindings
        }

        static func row(_ row: PostgresRow) throws -> SQLRow {
            SQLRow(columns: row.map(\.columnName), values: try row.map(Self.value(of:)))
        }

        static func value(of cell: PostgresCell) throws -> SQLValue {
            guard var bytes = cell.bytes else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return .int(try cell.decode(Int64.self))
            case .bool: return .int(try cell.decode(Bool.self) ? 1 : 0)
            case .bytea: return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
            case .numeric:
                // SUM over BIGINT is NUMERIC in PostgreSQL, sent in its binary form: decoded as
                // a Decimal (read as text it was never a number, and every SUM read 0).
                let number = try cell.decode(Decimal.self)
                let integer = NSDecimalNumber(decimal: number).int64Value
                guard Decimal(integer) == number else {
                    throw SQLError.unexpectedValue(column: cell.columnName, .text("\(number)"))
                }
                return .int(integer)
            default: return .text(try cell.decode(String.self))
            }
        }

        /// Turns `?` placeholders into `$1`, `$2`, ...
        static func numberPlaceholders(_ sql: String) -> String {
            guard sql.contains("?") else { return sql }
            var output = ""
            output.reserveCapacity(sql.utf8.count + 16)
            var index = 0
            for character in sql {
                if character == "?" {
                    index += 1
                    output += "$\(index)"
                } else {
                    output.append(character)
                }
            }
            return output
        }
    }
}

/// A ``PreparedSQL`` statement as PostgresNIO prepares it: its parameters typed as the gateway
/// binds them (bigint, text, bytea), named by a digest of its SQL and parameters. Not by its
/// type's name: PostgreSQL keys prepared statements by their first 63 bytes, and two statement
/// types may share a name in different files.
struct Prepared<Statement: PreparedSQL>: PostgresPreparedStatement {
    typealias Row = SQLRow
    static var name: String { PreparedForm.of(Statement.self).name }
    static var sql: String { PreparedForm.of(Statement.self).sql }
    static var bindingDataTypes: [PostgresDataType] {
        Statement.parameters.map { kind in
            switch kind {
            case .int: .int8
            case .text: .text
            case .blob: .bytea
            }
        }
    }

    let binds: [SQLValue]

    func makeBindings() throws -> PostgresBindings { PostgresDatabase.Connection.bindings(binds) }
    func decodeRow(_ row: PostgresRow) throws -> SQLRow { try PostgresDatabase.Connection.row(row) }
}

/// A statement's name and numbered SQL, worked out once per statement type (PostgresNIO asks for
/// both on every execution).
private struct PreparedForm: Sendable {
    let name: String
    let sql: String

    private static let known = NIOLockedValueBox<[ObjectIdentifier: PreparedForm]>([:])

    static func of<Statement: PreparedSQL>(_ statement: Statement.Type) -> PreparedForm {
        known.withLockedValue { known in
            if let form = known[ObjectIdentifier(statement)] { return form }
            let sql = PostgresDatabase.Connection.numberPlaceholders(Statement.sql)
            let digest = SHA256.hash(
                data: Data((sql + "\u{0}" + Statement.parameters.map(\.description).joined(separator: ",")).utf8))
            let form = PreparedForm(
                name: "outpost_" + digest.prefix(12).map { String(format: "%02x", $0) }.joined(), sql: sql)
            known[ObjectIdentifier(statement)] = form
            return form
        }
    }
}

/// A `--postgres` value that is not a PostgreSQL URL.
public struct PostgresURLError: Error, CustomStringConvertible {
    public let url: String
    public var description: String {
        "'\(url)' is not a PostgreSQL URL; expected postgres://USER:PASSWORD@HOST:PORT/DATABASE"
    }
}
