import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

@Suite("Auth contract")
struct AuthContractTests {
    @Test(
        "sign-in answers a token pair and the user; wrong e-mail and wrong password are the same 401",
        arguments: StoreKind.allCases)
    func signIn(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let organizer = try await api.bootstrapTenant("Acme", email: "Org@Acme.test")
            #expect(organizer.user.role == .organizer)
            #expect(organizer.user.email == "org@acme.test")
            let wrongPassword = try await api.request(
                .post, "/v1/auth/signin",
                json: SignInRequest(email: "org@acme.test", password: "nope-nope", deviceId: "d"))
            let wrongEmail = try await api.request(
                .post, "/v1/auth/signin",
                json: SignInRequest(email: "who@acme.test", password: "organizer-pass", deviceId: "d"))
            #expect(wrongPassword.status == 401 && wrongEmail.status == 401)
            #expect(wrongPassword.body == wrongEmail.body)
            #expect(wrongPassword.errorCode == "invalid_credentials")
            let events = try await api.request(.get, "/v1/events", token: organizer.accessToken)
            #expect(events.status == 200)
        }
    }

    @Test(
        "repeated failures for one e-mail are 429 rate_limited with Retry-After, even with the right password",
        arguments: StoreKind.allCases)
    func rateLimitPerEmail(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            for _ in 0..<5 {
                let failed = try await api.request(
                    .post, "/v1/auth/signin",
                    json: SignInRequest(email: "org@acme.test", password: "guess-guess", deviceId: "d"))
                #expect(failed.status == 401)
            }
            let limited = try await api.request(
                .post, "/v1/auth/signin",
                json: SignInRequest(email: "org@acme.test", password: "organizer-pass", deviceId: "d"))
            #expect(limited.status == 429)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.headers[.retryAfter] == "900")
            api.clock.advance(by: 901)
            let later = try await api.request(
                .post, "/v1/auth/signin",
                json: SignInRequest(email: "org@acme.test", password: "organizer-pass", deviceId: "d"))
            #expect(later.status == 200)
        }
    }

    @Test("failures from one address across many e-mails are rate limited per address", arguments: StoreKind.allCases)
    func rateLimitPerAddress(kind: StoreKind) async throws {
        try await withTestServer(kind, configure: { $0.signInFailuresPerAddress = 4 }) { api in
            for index in 0..<4 {
                let failed = try await api.request(
                    .post, "/v1/auth/signin",
                    json: SignInRequest(email: "user\(index)@x.test", password: "guess-guess", deviceId: "d"))
                #expect(failed.status == 401)
            }
            let limited = try await api.request(
                .post, "/v1/auth/signin",
                json: SignInRequest(email: "fresh@x.test", password: "guess-guess", deviceId: "d"))
            #expect(limited.status == 429)
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    @Test(
        "refresh rotates; a reused refresh token is 401 token_reused and revokes the whole family",
        arguments: StoreKind.allCases)
    func rotationAndReuse(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let first = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let rotated = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: first.refreshToken))
            #expect(rotated.status == 200)
            let pair: TokenPair = try rotated.decode()
            #expect(pair.refreshToken != first.refreshToken)
            #expect(pair.expiresIn == 900)
            api.clock.advance(by: api.configuration.refreshGraceWindow + 1)  // past the grace window
            let reused = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: first.refreshToken))
            #expect(reused.status == 401)
            #expect(reused.errorCode == "token_reused")
            let successor = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: pair.refreshToken))
            #expect(successor.status == 401)
            #expect(successor.errorCode == "unauthorized")
            let another = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
            let independent = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: another.refreshToken))
            #expect(independent.status == 200, "another sign-in's family is untouched")
        }
    }

    @Test(
        "refresh-grace-window: a refresh token presented again within the window, its successor unused, gets the same successor; outside it, reuse revokes",
        arguments: StoreKind.allCases)
    func refreshGraceWindow(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let first = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let refresh = { (token: String) in
                try await api.request(.post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: token))
            }
            // The answer to the first refresh is lost; the device presents the same token again.
            let lost: TokenPair = try await refresh(first.refreshToken).decode()
            api.clock.advance(by: api.configuration.refreshGraceWindow - 1)
            let again = try await refresh(first.refreshToken)
            #expect(again.status == 200)
            let repeated: TokenPair = try again.decode()
            #expect(repeated.refreshToken == lost.refreshToken, "the same successor, not a second one")
            #expect(repeated.user == lost.user)
            let events = try await api.request(.get, "/v1/events", token: repeated.accessToken)
            #expect(events.status == 200)
            // The successor works, and once it is used the window is closed: the old token is reuse.
            let next: TokenPair = try await refresh(repeated.refreshToken).decode()
            let late = try await refresh(first.refreshToken)
            #expect(late.status == 401 && late.errorCode == "token_reused")
            #expect(try await refresh(next.refreshToken).status == 401, "reuse revoked the whole family")

            // Outside the window, presenting a rotated token is reuse even if its successor is unused.
            let second = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
            let rotated: TokenPair = try await refresh(second.refreshToken).decode()
            api.clock.advance(by: api.configuration.refreshGraceWindow + 1)
            let outside = try await refresh(second.refreshToken)
            #expect(outside.status == 401 && outside.errorCode == "token_reused")
            #expect(try await refresh(rotated.refreshToken).status == 401)
        }
    }

    @Test(
        "refresh-concurrent-duplicate: one refresh token presented twice at once (a duplicating proxy) gets one successor, never a 500",
        arguments: StoreKind.allCases)
    func refreshConcurrentDuplicate(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            for _ in 0..<20 {
                let session = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
                let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            let response = try await api.request(
                                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: session.refreshToken))
                            let pair: TokenPair? = response.status == 200 ? try response.decode() : nil
                            return (response.status, pair?.refreshToken)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0.0 == 200 }, "statuses \(answers.map(\.0))")
                #expect(Set(answers.compactMap(\.1)).count == 1, "one successor for all")
            }
        }
    }

    @Test("sign-out revokes the family: 204, then the refresh token is refused", arguments: StoreKind.allCases)
    func signOut(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let session = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let out = try await api.request(
                .post, "/v1/auth/signout", json: RefreshRequest(refreshToken: session.refreshToken))
            #expect(out.status == 204)
            let refresh = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: session.refreshToken))
            #expect(refresh.status == 401)
        }
    }

    @Test(
        "access tokens last 15 minutes; expired, forged or missing tokens are 401 unauthorized; refresh tokens expire after 30 days",
        arguments: StoreKind.allCases)
    func expiry(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let session = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            api.clock.advance(by: 14 * 60)
            #expect(try await api.request(.get, "/v1/events", token: session.accessToken).status == 200)
            api.clock.advance(by: 61)
            let expired = try await api.request(.get, "/v1/events", token: session.accessToken)
            #expect(expired.status == 401)
            #expect(expired.errorCode == "unauthorized")
            let missing = try await api.request(.get, "/v1/events")
            #expect(missing.status == 401)
            var forged = Array(session.accessToken)
            forged[10] = forged[10] == "A" ? "B" : "A"
            #expect(try await api.request(.get, "/v1/events", token: String(forged)).status == 401)
            #expect(try await api.request(.get, "/v1/events", token: "v1.x.y").status == 401)
            let refreshed = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: session.refreshToken))
            #expect(refreshed.status == 200, "a refresh token outlives the access token")
            let pair: TokenPair = try refreshed.decode()
            #expect(try await api.request(.get, "/v1/events", token: pair.accessToken).status == 200)
            api.clock.advance(by: 30 * 24 * 3600 + 1)
            let stale = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: pair.refreshToken))
            #expect(stale.status == 401)
        }
    }

    @Test("refresh tokens are stored hashed, never in plain text", arguments: StoreKind.allCases)
    func hashedAtRest(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let session = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let stored = try await api.store.database.read {
                try await $0.query("SELECT token_hash FROM refresh_tokens", []).map { try $0.blob("token_hash") }
            }
            #expect(stored.count == 1)
            #expect(stored.first == RefreshTokens.hash(session.refreshToken))
            #expect(stored.first != Array(session.refreshToken.utf8))
        }
    }
}
