import Foundation
import JWTKit

/// An identity provider's published signing keys (its JWKS), cached: kept for the `max-age` the
/// provider gives (clamped to 5 minutes–24 hours), fetched again once when a token names a key
/// the cache does not hold (the provider rotated its keys), at most once a minute, and the last
/// good set kept when a fetch fails (a provider briefly down does not stop sign-ins it signed).
actor ProviderKeys {
    /// One fetch: the JWKS document and the `max-age` of its `Cache-Control`, if any.
    typealias Fetch = @Sendable (URL) async throws -> (body: Data, maxAge: TimeInterval?)

    static let minimumAge: TimeInterval = 300
    static let maximumAge: TimeInterval = 86_400
    static let refetchInterval: TimeInterval = 60

    private struct Cached {
        var keys: [JWK]
        var fetchedAt: Date
        var lifetime: TimeInterval
    }

    private let fetch: Fetch
    private let now: @Sendable () -> Date
    private var cache: [URL: Cached] = [:]
    private var lastAttempt: [URL: Date] = [:]

    init(fetch: @escaping Fetch, now: @escaping @Sendable () -> Date) {
        self.fetch = fetch
        self.now = now
    }

    /// Verifies `token` against the provider's keys at `url`; when it names a key the cache lacks
    /// or its signature does not verify (a provider that rotated keys without naming them), the
    /// keys are fetched again once (within the refetch limit) and it is tried once more.
    func verify(
        _ token: String, at url: URL, expecting expectation: IDTokenVerifier.Expectation
    ) async throws -> IDTokenClaims {
        let kid = IDTokenVerifier.header(of: token)?.kid
        do {
            return try await IDTokenVerifier.verify(
                token, keys: try await keys(at: url, for: kid), expecting: expectation)
        } catch IDTokenRefusal.signature, IDTokenRefusal.unknownKey {
            let again = try await keys(at: url, for: kid, refresh: true)
            return try await IDTokenVerifier.verify(token, keys: again, expecting: expectation)
        }
    }

    /// The keys to verify a token whose header names `kid` (nil: none named); `refresh` fetches
    /// them again (within the refetch limit) whatever the cache holds.
    func keys(at url: URL, for kid: String?, refresh: Bool = false) async throws -> [JWK] {
        let current = now()
        if let cached = cache[url] {
            let fresh = !refresh && current.timeIntervalSince(cached.fetchedAt) < cached.lifetime
            let known = kid.map { kid in cached.keys.contains { $0.keyIdentifier?.string == kid } } ?? true
            let mayRefetch = lastAttempt[url].map { current.timeIntervalSince($0) >= Self.refetchInterval } ?? true
            if (fresh && known) || !mayRefetch { return cached.keys }
        }
        lastAttempt[url] = current
        do {
            let (body, maxAge) = try await fetch(url)
            let keys = try JSONDecoder().decode(JWKS.self, from: body).keys
            let lifetime = min(Self.maximumAge, max(Self.minimumAge, maxAge ?? Self.minimumAge))
            cache[url] = Cached(keys: keys, fetchedAt: current, lifetime: lifetime)
            return keys
        } catch {
            // The last good set stays in use; none yet is the caller's failure (the provider is down).
            if let cached = cache[url] { return cached.keys }
            throw error
        }
    }
}
