import Foundation
import Logging
import NIOCore
import OutpostCore
import OutpostTestSupport
import PostgresNIO
import Testing

@testable import OutpostServer

/// The stores the contract suite runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// Where the test stores live.
enum TestStores {
    static var postgresURL: String? {
        let url = ProcessInfo.processInfo.environment["OUTPOST_TEST_POSTGRES_URL"]
        return url?.isEmpty == false ? url : nil
    }

    static let skipMessage =
        "PostgreSQL case skipped: OUTPOST_TEST_POSTGRES_URL is not set; scripts/test starts a PostgreSQL 15 cluster and sets it."

    static var logger: Logger { TestSupport.logger }

    /// A store location for one test: a fresh in-memory SQLite database, or a fresh database in
    /// the test PostgreSQL cluster. Outside `scripts/test` the PostgreSQL case is cancelled
    /// (skipped) with a message saying so.
    static func location(_ kind: StoreKind) async throws -> ServerConfiguration.StoreLocation {
        switch kind {
        case .sqlite:
            return .sqliteInMemory
        case .postgres:
            guard let admin = postgresURL else {
                print(skipMessage)
                try Test.cancel(Comment(rawValue: skipMessage))
            }
            return .postgres(url: try await freshPostgresDatabase(adminURL: admin))
        }
    }

    /// Runs `body` on a fresh store of `kind`, then drops a PostgreSQL database, whether `body`
    /// threw or not. A migrated database takes about 25 MB: kept, a full run's 400 or so were
    /// 10 GB of the CI machine's shared disk, which once ran out mid-run.
    static func withLocation<T>(
        _ kind: StoreKind, _ body: (ServerConfiguration.StoreLocation) async throws -> T
    ) async throws -> T {
        let location = try await location(kind)
        let result: T
        do {
            result = try await body(location)
        } catch {
            await drop(location)
            throw error
        }
        await drop(location)
        return result
    }

    /// Creates an empty database in the test cluster and returns its URL.
    static func freshPostgresDatabase(adminURL: String) async throws -> String {
        let name = "outpost_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        try await administer(adminURL, "CREATE DATABASE \(name)")
        var components = URLComponents(string: adminURL)!
        components.path = "/" + name
        return components.string!
    }

    /// Drops the test database of a PostgreSQL `location` (nothing for SQLite). `FORCE` ends a
    /// connection a server left open. A failure is printed, not the test's: it costs disk only.
    static func drop(_ location: ServerConfiguration.StoreLocation) async {
        guard case .postgres(let url) = location, let admin = postgresURL,
            let name = URLComponents(string: url)?.path.dropFirst(), name.hasPrefix("outpost_test_")
        else { return }
        do {
            try await administer(admin, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        } catch {
            print("the test database \(name) was not dropped: \(String(reflecting: error))")
        }
    }

    /// One statement on the cluster's admin database.
    private static func administer(_ adminURL: String, _ sql: String) async throws {
        let client = try PostgresDatabase.configuration(from: adminURL)
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: client.host ?? "127.0.0.1", port: client.port ?? 5432, username: client.username,
                password: client.password, database: client.database, tls: .disable),
            id: 1, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}

/// ``withServer(location:live:configure:_:)`` on a fresh store of `kind`.
func withTestServer<T: Sendable>(
    _ kind: StoreKind,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestAPI) async throws -> T
) async throws -> T {
    try await TestStores.withLocation(kind) { location in
        try await withServer(location: location, configure: configure, body)
    }
}
