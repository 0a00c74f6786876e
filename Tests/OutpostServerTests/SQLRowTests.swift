import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Rows are read by column name on both stores: a SELECT in another order decodes the same, and
/// a missing column is an error that names it, never a silent read of its neighbour.
@Suite("SQL rows by column name")
struct SQLRowTests {
    @Test(
        "server-rows-by-name: a reordered SELECT decodes the same; a missing column is named",
        arguments: StoreKind.allCases)
    func rowsByName(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let (inOrder, reordered, missing) = try await api.store.database.read { connection in
                let inOrder = try await connection.queryOne(
                    "SELECT \(Store.userColumns) FROM users WHERE email = ?", [.text("org@acme.test")])
                let reordered = try await connection.queryOne(
                    "SELECT password_hash, role, name, email, tenant_id, id FROM users WHERE email = ?",
                    [.text("org@acme.test")])
                let missing = try await connection.queryOne(
                    "SELECT id, tenant_id, email, name, password_hash FROM users WHERE email = ?",
                    [.text("org@acme.test")])
                return (inOrder, reordered, missing)
            }
            let first = try Store.user(from: try #require(inOrder))
            #expect(try Store.user(from: try #require(reordered)) == first)
            #expect(first.email == "org@acme.test" && first.role == .organizer)
            #expect(throws: SQLError.self) { try Store.user(from: try #require(missing)) }
            #expect("\(SQLError.noSuchColumn("role"))" == "the query has no column role")
        }
    }
}
