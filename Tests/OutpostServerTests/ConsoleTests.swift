import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The organizer console through the router, on both stores: sign-in with the API's
/// accounts and a session cookie, CSRF and origin checks on every form, hostile names shown as
/// text, the security headers, the guest list's search and paging, roles as the API has them.
/// The browser tests (`scripts/console-e2e`) drive the same pages in Chromium.
@Suite("Organizer console")
struct ConsoleTests {
    static func signedIn(
        _ api: TestAPI, _ email: String = "org@acme.test", password: String = "organizer-pass"
    )
        async throws -> ConsoleBrowser
    {
        let browser = ConsoleBrowser(api)
        let answer = try await browser.signIn(email: email, password: password)
        #expect(answer.status == 303, "\(answer.text)")
        return browser
    }

    @Test(
        "console-signin-cookie: the API's accounts sign in; the session is one HttpOnly, SameSite=Strict cookie on /admin (Secure over TLS); a wrong password is the API's sentence; sign-out ends the API session too",
        arguments: StoreKind.allCases)
    func signIn(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = ConsoleBrowser(api)
            #expect(try await browser.get("/admin").headers[.location] == "/admin/signin")
            var answer = try await browser.signIn(email: "org@acme.test", password: "wrong password")
            #expect(answer.status == 401 && answer.text.contains("The e-mail or password is wrong."))
            #expect(browser.cookies[ConsoleSession.cookieName] == nil)
            answer = try await browser.signIn(email: "org@acme.test", password: "organizer-pass")
            #expect(answer.status == 303 && answer.headers[.location] == "/admin/events")
            let cookie = try #require(
                answer.headers[values: .setCookie].first { $0.hasPrefix(ConsoleSession.cookieName + "=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/admin"))
            #expect(!cookie.contains("Secure"), "plain HTTP on loopback")
            let events = try await browser.get("/admin/events")
            #expect(events.status == 200 && events.text.contains(world.event.name))
            // The cookie holds an API session: signing out revokes its refresh token.
            let session = try #require(browser.cookies[ConsoleSession.cookieName].flatMap(ConsoleSession.init(cookie:)))
            #expect(try await browser.post("/admin/signout", []).headers[.location] == "/admin/signin")
            #expect(browser.cookies[ConsoleSession.cookieName] == nil)
            let refresh = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: session.refreshToken))
            #expect(refresh.status == 401)
            #expect(try await browser.get("/admin/events").headers[.location] == "/admin/signin")
        }
        // Over TLS the cookie is Secure too.
        var configuration = ServerConfiguration(store: .sqliteInMemory)
        configuration.tls = .init(certificateChain: "chain.pem", privateKey: "key.pem")
        let dependencies = ServerDependencies(
            configuration: configuration, store: Store(database: try SQLiteDatabase()), logger: TestStores.logger)
        let routes = ConsoleRoutes(dependencies: dependencies, responder: ConsoleAPI.Responder())
        let secure = routes.sessionCookie(ConsoleSession(accessToken: "a", refreshToken: "r")).description
        #expect(secure.contains("Secure") && secure.contains("HttpOnly") && secure.contains("SameSite=Strict"))
    }

    /// The event form of an event in Oslo on 2027-04-10 from 10:00, ending at `endsAt`.
    static func springFair(endsAt: String) -> [(String, String)] {
        [("name", "Spring Fair"), ("startsAt", "2027-04-10T10:00"), ("endsAt", endsAt), ("timeZone", "Europe/Oslo")]
    }

    @Test(
        "console-csrf: a form post without the page's token, with another session's token, or from another origin changes nothing; with it the change is made",
        arguments: StoreKind.allCases)
    func csrf(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await Self.signedIn(api)
            try await browser.get("/admin/events")
            let form = Self.springFair(endsAt: "2027-04-10T18:00")
            #expect(try await browser.post("/admin/events", form, withToken: false).status == 403)
            let other = try await Self.signedIn(api)
            try await other.get("/admin/events")
            #expect(try await browser.post("/admin/events", form, csrf: other.csrf).status == 403)
            #expect(try await browser.post("/admin/events", form, origin: "http://evil.test").status == 403)
            #expect(
                try await browser.post("/admin/events", form, headers: [.secFetchSite: "cross-site"]).status == 403)
            #expect(try await browser.post("/admin/signout", [], origin: "http://evil.test").status == 403)
            var events = try await api.lab(world.organizer).events()
            #expect(!events.contains { $0.name == "Spring Fair" }, "nothing was created")
            let created = try await browser.post("/admin/events", form)
            #expect(created.status == 303)
            events = try await api.lab(world.organizer).events()
            let fair = try #require(events.first { $0.name == "Spring Fair" })
            #expect(fair.timeZone == "Europe/Oslo")
            #expect(OutpostJSON.format(fair.startsAt) == "2027-04-10T08:00:00.000Z", "10:00 in Oslo is 08:00 UTC")
            #expect(created.headers[.location] == "/admin/events/\(fair.id.wire)?done=created")
            // The sign-in form has its own token.
            let stranger = ConsoleBrowser(api)
            let refused = try await stranger.post(
                "/admin/signin", [("email", "org@acme.test"), ("password", "organizer-pass")], withToken: false)
            #expect(refused.status == 403 && stranger.cookies[ConsoleSession.cookieName] == nil)
        }
    }

    @Test(
        "console-event-header: an event's page says when it runs, on its own wall clock and zone, and how many guests it has and how many are checked in; a check-in moves the count",
        arguments: StoreKind.allCases)
    func eventHeader(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await Self.signedIn(api)
            try await browser.get("/admin/events")
            let created = try await browser.post("/admin/events", Self.springFair(endsAt: "2027-04-10T18:30"))
            let fairPath = try #require(created.headers[.location]).split(separator: "?")[0]
            let fair = try await browser.get(String(fairPath))
            #expect(fair.text.contains("<span id=\"event-when\">2027-04-10 10:00 – 2027-04-10 18:30</span>"))
            #expect(fair.text.contains("<span id=\"event-zone-shown\">Europe/Oslo</span>"))
            #expect(fair.text.contains("<span id=\"event-counts\">0 guests, 0 checked in</span>"))
            let path = "/admin/events/\(world.event.id.wire)"
            let guests: GuestPage = try await api.request(
                .get, "/v1/events/\(world.event.id.wire)/guests?limit=1", token: world.organizer.accessToken
            ).decode()
            #expect(guests.total > 1)
            #expect(try await browser.get(path).text.contains("\(guests.total) guests, 0 checked in"))
            #expect(try await api.checkIn(world.staff1, event: world.event.id, guest: world.guests[0].id).status == 201)
            #expect(try await browser.get(path).text.contains("\(guests.total) guests, 1 checked in"))
            #expect(ConsoleRoutes.grouped(4_210) == "4,210" && ConsoleRoutes.grouped(1_000_000) == "1,000,000")
            #expect(ConsoleRoutes.grouped(999) == "999" && ConsoleRoutes.grouped(0) == "0")
        }
    }

    @Test(
        "console-xss: a guest named <img src=x onerror=alert(1)> with a <script> note, and an event named with markup, are text on every page",
        arguments: StoreKind.allCases)
    func xss(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let hostile = "<img src=x onerror=alert(1)>"
            let guest = try await api.createGuest(
                world.organizer, event: world.event, accessType: world.accessType, name: hostile)
            // Checked in, so the name is on the dashboard and in the audit too.
            #expect(try await api.checkIn(world.staff1, event: world.event.id, guest: guest.id).status == 201)
            let client = api.lab(world.organizer)
            _ = try await client.updateEvent(world.event.id, UpdateEventRequest(name: "Gala <script>alert(2)</script>"))
            let browser = try await Self.signedIn(api)
            for path in [
                "/admin/events", "/admin/events/\(world.event.id.wire)", "/admin/events/\(world.event.id.wire)/guests",
                "/admin/events/\(world.event.id.wire)/guests?q=%3Cimg", "/admin/events/\(world.event.id.wire)/import",
                "/admin/events/\(world.event.id.wire)/dashboard", "/admin/events/\(world.event.id.wire)/audit",
                "/admin/events/\(world.event.id.wire)/guests/\(guest.id.wire)",
                "/admin/events/\(world.event.id.wire)/ticket-mails",
            ] {
                let page = try await browser.get(path)
                #expect(page.status == 200, "\(path)")
                #expect(!page.text.contains("<img src=x") && !page.text.contains("<script>alert"), "\(path)")
                #expect(!page.text.contains("onerror=alert(1)>"), "\(path)")
            }
            let list = try await browser.get("/admin/events/\(world.event.id.wire)/guests?q=onerror")
            #expect(list.text.contains("&lt;img src=x onerror=alert(1)&gt;"))
            #expect(list.text.contains(">1 guest<"))
            for page in ["dashboard", "audit"] {
                let text = try await browser.get("/admin/events/\(world.event.id.wire)/\(page)").text
                #expect(text.contains("&lt;img src=x onerror=alert(1)&gt;"), "\(page) names the guest, as text")
            }
            #expect(try await browser.get("/admin/events").text.contains("Gala &lt;script&gt;alert(2)&lt;/script&gt;"))
        }
    }

    @Test(
        "console-security-headers: every console answer has the Content-Security-Policy (no inline script), frame-ancestors and X-Frame-Options, nosniff, and pages are not stored"
    )
    func headers() async throws {
        try await withTestServer(.sqlite) { api in
            let world = try await World.make(api)
            let browser = try await Self.signedIn(api)
            for path in [
                "/admin/signin", "/admin/events", "/admin/events/\(world.event.id.wire)/guests",
                "/admin/events/\(UUID().lowercasedString)", "/admin/static/console.css", "/admin/static/import.js",
            ] {
                let answer = try await browser.get(path)
                let policy = try #require(answer.headers[.contentSecurityPolicy], "\(path)")
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(path)")
                #expect(policy.contains("frame-ancestors 'none'"), "\(path)")
                #expect(answer.headers[HTTPField.Name("X-Frame-Options")!] == "DENY", "\(path)")
                #expect(answer.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(path)")
                if !path.contains("/static/") { #expect(answer.headers[.cacheControl] == "no-store", "\(path)") }
                #expect(
                    answer.text.firstMatch(of: /<script(?![^>]*\bsrc=)[^>]*>/) == nil, "no inline script on \(path)")
            }
            #expect(try await browser.get("/admin/events/\(UUID().lowercasedString)").status == 404)
        }
    }

    @Test(
        "console-guest-list: search by name, e-mail or code, filter by access type, status and check-in, 50 a page by name with a next page and a first page, the total; a cursor from nowhere is refused",
        arguments: StoreKind.allCases)
    func guestList(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 0)
            let vip = try await api.createAccessType(world.organizer, event: world.event, name: "VIP")
            var csv = "name,email,access_type,notes\r\n"
            for index in 0..<120 {
                csv +=
                    "Guest \(String(format: "%03d", index)),g\(index)@acme.test,\(index % 4 == 0 ? "VIP" : world.accessType.name),\r\n"
            }
            let imported = try await api.request(
                .post, "/v1/events/\(world.event.id.wire)/guests:import", token: world.organizer.accessToken,
                body: Array(csv.utf8), headers: [.contentType: "text/csv"])
            #expect(imported.status == 200, "\(imported.text)")
            let base = "/v1/events/\(world.event.id.wire)/guests"
            let token = world.organizer.accessToken
            var page: GuestPage = try await api.request(.get, base, token: token).decode()
            #expect(page.total == 120 && page.guests.count == 50 && page.guests.first?.name == "Guest 000")
            #expect(page.guests.map(\.name) == page.guests.map(\.name).sorted())
            var names = page.guests.map(\.name)
            while let next = page.next {
                page = try await api.request(.get, base + "?after=\(next)", token: token).decode()
                names += page.guests.map(\.name)
            }
            #expect(
                names.count == 120 && Set(names).count == 120 && names == names.sorted(), "every guest once, in order")
            page = try await api.request(.get, base + "?q=guest%2001", token: token).decode()
            #expect(page.total == 10, "Guest 010-019")
            page = try await api.request(.get, base + "?q=G7%40ACME", token: token).decode()
            #expect(page.guests.map(\.name) == ["Guest 007"], "a part of the e-mail, in any case")
            page = try await api.request(.get, base + "?q=100%25", token: token).decode()
            #expect(page.total == 0, "a % is a character, not a wildcard")
            page = try await api.request(.get, base + "?accessTypeId=\(vip.id.wire)", token: token).decode()
            #expect(page.total == 30)
            let first = try #require(page.guests.first)
            page = try await api.request(.get, base + "?q=\(first.code.lowercased())", token: token).decode()
            #expect(page.guests.map(\.id) == [first.id], "the code, in any case")
            _ = try await api.lab(world.organizer).updateGuest(
                world.event.id, first.id, UpdateGuestRequest(status: .cancelled))
            page = try await api.request(.get, base + "?status=cancelled", token: token).decode()
            #expect(page.guests.map(\.id) == [first.id])
            page = try await api.request(.get, base + "?checkIn=checked_in", token: token).decode()
            #expect(page.total == 0)
            #expect(try await api.request(.get, base + "?after=Nbogus", token: token).status == 400)
            #expect(try await api.request(.get, base + "?status=lost", token: token).status == 400)
            // The console's page of it.
            let browser = try await Self.signedIn(api)
            let html = try await browser.get("/admin/events/\(world.event.id.wire)/guests")
            #expect(
                html.text.contains(">1–50 of 120<") && html.text.contains("Guest 049")
                    && !html.text.contains("Guest 050"))
            #expect(!html.text.contains("id=\"first-page\""), "the first page has no link to itself")
            let nextLink = try #require(html.text.firstMatch(of: /href="([^"]+)" id="next-page"/)?.1)
            let second = try await browser.get(String(nextLink).replacingOccurrences(of: "&amp;", with: "&"))
            #expect(second.text.contains("Guest 050") && second.text.contains("id=\"first-page\""))
            let filtered = try await browser.get(
                "/admin/events/\(world.event.id.wire)/guests?accessTypeId=\(vip.id.wire)&status=confirmed")
            #expect(filtered.text.contains(">29 guests<"))
        }
    }

    @Test(
        "console-roles: check-in staff see only their events and no forms, and a post is refused with the API's words; support reads the guest list"
    )
    func roles() async throws {
        try await withTestServer(.sqlite) { api in
            let world = try await World.make(api)
            let staff = try await Self.signedIn(api, "alex@acme.test", password: "staff-password")
            let events = try await staff.get("/admin/events")
            #expect(events.text.contains(world.event.name) && !events.text.contains("id=\"new-event\""))
            let refused = try await staff.post(
                "/admin/events",
                [
                    ("name", "Mine"), ("startsAt", "2027-01-01T10:00"), ("endsAt", "2027-01-01T12:00"),
                    ("timeZone", "UTC"),
                ])
            #expect(refused.status == 403 && refused.text.contains("Your role does not allow this."))
            let guests = try await staff.get("/admin/events/\(world.event.id.wire)/guests")
            #expect(guests.status == 403 && guests.text.contains("Your role does not allow this."))
            let support = try await Self.signedIn(api, "support@acme.test", password: "staff-password")
            #expect(try await support.get("/admin/events/\(world.event.id.wire)/guests").status == 200)
        }
    }

    @Test(
        "console-token-refresh: past the access token's 15 minutes a page still opens and the cookie gets the rotated pair; once the refresh token is refused, the browser signs in again"
    )
    func refresh() async throws {
        try await withTestServer(.sqlite) { api in
            _ = try await World.make(api)
            let browser = try await Self.signedIn(api)
            let before = try #require(browser.cookies[ConsoleSession.cookieName])
            api.clock.advance(by: 20 * 60)
            let page = try await browser.get("/admin/events")
            #expect(page.status == 200)
            let after = try #require(browser.cookies[ConsoleSession.cookieName])
            #expect(after != before, "the rotated pair is in the cookie")
            #expect(ConsoleSession(cookie: after)?.nonce == ConsoleSession(cookie: before)?.nonce, "forms stay valid")
            // The old pair again (a stale cookie): its refresh token was rotated, so the family ends.
            browser.set(ConsoleSession.cookieName, before)
            api.clock.advance(by: 20 * 60)
            #expect(try await browser.get("/admin/events").headers[.location] == "/admin/signin")
        }
    }

    @Test(
        "console-bar-names-user: the bar names the signed-in user beside their role, escaped; a new name shows after the next refresh; a cookie from before the name was kept still signs in"
    )
    func barNamesUser() async throws {
        try await withTestServer(.sqlite) { api in
            let world = try await World.make(api)
            let browser = try await Self.signedIn(api)
            var page = try await browser.get("/admin/events")
            #expect(page.text.contains("<span id=\"signed-in-user\">Acme Organizer</span>"), "\(page.text)")
            let hostile = "<b>Orla</b> & \"co\""
            let renamed = try await api.request(
                .patch, "/v1/users/\(world.organizer.user.id.wire)", token: world.organizer.accessToken,
                json: UpdateUserRequest(name: hostile))
            #expect(renamed.status == 200, "\(renamed.text)")
            api.clock.advance(by: 20 * 60)
            // The page that refreshes is made with the name it came with; the cookie gets the new.
            _ = try await browser.get("/admin/events")
            page = try await browser.get("/admin/events")
            #expect(
                page.text.contains("<span id=\"signed-in-user\">&lt;b&gt;Orla&lt;/b&gt; &amp; &quot;co&quot;</span>"),
                "\(page.text)")
            // A name longer than a cookie should hold: the bar shows its start, the session goes on.
            let long = String(repeating: "Ö", count: 2_000)
            let fresh = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
            let renamedLong = try await api.request(
                .patch, "/v1/users/\(world.organizer.user.id.wire)", token: fresh.accessToken,
                json: UpdateUserRequest(name: long))
            #expect(renamedLong.status == 200)
            api.clock.advance(by: 20 * 60)
            _ = try await browser.get("/admin/events")
            page = try await browser.get("/admin/events")
            #expect(page.status == 200)
            #expect(page.text.contains("<span id=\"signed-in-user\">\(String(repeating: "Ö", count: 99))…</span>"))
            // Three parts (nonce, access, refresh): read with no name, the role still shown.
            let session = try #require(browser.cookies[ConsoleSession.cookieName].flatMap(ConsoleSession.init(cookie:)))
            browser.set(
                ConsoleSession.cookieName,
                [session.nonce, session.accessToken, session.refreshToken].joined(separator: "~"))
            page = try await browser.get("/admin/events")
            #expect(page.status == 200 && !page.text.contains("signed-in-user"))
            #expect(page.text.contains("id=\"signed-in-role\">Organizer</span>"))
        }
    }

    @Test(
        "console-staff-picker-empty: the staff picker starts on no one and requires a choice; a form sent without one is refused in words and puts nobody on the staff",
        arguments: StoreKind.allCases)
    func staffPickerEmpty(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await Self.signedIn(api)
            let eventPath = "/admin/events/\(world.event.id.wire)"
            let page = try await browser.get(eventPath)
            #expect(
                page.text.contains(
                    #"<select name="userId" id="assign-user" required><option value="" selected>Choose a user…</option>"#
                ),
                "the picker's first choice is no one, and a choice is required")
            let staffPath = "/v1/events/\(world.event.id.wire)/staff"
            let before: UserList = try await api.request(.get, staffPath, token: world.organizer.accessToken).decode()
            let answer = try await browser.post(eventPath + "/staff", [("userId", "")])
            #expect(
                answer.status == 422 && answer.text.contains("Choose a user to put on the staff."), "\(answer.text)")
            let after: UserList = try await api.request(.get, staffPath, token: world.organizer.accessToken).decode()
            #expect(after.users.map(\.id) == before.users.map(\.id), "an unchosen picker assigns nobody")
        }
    }

    @Test(
        "console-staff-kiosk: an organizer creates a user, puts them on an event's staff and takes them off; a weak kiosk passcode is refused with the API's rules, a good one sets the kiosk up; the user removed",
        arguments: StoreKind.allCases)
    func staffAndKiosk(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await Self.signedIn(api)
            let staffPage = try await browser.get("/admin/staff")
            // Roles in words, their API words as the values; the bar marks the page's section.
            #expect(staffPage.text.contains("<option value=\"checkin_staff\" selected>Check-in staff</option>"))
            #expect(staffPage.text.contains("<option value=\"organizer\">Organizer</option>"))
            #expect(staffPage.text.contains("<span class=\"role\" id=\"signed-in-role\">Organizer</span>"))
            #expect(staffPage.text.contains("id=\"staff-nav\" aria-current=\"page\""))
            #expect(!staffPage.text.contains("id=\"events-nav\" aria-current"))
            let eventsPage = try await browser.get("/admin/events")
            #expect(eventsPage.text.contains("id=\"events-nav\" aria-current=\"page\""))
            #expect(!eventsPage.text.contains("id=\"staff-nav\" aria-current"))
            var answer = try await browser.post(
                "/admin/staff",
                [("name", "Dora Door"), ("email", "dora@acme.test"), ("role", "checkin_staff"), ("password", "short")])
            #expect(answer.status == 422 && answer.text.contains("at least 8 characters"))
            answer = try await browser.post(
                "/admin/staff",
                [
                    ("name", "Dora Door"), ("email", "dora@acme.test"), ("role", "checkin_staff"),
                    ("password", "door-password"),
                ])
            #expect(answer.status == 303)
            let users: UserList = try await api.request(.get, "/v1/users", token: world.organizer.accessToken).decode()
            let dora = try #require(users.users.first { $0.email == "dora@acme.test" })
            #expect(dora.role == .checkinStaff)
            let eventPath = "/admin/events/\(world.event.id.wire)"
            var page = try await browser.get(eventPath)
            #expect(page.text.contains("<option value=\"\(dora.id.wire)\">Dora Door (Check-in staff)</option>"))
            answer = try await browser.post(eventPath + "/staff", [("userId", dora.id.wire)])
            #expect(answer.headers[.location] == eventPath + "?done=staff")
            var staff: UserList = try await api.request(
                .get, "/v1/events/\(world.event.id.wire)/staff", token: world.organizer.accessToken
            ).decode()
            #expect(staff.users.contains { $0.id == dora.id })
            // Dora can sign in and sees the event.
            let doraBrowser = try await Self.signedIn(api, "dora@acme.test", password: "door-password")
            #expect(try await doraBrowser.get("/admin/events").text.contains(world.event.name))
            page = try await browser.get(eventPath)
            answer = try await browser.post(eventPath + "/staff/\(dora.id.wire)/remove", [])
            #expect(answer.headers[.location] == eventPath + "?done=unassigned")
            staff = try await api.request(
                .get, "/v1/events/\(world.event.id.wire)/staff", token: world.organizer.accessToken
            ).decode()
            #expect(!staff.users.contains { $0.id == dora.id })
            // The kiosk: the rules as the API enforces them, a weak passcode refused in its words.
            page = try await browser.get(eventPath)
            #expect(page.text.contains(PasscodeRule.notSequential.explanation) && page.text.contains("Not set up."))
            answer = try await browser.post(
                eventPath + "/kiosk", [("passcode", "123456"), ("orientation", "landscape")])
            #expect(answer.status == 422 && answer.text.contains("run of digits"))
            answer = try await browser.post(
                eventPath + "/kiosk", [("passcode", "394817"), ("orientation", "landscape")])
            #expect(answer.headers[.location] == eventPath + "?done=kiosk")
            #expect(try await browser.get(eventPath).text.contains("Set up, landscape."))
            // Removing Dora ends her console session at its next refresh.
            try await browser.get("/admin/staff")
            answer = try await browser.post("/admin/staff/\(dora.id.wire)/remove", [])
            #expect(answer.headers[.location] == "/admin/staff?done=removed")
            api.clock.advance(by: 20 * 60)
            #expect(try await doraBrowser.get("/admin/events").headers[.location] == "/admin/signin")
        }
    }

    @Test(
        "console-remove-user-unsent: removing a user whose device reported unsent entries shows how many and asks first; 'remove anyway' removes",
        arguments: StoreKind.allCases)
    func removeUserWithUnsentWork(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let mentor = try await api.createUser(world.organizer, email: "mia@acme.test", role: .mentor, name: "Mia")
            #expect(
                try await api.request(
                    .put, "/v1/me/devices/phone-1", token: mentor.accessToken, json: DeviceReport(pending: 2)
                ).status == 204)
            let browser = try await Self.signedIn(api)
            try await browser.get("/admin/staff")
            let asked = try await browser.post("/admin/staff/\(mentor.user.id.wire)/remove", [])
            #expect(asked.status == 409, "\(asked.text)")
            #expect(
                asked.text.contains("Mia&#39;s devices last reported 2 entries not yet sent")
                    || asked.text.contains("Mia's devices last reported 2 entries not yet sent"), "\(asked.text)")
            #expect(asked.text.contains("id=\"confirm-anyway\""))
            let users: UserList = try await api.request(.get, "/v1/users", token: world.organizer.accessToken).decode()
            #expect(users.users.contains { $0.id == mentor.user.id }, "not removed yet")
            let removed = try await browser.post(
                "/admin/staff/\(mentor.user.id.wire)/remove", [("confirm", "unsent")])
            #expect(removed.headers[.location] == "/admin/staff?done=removed")
            let after: UserList = try await api.request(.get, "/v1/users", token: world.organizer.accessToken).decode()
            #expect(!after.users.contains { $0.id == mentor.user.id })
        }
    }

    @Test(
        "console-tickets-pdf: the tickets of the confirmed guests as one PDF, a page each, as an attachment; a cancelled guest has none; staff may not print them",
        arguments: StoreKind.allCases)
    func ticketsPDF(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            _ = try await api.lab(world.organizer).updateGuest(
                world.event.id, world.guests[0].id, UpdateGuestRequest(status: .cancelled))
            let browser = try await Self.signedIn(api)
            let pdf = try await browser.get("/admin/events/\(world.event.id.wire)/tickets.pdf")
            #expect(pdf.status == 200 && pdf.headers[.contentType] == "application/pdf")
            #expect(pdf.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            let text = String(decoding: pdf.body, as: UTF8.self)
            #expect(text.hasPrefix("%PDF-"))
            #expect(text.matches(of: /\/Type \/Page[^s]/).count == 2, "two confirmed guests, a page each")
            let staff = try await Self.signedIn(api, "alex@acme.test", password: "staff-password")
            #expect(try await staff.get("/admin/events/\(world.event.id.wire)/tickets.pdf").status == 403)
        }
    }
}
