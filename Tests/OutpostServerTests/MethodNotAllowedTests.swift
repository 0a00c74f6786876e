import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// A method a path does not serve is 405 with `Allow` naming exactly the methods of the route
/// the router would take: a literal segment before a parameter (schemathesis found
/// `OPTIONS /v1/contacts/changes` advertising `/v1/contacts/{contactId}`'s DELETE and PATCH).
@Suite("Method not allowed")
struct MethodNotAllowedTests {
    @Test("allow-literal-route: Allow lists the literal route's methods, not a parameter route's beside it")
    func literalRoute() async throws {
        try await withTestServer(.sqlite) { api in
            let world = try await World.make(api)
            let token = world.organizer.accessToken
            let changes = try await api.request(.options, "/v1/contacts/changes", token: token)
            #expect(changes.status == 405 && changes.headers[.allow] == "GET", "\(changes.headers)")
            let contact = try await api.request(.options, "/v1/contacts/\(ContactID.random())", token: token)
            #expect(contact.status == 405 && contact.headers[.allow] == "DELETE, PATCH", "\(contact.headers)")
            let batch = try await api.request(.get, "/v1/events/\(world.event.id)/checkins:batch", token: token)
            #expect(batch.status == 405 && batch.headers[.allow] == "POST")
        }
    }

    @Test("the table's order: a literal beats a parameter at the first place they differ")
    func order() {
        #expect(RouteTable.lessLiteral([true, true, false], [true, true, true]))
        #expect(!RouteTable.lessLiteral([true, true, true], [true, true, false]))
        #expect(RouteTable.lessLiteral([true, false, true], [true, true, false]))
        #expect(!RouteTable.lessLiteral([true, false], [true, false]))
    }
}
