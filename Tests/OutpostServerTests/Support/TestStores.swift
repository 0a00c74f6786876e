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

    /// Creates an empty database in the test cluster and returns its URL.
    static func freshPostgresDatabase(adminURL: String) async throws -> String {
        let name = "outpost_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        let client = try PostgresDatabase.configuration(from: adminURL)
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: client.host ?? "127.0.0.1", port: client.port ?? 5432, username: client.username,
                password: client.password, database: client.database, tls: .disable),
            id: 1, logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        try await connection.close()
        var components = URLComponents(string: adminURL)!
        components.path = "/" + name
        return components.string!
    }
}

/// ``withServer(location:live:configure:_:)`` on a fresh store of `kind`.
func withTestServer<T: Sendable>(
    _ kind: StoreKind,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestAPI) async throws -> T
) async throws -> T {
    try await withServer(location: try await TestStores.location(kind), configure: configure, body)
}
