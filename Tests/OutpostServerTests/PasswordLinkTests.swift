import Foundation
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Password links: an organizer has one mailed, the user sets a password with it once.
@Suite("Password links")
struct PasswordLinkTests {
    static let publicURL = "https://outpost.example.org/"

    /// The link in the last mail to `email`, as a path with its query.
    static func linkPath(_ sink: SMTPSink, to email: String) throws -> String {
        let mail = try #require(sink.messages().last { $0.to == email }, "no mail to \(email)")
        let line = try #require(
            mail.body.split(separator: "\n").first { $0.hasPrefix("https://outpost.example.org/admin/password?token=") }
        )
        return String(line.dropFirst("https://outpost.example.org".count)).trimmingCharacters(in: .whitespaces)
    }

    static func token(_ path: String) -> String { String(path.split(separator: "=", maxSplits: 1)[1]) }

    @Test(
        "password-link: an organizer has a link mailed (never seeing the password); it sets the password once, ends the user's sign-ins, stops working after a day or when a newer one is sent; support cannot send one; without a public URL or relay it says why",
        arguments: StoreKind.allCases)
    func link(kind: StoreKind) async throws {
        try await withMailTestServer(kind, configure: { $0.publicURL = URL(string: Self.publicURL) }) { api, sink in
            let world = try await World.make(api)
            let path = API.sendPasswordLink.path(world.staff1.user.id)
            #expect(try await api.request(.post, path, token: world.support.accessToken).status == 403)
            var answer = try await api.request(.post, path, token: world.organizer.accessToken)
            #expect(answer.status == 202, "\(answer.text)")
            let sent: PasswordLinkSent = try answer.decode()
            #expect(sent.email == "alex@acme.test" && sent.expiresAt == api.clock.now + 24 * 3_600)
            _ = await api.sendQueuedMail()
            let first = Self.token(try Self.linkPath(sink, to: "alex@acme.test"))
            // Only the token's hash is kept.
            let kept = try await api.store.database.read {
                try await $0.query("SELECT token_hash FROM password_links", []).map { try $0.text("token_hash") }
            }
            #expect(kept.count == 1 && !kept.contains(first) && kept[0] == PasswordLinkRoutes.hash(first))
            // A newer link ends the first.
            _ = try await api.request(.post, path, token: world.organizer.accessToken)
            _ = await api.sendQueuedMail()
            let second = Self.token(try Self.linkPath(sink, to: "alex@acme.test"))
            #expect(second != first)
            let use = { (token: String, password: String) in
                try await api.request(
                    .post, API.usePasswordLink.path(), json: PasswordLinkUse(token: token, password: password))
            }
            answer = try await use(first, "a brand new password")
            #expect(answer.status == 401 && answer.errorCode == "invalid_code", "\(answer.text)")
            answer = try await use(second, "short")
            #expect(answer.status == 422)
            #expect(try await use(second, "a brand new password").status == 204)
            #expect(try await use(second, "another new password").status == 401, "a link works once")
            // The sign-ins from before end; the new password signs in, the old one does not.
            let refresh = try await api.request(
                .post, API.refresh.path(), json: RefreshRequest(refreshToken: world.staff1.refreshToken))
            #expect(refresh.status == 401)
            #expect(try await api.signIn(email: "alex@acme.test", password: "a brand new password").user.name == "Alex")
            let old = try await api.request(
                .post, API.signIn.path(),
                json: SignInRequest(email: "alex@acme.test", password: "staff-password", deviceId: "d"))
            #expect(old.status == 401)
            // A day later a link is worth nothing.
            _ = try await api.request(
                .post, API.sendPasswordLink.path(world.staff2.user.id), token: world.organizer.accessToken)
            _ = await api.sendQueuedMail()
            let late = Self.token(try Self.linkPath(sink, to: "bea@acme.test"))
            api.clock.advance(by: 24 * 3_600 + 1)
            #expect(try await use(late, "a brand new password").status == 401)
            #expect(try await use("made-up", "a brand new password").status == 401)
        }
        try await withMailTestServer(kind) { api, _ in
            let world = try await World.make(api)
            let answer = try await api.request(
                .post, API.sendPasswordLink.path(world.staff1.user.id), token: world.organizer.accessToken)
            #expect(answer.status == 503 && answer.text.contains("--public-url"), "\(answer.text)")
        }
    }

    @Test(
        "console-password-link: the staff page mails a password link; the mailed link opens a signed-out page that sets the password (two different ones are refused, an used link says to ask for a new one), then the user signs in with it",
        arguments: StoreKind.allCases)
    func console(kind: StoreKind) async throws {
        try await withMailTestServer(kind, configure: { $0.publicURL = URL(string: Self.publicURL) }) { api, sink in
            let world = try await World.make(api)
            let organizer = try await ConsoleTests.signedIn(api)
            var page = try await organizer.get(ConsolePages.staff.path())
            let send = ConsolePages.sendPasswordLink.path(world.staff2.user.id)
            #expect(page.text.contains("action=\"\(send)\""))
            var answer = try await organizer.post(send, [])
            #expect(answer.headers[.location] == ConsolePages.staff.path(query: [("done", "password-link")]))
            page = try await organizer.get(answer.headers[.location] ?? "")
            #expect(page.text.contains("A link to set a new password was mailed to them"))
            _ = await api.sendQueuedMail()
            let link = try Self.linkPath(sink, to: "bea@acme.test")
            let bea = ConsoleBrowser(api)
            page = try await bea.get(link)
            #expect(page.status == 200 && page.text.contains("id=\"password-form\""))
            #expect(page.text.contains("value=\"\(Self.token(link))\""))
            answer = try await bea.post(
                ConsolePages.setPassword.path(),
                [("token", Self.token(link)), ("password", "bea's new password"), ("repeat", "bea's new passwort")])
            #expect(answer.status == 422 && answer.text.contains("The two passwords differ"))
            answer = try await bea.post(
                ConsolePages.setPassword.path(),
                [("token", Self.token(link)), ("password", "bea's new password"), ("repeat", "bea's new password")])
            #expect(answer.headers[.location] == ConsolePages.signInPage.path(query: [("done", "password-set")]))
            page = try await bea.get(answer.headers[.location] ?? "")
            #expect(page.text.contains("Your password is set"))
            #expect(try await bea.signIn(email: "bea@acme.test", password: "bea's new password").status == 303)
            // The same link again: used, so no form, and what to do.
            let again = ConsoleBrowser(api)
            _ = try await again.get(link)
            answer = try await again.post(
                ConsolePages.setPassword.path(),
                [("token", Self.token(link)), ("password", "yet another one"), ("repeat", "yet another one")])
            #expect(answer.status == 401 && answer.text.contains("ask an organizer for a new one"))
            #expect(!answer.text.contains("id=\"password-form\""))
            // A form from elsewhere (no CSRF token of this browser's page) is refused.
            let stranger = ConsoleBrowser(api)
            answer = try await stranger.post(
                ConsolePages.setPassword.path(),
                [("token", Self.token(link)), ("password", "yet another one"), ("repeat", "yet another one")],
                withToken: false)
            #expect(answer.status == 403)
        }
    }
}
