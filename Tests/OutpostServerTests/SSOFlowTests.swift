import Foundation
import JWTKit
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Single sign-on end to end against a real OpenID Connect provider on loopback
/// (oidc-provider-mock): the browser legs with curl, the server live, the provider's own keys
/// and tokens. Each refusal leaves the app with an `error` and no code, and no session.
@Suite("Single sign-on with a real provider", .serialized, .sharedIdentityProvider)
struct SSOFlowTests {
    @Test("sso-api-flow: an existing user signs in through the provider, linked by issuer and subject")
    func existingUserSignsIn() async throws {
        try await SSOLab.run { lab in
            let staff = try await lab.api.createUser(
                lab.organizer, email: "ana@acme.test", role: .checkinStaff, name: "Ana")
            try await lab.provider.setUser(
                "ana-1", claims: ["email": "Ana@acme.test", "email_verified": true, "name": "Ana"])
            let pair = try await lab.signIn(email: "ana@acme.test", subject: "ana-1")
            #expect(pair.user.id == staff.user.id)
            #expect(pair.user.role == .checkinStaff)
            // The token pair is Outpost's own: it reads the API.
            let events = try await lab.api.request(.get, API.listEvents.path(), token: pair.accessToken)
            #expect(events.status == 200)
            // The link is by subject now: a changed e-mail at the provider still signs in Ana.
            try await lab.provider.setUser("ana-1", claims: ["email": "ana.new@acme.test", "email_verified": true])
            #expect(try await lab.signIn(email: "ana@acme.test", subject: "ana-1").user.id == staff.user.id)
        }
    }

    @Test("sso-new-user-policy: existing-only refuses a stranger; checkin_staff creates them as check-in staff")
    func newUserPolicy() async throws {
        try await SSOLab.run { lab in
            try await lab.provider.setUser(
                "bo-1", claims: ["email": "bo@acme.test", "email_verified": true, "name": "Bo"])
            let verifier = PKCE.makeVerifier()
            let (_, refused) = try await lab.browserSignIn(email: "bo@acme.test", subject: "bo-1", verifier: verifier)
            #expect(refused.locationQuery["error"] == "access_denied")
            #expect(refused.locationQuery["error_description"]?.contains("no Outpost account for bo@acme.test") == true)
            #expect(refused.locationQuery["code"] == nil)
            #expect(refused.locationQuery["state"] == "app-state")
            #expect(try await lab.api.store.user(email: "bo@acme.test") == nil)

            var open = try await lab.api.request(.get, API.ssoSettings.path(), token: lab.organizer.accessToken)
                .decode(SSOSettings.self)
            open.newUsers = .checkInStaff
            #expect(try await lab.configure(open).status == 200)
            let pair = try await lab.signIn(email: "bo@acme.test", subject: "bo-1")
            #expect(pair.user.role == .checkinStaff)
            #expect(pair.user.name == "Bo")
            #expect(pair.user.tenantId == lab.organizer.user.tenantId)
            // Removed by the organizer: the provider still vouches for Bo, Outpost signs in no one,
            // and makes no second account for the address.
            let removed = try await lab.api.request(
                .delete, API.removeUser.path(pair.user.id), token: lab.organizer.accessToken)
            #expect(removed.status == 204, "\(removed.text)")
            let (_, gone) = try await lab.browserSignIn(email: "bo@acme.test", subject: "bo-1", verifier: verifier)
            #expect(gone.locationQuery["code"] == nil)
            #expect(gone.locationQuery["error"] == "access_denied")
            try await lab.provider.setUser("bo-2", claims: ["email": "bo@acme.test", "email_verified": true])
            let (_, again) = try await lab.browserSignIn(email: "bo@acme.test", subject: "bo-2", verifier: verifier)
            #expect(again.locationQuery["error_description"]?.contains("was removed") == true)
        }
    }

    @Test("sso-refused-domain: an e-mail outside the allowed domains, or one not verified, gets no session")
    func domainRefused() async throws {
        try await SSOLab.run { lab in
            _ = try await lab.api.createUser(lab.organizer, email: "eve@acme.test", role: .organizer, name: "Eve")
            // The provider vouches for an address outside acme.test.
            try await lab.provider.setUser("eve-1", claims: ["email": "eve@evil.test", "email_verified": true])
            let verifier = PKCE.makeVerifier()
            let (_, outside) = try await lab.browserSignIn(email: "eve@acme.test", subject: "eve-1", verifier: verifier)
            #expect(outside.locationQuery["code"] == nil)
            #expect(outside.locationQuery["error_description"]?.contains("eve@evil.test is not in a domain") == true)
            // The right address, but not verified by the provider: not trusted to link the organizer's account.
            try await lab.provider.setUser("eve-2", claims: ["email": "eve@acme.test", "email_verified": false])
            let (_, unverified) = try await lab.browserSignIn(
                email: "eve@acme.test", subject: "eve-2", verifier: verifier)
            #expect(unverified.locationQuery["code"] == nil)
            #expect(unverified.locationQuery["error_description"]?.contains("verified e-mail") == true)
        }
    }

    @Test("sso-refused-replayed-state: the provider's redirect works once")
    func replayedState() async throws {
        try await SSOLab.run { lab in
            _ = try await lab.api.createUser(lab.organizer, email: "ana@acme.test", role: .checkinStaff, name: "Ana")
            try await lab.provider.setUser("ana-1", claims: ["email": "ana@acme.test", "email_verified": true])
            let verifier = PKCE.makeVerifier()
            let (callback, back) = try await lab.browserSignIn(
                email: "ana@acme.test", subject: "ana-1", verifier: verifier)
            #expect(back.locationQuery["code"] != nil)
            let replay = try await Browser().get(callback)
            #expect(replay.status == 400)
            #expect(replay.location == nil)
            #expect(replay.body.contains("sso_refused"))
            // Another tenant's callback path with this state: a mix-up, refused (and the attempt is gone).
            let other = try await lab.api.bootstrapTenant("Other", email: "org@other.test")
            let mixed = try await lab.browserSignIn(
                email: "ana@acme.test", subject: "ana-1", verifier: verifier,
                tamperCallback: {
                    $0.replacingOccurrences(of: lab.organizer.user.tenantId.wire, with: other.user.tenantId.wire)
                })
            #expect(mixed.back.status == 400)
            #expect(mixed.back.location == nil)
            #expect(
                try await Browser().get(
                    mixed.callback.replacingOccurrences(
                        of: other.user.tenantId.wire, with: lab.organizer.user.tenantId.wire)
                ).status == 400)
            // A state that was never issued, and one of an expired attempt, likewise.
            let forged = try await Browser().get(callback.replacingOccurrences(of: "state=", with: "state=x"))
            #expect(forged.status == 400)
            let started = try await lab.start(email: "ana@acme.test", verifier: verifier, browser: Browser())
            let login = try await Browser().signInAtProvider(try #require(started.location), subject: "ana-1")
            lab.api.clock.advance(by: SSOSignInRoutes.attemptLifetime + 1)
            #expect(try await Browser().get(try #require(login.location)).status == 400)
        }
    }

    @Test("sso-refused-replayed-nonce: a provider answer made with another sign-in's nonce is refused")
    func replayedNonce() async throws {
        try await SSOLab.run { lab in
            _ = try await lab.api.createUser(lab.organizer, email: "ana@acme.test", role: .checkinStaff, name: "Ana")
            try await lab.provider.setUser("ana-1", claims: ["email": "ana@acme.test", "email_verified": true])
            // An earlier sign-in's nonce, as an attacker who captured it would inject it.
            let earlier = try await lab.start(email: "ana@acme.test", verifier: PKCE.makeVerifier(), browser: Browser())
            let oldNonce = try #require(earlier.locationQuery["nonce"])
            let verifier = PKCE.makeVerifier()
            let (_, back) = try await lab.browserSignIn(
                email: "ana@acme.test", subject: "ana-1", verifier: verifier,
                tamper: { url in
                    var components = URLComponents(string: url)!
                    components.queryItems = components.queryItems!.map {
                        $0.name == "nonce" ? URLQueryItem(name: "nonce", value: oldNonce) : $0
                    }
                    return components.url!.absoluteString
                })
            #expect(back.locationQuery["code"] == nil)
            #expect(back.locationQuery["error_description"] == IDTokenRefusal.nonce.description)
        }
    }

    @Test("sso-refused-expired: an ID token that expired before the callback is refused")
    func expiredToken() async throws {
        try await SSOLab.run(tokenMaxAge: 60) { lab in
            _ = try await lab.api.createUser(lab.organizer, email: "ana@acme.test", role: .checkinStaff, name: "Ana")
            try await lab.provider.setUser("ana-1", claims: ["email": "ana@acme.test", "email_verified": true])
            // The provider's tokens live a minute here: the server's clock is past that and the
            // five minutes' leeway when the browser comes back, still inside the attempt's ten.
            let verifier = PKCE.makeVerifier()
            let browser = Browser()
            let started = try await lab.start(email: "ana@acme.test", verifier: verifier, browser: browser)
            let login = try await browser.signInAtProvider(try #require(started.location), subject: "ana-1")
            let callback = try #require(login.location)
            // The provider stamps its tokens with the real time; the server's clock is moved from
            // the real time now (not from the test's start: a loaded machine takes seconds to get
            // here) past the token's minute and the five minutes' leeway.
            lab.api.clock.advance(
                by: Date().timeIntervalSince(lab.api.clock.now) + 60 + IDTokenVerifier.leeway + 5)
            let back = try await browser.get(callback)
            #expect(back.locationQuery["code"] == nil)
            #expect(back.locationQuery["error_description"] == IDTokenRefusal.expired.description)
        }
    }

    @Test("sso-refused-wrong-aud: a genuine ID token the provider made for another client is refused")
    func wrongAudience() async throws {
        // The provider binds each code to its client, so a token for another app cannot come
        // back through Outpost's code flow; it is checked here on the same path the callback
        // uses (the provider's published keys through ProviderKeys, then the claims).
        let own = SharedIdentityProvider.current == nil ? try await TestIdentityProvider.startForTest() : nil
        defer { own?.stop() }
        let provider = try #require(SharedIdentityProvider.current ?? own)
        let redirect = "http://127.0.0.1:9/cb"
        let authorize =
            provider.issuer
            + "/oauth2/authorize?response_type=code&client_id=other-app&scope=openid&state=s&nonce=n-1&redirect_uri="
            + redirect
        let login = try await Browser().signInAtProvider(authorize, subject: "ana-1")
        let code = try #require(login.locationQuery["code"])
        let answer = try await Browser.send(
            "POST", provider.issuer + "/oauth2/token",
            body: Data(
                "grant_type=authorization_code&code=\(code)&redirect_uri=\(redirect)&client_id=other-app&client_secret=x"
                    .utf8),
            contentType: "application/x-www-form-urlencoded")
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        let token = try #require(fields["id_token"] as? String)
        let keys = ProviderKeys(fetch: { try await IdentityProviderClient.shared.keys(at: $0) }, now: { Date() })
        let jwks = try #require(URL(string: provider.issuer + "/jwks"))
        // For its own client the token is good: the refusal below is the audience's alone.
        let good = try await keys.verify(
            token, at: jwks,
            expecting: IDTokenVerifier.Expectation(
                issuer: provider.issuer, clientId: "other-app", nonce: "n-1", now: Date()))
        #expect(good.sub.value == "ana-1")
        await #expect(throws: IDTokenRefusal.audience) {
            try await keys.verify(
                token, at: jwks,
                expecting: IDTokenVerifier.Expectation(
                    issuer: provider.issuer, clientId: "outpost", nonce: "n-1", now: Date()))
        }
    }

    @Test("sso-refused-provider-down: a provider that does not answer the code exchange gives no session")
    func providerDown() async throws {
        try await SSOLab.run(ownProvider: true) { lab in
            _ = try await lab.api.createUser(lab.organizer, email: "ana@acme.test", role: .checkinStaff, name: "Ana")
            try await lab.provider.setUser("ana-1", claims: ["email": "ana@acme.test", "email_verified": true])
            let (_, back) = try await lab.browserSignIn(
                email: "ana@acme.test", subject: "ana-1", verifier: PKCE.makeVerifier(),
                beforeCallback: { lab.provider.stop() })
            #expect(back.status == 302)
            #expect(back.locationQuery["code"] == nil)
            #expect(back.locationQuery["error"] == "temporarily_unavailable")
            #expect(back.locationQuery["error_description"]?.contains("did not answer") == true)
            // Saving settings against a provider that is down is refused too, and says so.
            var settings = try await lab.api.request(.get, API.ssoSettings.path(), token: lab.organizer.accessToken)
                .decode(SSOSettings.self)
            settings.displayName = "Acme ID 2"
            let saved = try await lab.configure(settings)
            #expect(saved.status == 502)
            #expect(saved.errorCode == "provider_unavailable")
        }
    }

    @Test("sso-jwks-rotation-real-provider: after the provider restarts with a new key, sign-in still works")
    func rotation() async throws {
        try await SSOLab.run(ownProvider: true) { lab in
            _ = try await lab.api.createUser(lab.organizer, email: "ana@acme.test", role: .checkinStaff, name: "Ana")
            try await lab.provider.setUser("ana-1", claims: ["email": "ana@acme.test", "email_verified": true])
            let first = try await lab.signIn(email: "ana@acme.test", subject: "ana-1")
            try await lab.provider.restart()
            try await lab.provider.setUser("ana-1", claims: ["email": "ana@acme.test", "email_verified": true])
            // Past the refetch limit: the cached key fails the new token's signature, the keys are read again.
            lab.api.clock.advance(by: ProviderKeys.refetchInterval + 1)
            #expect(try await lab.signIn(email: "ana@acme.test", subject: "ana-1").user.id == first.user.id)
        }
    }

    @Test("sso-code-once-with-verifier: the one-time code needs the app's verifier and works once")
    func codeOnce() async throws {
        try await SSOLab.run { lab in
            _ = try await lab.api.createUser(lab.organizer, email: "ana@acme.test", role: .checkinStaff, name: "Ana")
            try await lab.provider.setUser("ana-1", claims: ["email": "ana@acme.test", "email_verified": true])
            let verifier = PKCE.makeVerifier()
            let (_, back) = try await lab.browserSignIn(email: "ana@acme.test", subject: "ana-1", verifier: verifier)
            let code = try #require(back.locationQuery["code"])
            // A stolen code with a guessed verifier is refused and burns the code.
            let stolen = try await lab.redeem(code: code, verifier: PKCE.makeVerifier())
            #expect(stolen.status == 400)
            #expect(stolen.errorCode == "sso_refused")
            #expect(try await lab.redeem(code: code, verifier: verifier).status == 400)
            // A fresh one works once; the second redemption is refused.
            let (_, again) = try await lab.browserSignIn(email: "ana@acme.test", subject: "ana-1", verifier: verifier)
            let fresh = try #require(again.locationQuery["code"])
            #expect(try await lab.redeem(code: fresh, verifier: verifier).status == 200)
            #expect(try await lab.redeem(code: fresh, verifier: verifier).status == 400)
            // And it expires after a minute.
            let (_, late) = try await lab.browserSignIn(email: "ana@acme.test", subject: "ana-1", verifier: verifier)
            lab.api.clock.advance(by: SSOSignInRoutes.codeLifetime + 1)
            #expect(
                try await lab.redeem(code: try #require(late.locationQuery["code"]), verifier: verifier).status == 400)
        }
    }

    @Test("sso-password-sign-in-off: a tenant may turn passwords off; others keep them")
    func passwordSignInOff() async throws {
        try await SSOLab.run { lab in
            _ = try await lab.api.createUser(lab.organizer, email: "ana@acme.test", role: .checkinStaff, name: "Ana")
            var settings = try await lab.api.request(.get, API.ssoSettings.path(), token: lab.organizer.accessToken)
                .decode(SSOSettings.self)
            settings.passwordSignIn = false
            #expect(try await lab.configure(settings).status == 200)
            let refused = try await lab.api.request(
                .post, API.signIn.path(),
                json: SignInRequest(email: "ana@acme.test", password: "staff-password", deviceId: "d"))
            #expect(refused.status == 403)
            #expect(refused.errorCode == "password_sign_in_off")
            #expect(refused.text.contains("Sign in with Acme ID"))
            // A wrong password learns nothing more than a wrong password.
            let wrong = try await lab.api.request(
                .post, API.signIn.path(), json: SignInRequest(email: "ana@acme.test", password: "nope", deviceId: "d"))
            #expect(wrong.status == 401)
            // Another tenant without single sign-on signs in with its password.
            _ = try await lab.api.bootstrapTenant("Other", email: "org@other.test")
            let lookup = try await lab.api.request(.get, API.ssoProvider.path(query: [("email", "ana@ACME.test")]))
            #expect(try lookup.decode(SSOProviderInfo.self) == SSOProviderInfo(name: "Acme ID", passwordSignIn: false))
            let none = try await lab.api.request(.get, API.ssoProvider.path(query: [("email", "x@other.test")]))
            #expect(none.status == 404)
            #expect(none.errorCode == "sso_not_configured")
        }
    }

    @Test("sso-settings: discovery checked, secret sealed and never answered, a domain is one tenant's")
    func settings() async throws {
        try await SSOLab.run { lab in
            let shown = try await lab.api.request(.get, API.ssoSettings.path(), token: lab.organizer.accessToken)
            #expect(shown.status == 200)
            #expect(!shown.text.contains("s3cret"))
            #expect(try shown.decode(SSOSettings.self).clientSecret == nil)
            let stored = try #require(try await lab.api.store.ssoProvider(tenantId: lab.organizer.user.tenantId))
            #expect(!String(decoding: stored.sealedSecret, as: UTF8.self).contains("s3cret"))
            var settings = try shown.decode(SSOSettings.self)
            // An issuer the discovery document does not name exactly.
            settings.issuer = lab.provider.issuer + "/"
            let mismatch = try await lab.configure(settings)
            #expect(mismatch.status == 422)
            #expect(mismatch.text.contains("names the issuer"))
            // Plain http to another machine.
            settings.issuer = "http://idp.example.org"
            #expect(try await lab.configure(settings).status == 422)
            // Another tenant cannot claim acme.test.
            let other = try await lab.api.bootstrapTenant("Other", email: "org@other.test")
            let taken = try await lab.configure(
                SSOSettings(
                    displayName: "Other ID", issuer: lab.provider.issuer, clientId: "other", clientSecret: "x",
                    allowedDomains: ["ACME.test"]), as: other)
            #expect(taken.status == 409)
            // Only organizers.
            let staff = try await lab.api.createUser(lab.organizer, email: "s@acme.test", role: .support, name: "S")
            #expect(try await lab.api.request(.get, API.ssoSettings.path(), token: staff.accessToken).status == 403)
            // Removing it brings passwords back and frees the domain.
            let removed = try await lab.api.request(
                .delete, API.removeSSOSettings.path(), token: lab.organizer.accessToken)
            #expect(removed.status == 204)
            #expect(
                try await lab.api.request(.get, API.ssoProvider.path(query: [("email", "a@acme.test")])).status == 404)
        }
    }

    @Test("sso-console-flow: the console offers \"Sign in with <provider>\" and signs an organizer in through it")
    func console() async throws {
        try await SSOLab.run { lab in
            try await lab.provider.setUser("org-1", claims: ["email": "org@acme.test", "email_verified": true])
            let browser = Browser()
            let signInPage = try await browser.get(lab.base + "/admin/signin")
            let csrf = try #require(Self.attribute("value", after: #"name="_csrf""#, in: signInPage.body))
            let chosen = try await browser.post(
                lab.base + "/admin/sso", form: [("email", "org@acme.test"), ("_csrf", csrf)])
            #expect(chosen.status == 200, "\(chosen.body)")
            #expect(chosen.body.contains("Sign in with Acme ID"))
            let start = try #require(Self.attribute("href", after: #"id="sso-start""#, in: chosen.body))
                .replacingOccurrences(of: "&amp;", with: "&")
            let authorization = try #require(try await browser.get(lab.base + start).location)
            let callback = try #require(try await browser.signInAtProvider(authorization, subject: "org-1").location)
            let done = try #require(try await browser.get(callback).location)
            #expect(done.hasPrefix(lab.base + "/admin/sso/done?code="))
            // Another browser (no sign-in started there) cannot use it.
            let elsewhere = try await Browser().get(done)
            #expect(elsewhere.status == 400)
            #expect(elsewhere.body.contains("did not start in this browser"))
            let landed = try await browser.get(done)
            #expect(landed.status == 200, "\(landed.body)")
            #expect(landed.body.contains("Signed in as Acme Organizer"))
            let events = try await browser.get(lab.base + "/admin/events")
            #expect(events.status == 200)
            #expect(events.body.contains(#"id="events""#))
            // An e-mail no provider signs in: the sign-in page says so.
            let fresh = Browser()
            let freshPage = try await fresh.get(lab.base + "/admin/signin")
            let freshToken = try #require(Self.attribute("value", after: #"name="_csrf""#, in: freshPage.body))
            let unknown = try await fresh.post(
                lab.base + "/admin/sso", form: [("email", "x@nowhere.test"), ("_csrf", freshToken)])
            #expect(unknown.status == 404)
            #expect(unknown.body.contains("No organisation on this server signs in nowhere.test"))
        }
    }

    @Test("sso-secret-resealed: after a key-encryption key rotation the client secret opens and is sealed anew")
    func secretResealed() async throws {
        let own = SharedIdentityProvider.current == nil ? try await TestIdentityProvider.startForTest() : nil
        defer { own?.stop() }
        let provider = try #require(SharedIdentityProvider.current ?? own)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sso-kek-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = ServerConfiguration.StoreLocation.sqlite(path: directory.appendingPathComponent("o.sqlite").path)
        let old = KeyEncryptionKeys.generate(id: "k1")
        let rotated = try old.rotated(newId: "k2")
        try await withServer(
            location: location, live: true, clock: ManualClock(Date()), configure: { $0.keyEncryptionKeys = old }
        ) { api in
            let organizer = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let lab = SSOLab(api: api, provider: provider, organizer: organizer, base: "")
            let saved = try await lab.configure(
                SSOSettings(
                    displayName: "Acme ID", issuer: provider.issuer, clientId: "outpost", clientSecret: "s3cret",
                    allowedDomains: ["acme.test"]))
            #expect(saved.status == 200)
        }
        try await withServer(
            location: location, live: true, clock: ManualClock(Date()), configure: { $0.keyEncryptionKeys = rotated }
        ) { api in
            let organizer = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
            let lab = SSOLab(
                api: api, provider: provider, organizer: organizer,
                base: "http://127.0.0.1:\(try #require(api.client.port))")
            try await provider.setUser("org-9", claims: ["email": "org@acme.test", "email_verified": true])
            #expect(try await api.store.ssoProvider(tenantId: organizer.user.tenantId)?.secretKEKId == "k1")
            #expect(try await lab.signIn(email: "org@acme.test", subject: "org-9").user.id == organizer.user.id)
            #expect(try await api.store.ssoProvider(tenantId: organizer.user.tenantId)?.secretKEKId == "k2")
        }
    }

    @Test("sso-start-rate-limited: one address starts at most 60 sign-ins in ten minutes")
    func startRateLimited() async throws {
        try await SSOLab.run { lab in
            let path = API.ssoStart.path(query: [
                ("email", "ana@acme.test"), ("redirect_uri", SSOLab.appRedirect),
                ("code_challenge", PKCE.challenge(of: PKCE.makeVerifier())), ("code_challenge_method", "S256"),
            ])
            for _ in 0..<SSOSignInRoutes.startsPerAddress {
                #expect(try await lab.api.request(.get, path).status == 302)
            }
            let limited = try await lab.api.request(.get, path)
            #expect(limited.status == 429)
            #expect(limited.headers[.retryAfter] != nil)
            lab.api.clock.advance(by: SSOSignInRoutes.attemptLifetime + 1)
            #expect(try await lab.api.request(.get, path).status == 302)
        }
    }

    /// The value of `name` in the first tag after `marker` in `html`.
    static func attribute(_ name: String, after marker: String, in html: String) -> String? {
        guard let found = html.range(of: marker) else { return nil }
        let tagStart = html[..<found.lowerBound].lastIndex(of: "<") ?? found.lowerBound
        let tag = html[tagStart...].prefix { $0 != ">" }
        guard let value = tag.range(of: name + "=\"") else { return nil }
        return String(tag[value.upperBound...].prefix { $0 != "\"" })
    }
}
