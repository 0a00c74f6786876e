import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The guest list finds a full name typed into the console's form (`+` is a
/// space), finds `Émile` by any case and accent on both stores, sorts names as people read them,
/// and the console's cookies are `Secure` behind a TLS proxy. The browser half is in
/// `Tests/console/console_e2e.py`.
@Suite("Console search and cookies")
struct ConsoleSearchTests {
    static let names = ["Zoe Adams", "Émile Zola", "anna zed", "Guest 007 xxx", "Guest 0071", "ÉMILE Berg"]

    @Test(
        "console-search-folded: a full name with spaces as the form sends it (+), any case and accent, on both stores; the list sorted by the folded name, page after page",
        arguments: StoreKind.allCases)
    func search(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            for name in Self.names {
                _ = try await api.createGuest(
                    world.organizer, event: world.event, accessType: world.accessType, name: name)
            }
            let event = world.event.id.wire
            func found(_ rawQuery: String) async throws -> [String] {
                let page: GuestPage = try await api.request(
                    .get, "/v1/events/\(event)/guests?q=\(rawQuery)&limit=50", token: world.organizer.accessToken
                ).decode()
                return page.guests.map(\.name)
            }
            #expect(try await found("Guest+007+xxx") == ["Guest 007 xxx"])
            #expect(try await found("Guest%20007%20xxx") == ["Guest 007 xxx"])
            #expect(try await found("%C3%A9mile").sorted() == ["Émile Zola", "ÉMILE Berg"].sorted())
            #expect(try await found("EMILE+ZOLA") == ["Émile Zola"])
            #expect(try await found("ANNA") == ["anna zed"])
            // The console's form: the page lists the full name's guest only.
            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get("/admin/events/\(event)/guests?q=Guest+007+xxx&accessTypeId=&status=")
            #expect(page.status == 200)
            #expect(page.text.contains("Guest 007 xxx") && !page.text.contains("Guest 0071"))
            #expect(page.text.contains("value=\"Guest 007 xxx\""), "the search box keeps what was typed")
            // Sorted by the folded name, across pages of two.
            var order: [String] = []
            var after: String?
            repeat {
                let path =
                    "/v1/events/\(event)/guests?limit=2"
                    + (after.map { "&after=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" } ?? "")
                let next: GuestPage = try await api.request(.get, path, token: world.organizer.accessToken).decode()
                order += next.guests.map(\.name)
                after = next.next
            } while after != nil
            let ours = order.filter { Self.names.contains($0) }
            #expect(
                ours == ["anna zed", "ÉMILE Berg", "Émile Zola", "Guest 007 xxx", "Guest 0071", "Zoe Adams"], "\(ours)")
        }
    }

    @Test(
        "console-cookie-secure-behind-proxy: X-Forwarded-Proto https from a trusted proxy, or --secure-cookies, makes the console's cookies Secure; the header from any other peer does not"
    )
    func secureBehindProxy() async throws {
        /// The sign-in page's cookie over a real loopback socket, with `headers`.
        func preCookie(
            trusted: Set<String>, secure: Bool = false, headers: HTTPFields
        ) async throws -> String {
            try await withServer(
                location: .sqliteInMemory, live: true,
                configure: {
                    $0.trustedProxies = trusted
                    $0.secureCookies = secure
                }
            ) { api in
                let answer = try await api.request(.get, "/admin/signin", headers: headers)
                return try #require(answer.headers[values: .setCookie].first)
            }
        }
        let https: HTTPFields = [HTTPField.Name("X-Forwarded-Proto")!: "https"]
        let viaProxy = try await preCookie(trusted: ["127.0.0.1", "::1"], headers: https)
        #expect(viaProxy.contains("; Secure"), "\(viaProxy)")
        let untrusted = try await preCookie(trusted: [], headers: https)
        #expect(!untrusted.contains("Secure"), "\(untrusted)")
        let plain = try await preCookie(trusted: ["127.0.0.1", "::1"], headers: [:])
        #expect(!plain.contains("Secure"), "\(plain)")
        let forced = try await preCookie(trusted: [], secure: true, headers: [:])
        #expect(forced.contains("; Secure") && forced.contains("HttpOnly"), "\(forced)")
    }
}
