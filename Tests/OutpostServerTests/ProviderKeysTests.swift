import Foundation
import JWTKit
import OutpostCore
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The provider's key cache: rotation, the refetch limit, the last good set, the age clamp.
@Suite("Identity provider keys")
struct ProviderKeysTests {
    /// A provider whose published set the test changes, counting fetches; `down` fails them.
    final class Provider: @unchecked Sendable {
        let lock = NSLock()
        var keys: [JWK] = []
        var fetches = 0
        var down = false
        var maxAge: TimeInterval? = 3_600

        func fetch(_ url: URL) throws -> (body: Data, maxAge: TimeInterval?) {
            try lock.withLock {
                fetches += 1
                if down { throw URLError(.cannotConnectToHost) }
                return (try JSONEncoder().encode(JWKS(keys: keys)), maxAge)
            }
        }
    }

    static let url = URL(string: "http://127.0.0.1:9400/jwks")!

    @Test(
        "sso-jwks-rotation: a token naming a key the cache lacks fetches the set again once (the provider rotated), at most once a minute; a down provider leaves the last good set in use; max-age is clamped to 5 min to 24 h"
    )
    func rotation() async throws {
        let provider = Provider()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let first = await IDTokenVerifierTests.es256(kid: "k1")
        provider.keys = [first.jwk]
        let cache = ProviderKeys(fetch: { try provider.fetch($0) }, now: { clock.now })
        #expect(try await cache.keys(at: Self.url, for: "k1").map(\.keyIdentifier?.string) == ["k1"])
        #expect(try await cache.keys(at: Self.url, for: "k1").count == 1 && provider.fetches == 1, "cached")
        // The provider rotates: a token signed with k2 verifies after one refetch.
        let second = await IDTokenVerifierTests.es256(kid: "k2")
        provider.keys = [first.jwk, second.jwk]
        clock.advance(by: 61)
        let keys = try await cache.keys(at: Self.url, for: "k2")
        let token = try await second.sign(IDTokenVerifierTests.claims())
        let expectation = IDTokenVerifier.Expectation(
            issuer: IDTokenVerifierTests.expectation.issuer, clientId: "outpost",
            nonce: IDTokenVerifierTests.expectation.nonce, now: IDTokenVerifierTests.now)
        #expect(try await IDTokenVerifier.verify(token, keys: keys, expecting: expectation).sub.value == "staff-1")
        #expect(provider.fetches == 2)
        // An unknown kid: one refetch, then none within the minute (a forger cannot make us hammer).
        _ = try await cache.keys(at: Self.url, for: "k9")
        #expect(provider.fetches == 2, "the k2 refetch was just now")
        clock.advance(by: 61)
        _ = try await cache.keys(at: Self.url, for: "k9")
        clock.advance(by: 30)
        _ = try await cache.keys(at: Self.url, for: "k9")
        #expect(provider.fetches == 3, "one refetch for k9, none within the minute after it")
        // Down: the last good set stays; expired past its (clamped) max-age, still the last good one.
        provider.down = true
        clock.advance(by: 3_700)
        #expect(try await cache.keys(at: Self.url, for: "k2").count == 2)
        #expect(provider.fetches == 4)
        // A provider down before any fetch is the caller's failure.
        let empty = ProviderKeys(fetch: { try provider.fetch($0) }, now: { clock.now })
        await #expect(throws: URLError.self) { try await empty.keys(at: Self.url, for: nil) }
        // max-age 0 is kept five minutes; a year is kept a day.
        provider.down = false
        provider.maxAge = 0
        let clamped = ProviderKeys(fetch: { try provider.fetch($0) }, now: { clock.now })
        let before = provider.fetches
        _ = try await clamped.keys(at: Self.url, for: nil)
        clock.advance(by: 299)
        _ = try await clamped.keys(at: Self.url, for: nil)
        #expect(provider.fetches == before + 1, "kept five minutes")
        clock.advance(by: 2)
        _ = try await clamped.keys(at: Self.url, for: nil)
        #expect(provider.fetches == before + 2)
    }

    @Test(
        "sso-jwks-rotation-without-kid: a provider that signs without kid (oidc-provider-mock) and restarts with a new key: the token fails against the cached key, the keys are fetched again once and it verifies"
    )
    func rotationWithoutKid() async throws {
        let provider = Provider()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let old = try await IDTokenVerifierTests.rs256()
        provider.keys = [old.jwk]
        let cache = ProviderKeys(fetch: { try provider.fetch($0) }, now: { clock.now })
        let first = try await old.sign(IDTokenVerifierTests.claims())
        #expect(
            try await cache.verify(first, at: Self.url, expecting: IDTokenVerifierTests.expectation).sub.value
                == "staff-1")
        let new = try await IDTokenVerifierTests.rs256()
        provider.keys = [new.jwk]
        clock.advance(by: 61)
        let second = try await new.sign(IDTokenVerifierTests.claims())
        #expect(
            try await cache.verify(second, at: Self.url, expecting: IDTokenVerifierTests.expectation).sub.value
                == "staff-1")
        #expect(provider.fetches == 2)
        // A forged token (no key of the provider's signed it) is refused after the one refetch.
        let forger = try await IDTokenVerifierTests.rs256()
        clock.advance(by: 61)
        await #expect(throws: IDTokenRefusal.signature) {
            try await cache.verify(
                try await forger.sign(IDTokenVerifierTests.claims()), at: Self.url,
                expecting: IDTokenVerifierTests.expectation)
        }
        #expect(provider.fetches == 3)
    }
}

/// The provider's connection closed under a request (a kept-alive connection the provider, or a
/// proxy in front of it, closed as the request went out; a clean clone's run met it once as "I/O
/// on closed channel"): a GET goes once more on a fresh connection, the code exchange never.
@Suite("Identity provider connections")
struct IdentityProviderConnectionTests {
    @Test(
        "sso-provider-closed-connection: keys fetched on a connection closed under the request are fetched once more; the code exchange is not sent twice"
    )
    func closedUnderneath() async throws {
        let jwks = #"{"keys":[]}"#
        let server = try CuttingServer([.close, .answer(jwks)])
        defer { server.stop() }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/jwks"))
        let fetched = try await IdentityProviderClient.shared.keys(at: url)
        #expect(String(decoding: fetched.body, as: UTF8.self) == jwks)
        #expect(server.connections == 2, "the GET went once more, on a new connection")
        // The exchange (a POST with a single-use code) is refused at the first close.
        let exchanging = try CuttingServer([.close, .answer(#"{"id_token":"t"}"#)])
        defer { exchanging.stop() }
        await #expect(throws: IdentityProviderClient.Failure.self) {
            _ = try await IdentityProviderClient.shared.exchange(
                code: "c", verifier: "v", redirectURI: "http://127.0.0.1:9/cb",
                tokenEndpoint: "http://127.0.0.1:\(exchanging.port)/token", clientId: "outpost", clientSecret: "s")
        }
        #expect(exchanging.connections == 1)
    }
}
