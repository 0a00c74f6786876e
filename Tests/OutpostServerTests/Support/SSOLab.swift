import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// One live server with tenant "Acme" whose provider is a real one on loopback
/// (``TestIdentityProvider``), and the browser legs of a sign-in as the tests drive them.
struct SSOLab {
    var api: TestAPI
    var provider: TestIdentityProvider
    var organizer: Session
    var base: String

    static let appRedirect = "http://127.0.0.1:9/cb"

    /// Runs `body` against a live server (its clock at the real time: the provider's tokens carry
    /// real `iat` and `exp`) with Acme's provider configured as `settings` changes it.
    static func run(
        location: ServerConfiguration.StoreLocation = .sqliteInMemory, tokenMaxAge: Int? = nil,
        ownProvider: Bool = false, settings: @escaping @Sendable (inout SSOSettings) -> Void = { _ in },
        _ body: @Sendable (SSOLab) async throws -> Void
    ) async throws {
        // The suite's provider, unless this test stops, restarts or tunes its own.
        let shared = ownProvider || tokenMaxAge != nil ? nil : SharedIdentityProvider.current
        let provider: TestIdentityProvider
        if let shared { provider = shared } else { provider = try await .startForTest(tokenMaxAge: tokenMaxAge) }
        defer { if shared == nil { provider.stop() } }
        try await withServer(location: location, live: true, clock: ManualClock(Date())) { api in
            let organizer = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let lab = SSOLab(
                api: api, provider: provider, organizer: organizer,
                base: "http://127.0.0.1:\(try #require(api.client.port))")
            var configured = SSOSettings(
                displayName: "Acme ID", issuer: provider.issuer, clientId: "outpost", clientSecret: "s3cret",
                allowedDomains: ["acme.test"], newUsers: .existingOnly, passwordSignIn: true)
            settings(&configured)
            let saved = try await lab.configure(configured)
            #expect(saved.status == 200, "\(saved.text)")
            try await body(lab)
        }
    }

    func configure(_ settings: SSOSettings, as session: Session? = nil) async throws -> APIResponse {
        try await api.request(
            .put, API.setSSOSettings.path(), token: (session ?? organizer).accessToken, json: settings)
    }

    /// The legs up to the provider's login page: the server's start, answered with a redirect
    /// to the provider's authorization endpoint.
    func start(
        email: String, verifier: String, state: String = "app-state", redirect: String = appRedirect,
        browser: Browser
    ) async throws -> Browser.Answer {
        let url =
            base
            + API.ssoStart.path(query: [
                ("email", email), ("redirect_uri", redirect), ("code_challenge", PKCE.challenge(of: verifier)),
                ("code_challenge_method", "S256"), ("state", state),
            ])
        return try await browser.get(url)
    }

    /// A whole browser sign-in as `subject`: start, the provider's login (its authorization URL
    /// changed by `tamper` first, as an attacker in the middle would), and the server's callback.
    /// The answer is the server's redirect back to the app.
    func browserSignIn(
        email: String, subject: String, verifier: String, state: String = "app-state",
        tamper: (String) -> String = { $0 }, tamperCallback: (String) -> String = { $0 },
        beforeCallback: () async throws -> Void = {}
    ) async throws -> (callback: String, back: Browser.Answer) {
        let browser = Browser()
        let started = try await start(email: email, verifier: verifier, state: state, browser: browser)
        let authorization = try #require(started.location, "the start did not redirect: \(started.body)")
        #expect(authorization.hasPrefix(provider.issuer + "/oauth2/authorize?"))
        let login = try await browser.signInAtProvider(tamper(authorization), subject: subject)
        let callback = tamperCallback(
            try #require(login.location, "the provider did not redirect: \(login.status) \(login.body)"))
        #expect(callback.hasPrefix(base + "/v1/auth/sso/"))
        try await beforeCallback()
        return (callback, try await browser.get(callback))
    }

    /// Redeems the one-time code for a token pair.
    func redeem(code: String, verifier: String) async throws -> APIResponse {
        try await api.request(
            .post, API.ssoToken.path(), json: SSOTokenRequest(code: code, codeVerifier: verifier, deviceId: "sso-test"))
    }

    /// A full sign-in that must work: the token pair.
    func signIn(email: String, subject: String) async throws -> TokenPair {
        let verifier = PKCE.makeVerifier()
        let (_, back) = try await browserSignIn(email: email, subject: subject, verifier: verifier)
        let code = try #require(back.locationQuery["code"], "no code: \(back.location ?? back.body)")
        let answer = try await redeem(code: code, verifier: verifier)
        #expect(answer.status == 200, "\(answer.text)")
        return try answer.decode(TokenPair.self)
    }
}
