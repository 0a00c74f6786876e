import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// A sign-out, a password reset and a removal end the access tokens of that
/// sign-in on every instance within a second (they lived up to 15 minutes), and a copied console
/// cookie stops working with them. Two server instances share one store (PostgreSQL, as
/// deployed; SQLite runs the same on one instance) and one clock; "a second" is the clock's.
@Suite("Sign-out and removal take effect at once")
struct RevocationTests {
    /// A request with `token` to `api`: its status.
    static func status(_ api: TestAPI, _ token: String) async throws -> Int {
        try await api.request(.get, "/v1/events?range=all", token: token).status
    }

    @Test(
        "revocation-two-instances: after a sign-out, a password reset or a removal on instance A, the access token is refused on A at once and on B within a second; the console cookie copied before 'Sign out' reads and creates nothing on either"
    )
    func twoInstances() async throws {
        try await TestStores.withLocation(.postgres) { try await twoInstances(on: $0) }
    }

    func twoInstances(on location: ServerConfiguration.StoreLocation) async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        try await withServer(location: location, clock: clock) { a in
            let world = try await World.make(a)
            try await withServer(location: location, clock: clock) { b in
                // Three sign-ins, each used on both instances first (both have read the set).
                let leaving = try await a.signIn(email: world.staff1.user.email, password: "staff-password")
                let reset = try await a.createUser(
                    world.organizer, email: "reset@acme.test", role: .checkinStaff, name: "Reset")
                let removed = try await a.createUser(
                    world.organizer, email: "removed@acme.test", role: .checkinStaff, name: "Removed")
                for session in [leaving, reset, removed, world.staff2] {
                    #expect(try await Self.status(a, session.accessToken) == 200)
                    #expect(try await Self.status(b, session.accessToken) == 200)
                }
                // Sign-out on A: refused on A at once, on B once a second has passed.
                #expect(
                    try await a.request(
                        .post, "/v1/auth/signout", json: RefreshRequest(refreshToken: leaving.refreshToken)
                    ).status == 204)
                #expect(try await Self.status(a, leaving.accessToken) == 401)
                clock.advance(by: 1)
                #expect(try await Self.status(b, leaving.accessToken) == 401)
                // A password reset and a removal, the same.
                #expect(
                    try await a.request(
                        .put, "/v1/users/\(reset.user.id)/password", token: world.organizer.accessToken,
                        json: PasswordResetRequest(password: "a new password")
                    ).status == 204)
                #expect(
                    try await a.request(.delete, "/v1/users/\(removed.user.id)", token: world.organizer.accessToken)
                        .status == 204)
                for session in [reset, removed] { #expect(try await Self.status(a, session.accessToken) == 401) }
                clock.advance(by: 1)
                for session in [reset, removed] { #expect(try await Self.status(b, session.accessToken) == 401) }
                // Everyone else's sign-in is untouched.
                #expect(try await Self.status(b, world.staff2.accessToken) == 200)
                #expect(try await Self.status(b, world.organizer.accessToken) == 200)

                // The console: a cookie copied before "Sign out" on A reads nothing and creates
                // nothing afterwards, on A or on B.
                let browser = try await ConsoleTests.signedIn(a)
                #expect(try await browser.get("/admin/events").status == 200)
                let copied = try #require(browser.cookies[ConsoleSession.cookieName])
                let csrf = try #require(browser.csrf)
                #expect(try await browser.post("/admin/signout", []).headers[.location] == "/admin/signin")
                clock.advance(by: 1)
                for instance in [a, b] {
                    let thief = ConsoleBrowser(instance)
                    thief.set(ConsoleSession.cookieName, copied)
                    #expect(try await thief.get("/admin/events").headers[.location] == "/admin/signin")
                    thief.set(ConsoleSession.cookieName, copied)
                    let form: [(String, String)] = [
                        ("name", "Stolen Fair"), ("startsAt", "2027-04-10T10:00"), ("endsAt", "2027-04-10T18:00"),
                        ("timeZone", "Europe/Oslo"),
                    ]
                    let created = try await thief.post("/admin/events", form, csrf: csrf)
                    #expect(created.headers[.location] == "/admin/signin", "\(created.status)")
                }
                #expect(try await a.lab(world.organizer).events().contains { $0.name == "Stolen Fair" } == false)
            }
        }
    }
}
