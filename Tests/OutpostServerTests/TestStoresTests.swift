import Foundation
import OutpostCore
import OutpostTestSupport
import PostgresNIO
import Testing

@testable import OutpostServer

/// The test stores clean up after themselves: a full run once left 400 databases of 25 MB in the
/// cluster, and CI's shared disk ran out mid-run.
@Suite("Test stores")
struct TestStoresTests {
    /// The names of the cluster's databases.
    static func databases() async throws -> Set<String> {
        let admin = try #require(TestStores.postgresURL)
        let database = try PostgresDatabase(url: admin, poolSize: 1, logger: TestStores.logger)
        let pool = Task { await database.run() }
        defer { pool.cancel() }
        let rows = try await database.read { try await $0.query("SELECT datname::text AS name FROM pg_database", []) }
        return Set(try rows.map { try $0.text("name") })
    }

    @Test(
        "test-databases-dropped: a test's PostgreSQL database is dropped when the test ends, passed or thrown, with the server's connections still open"
    )
    func dropped() async throws {
        guard TestStores.postgresURL != nil else {
            print(TestStores.skipMessage)
            try Test.cancel(Comment(rawValue: TestStores.skipMessage))
        }
        struct Thrown: Error {}
        var names: [String] = []
        let seen = try await TestStores.withLocation(.postgres) { location in
            guard case .postgres(let url) = location else { return false }
            let name = String(URLComponents(string: url)?.path.dropFirst() ?? "")
            names.append(name)
            return try await withServer(location: location) { api in
                _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
                return try await Self.databases().contains(name)
            }
        }
        #expect(seen, "the database existed while the test ran")
        // A connection left open past the test, as a server that did not shut down would leave it.
        var pool: Task<Void, Never>?
        await #expect(throws: Thrown.self) {
            try await TestStores.withLocation(.postgres) { location in
                guard case .postgres(let url) = location else { return }
                names.append(String(URLComponents(string: url)?.path.dropFirst() ?? ""))
                let database = try PostgresDatabase(url: url, poolSize: 1, logger: TestStores.logger)
                pool = Task { await database.run() }
                _ = try await database.read { try await $0.query("SELECT 1 AS one", []) }
                throw Thrown()
            }
        }
        let left = try await Self.databases()
        pool?.cancel()
        #expect(names.count == 2)
        for name in names { #expect(!left.contains(name), "\(name) is still in the cluster") }
    }
}
