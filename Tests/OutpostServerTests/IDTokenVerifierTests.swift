import Foundation
import JWTKit
import OutpostCore
import Testing
import _CryptoExtras

@testable import OutpostServer

/// The ID token checks of single sign-on (OpenID Connect Core §3.1.3.7), against tokens jwt-kit
/// signs with fresh keys: the one accepted, and each way a token is refused.
@Suite("ID token verification")
struct IDTokenVerifierTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let expectation = IDTokenVerifier.Expectation(
        issuer: "http://127.0.0.1:9400", clientId: "outpost", nonce: "n-0S6_WzA2Mj", now: now)

    /// A signer and its public JWK, as a provider publishes it.
    struct Key {
        var signer: JWTKeyCollection
        var jwk: JWK

        /// The claims signed, the header naming the key's kid when it has one.
        func sign(_ claims: IDTokenClaims) async throws -> String {
            try await signer.sign(claims, kid: jwk.keyIdentifier)
        }
    }

    static func es256(kid: String) async -> Key {
        let key = ES256PrivateKey()
        let point = key.publicKey.parameters!
        return Key(
            signer: await JWTKeyCollection().add(ecdsa: key, kid: JWKIdentifier(string: kid)),
            jwk: .ecdsa(.es256, identifier: JWKIdentifier(string: kid), x: point.x, y: point.y, curve: .p256))
    }

    /// An RSA key as oidc-provider-mock publishes one: no `kid`, no `alg`.
    static func rs256() async throws -> Key {
        let key = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        return Key(
            signer: await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256),
            jwk: .rsa(nil, identifier: nil, modulus: Base64URL.encode(modulus), exponent: Base64URL.encode(exponent)))
    }

    static func claims(
        iss: String = expectation.issuer, aud: [String] = ["outpost"], azp: String? = nil,
        issued: TimeInterval = -30, expires: TimeInterval = 600, nonce: String? = expectation.nonce
    ) -> IDTokenClaims {
        IDTokenClaims(
            iss: IssuerClaim(value: iss), sub: SubjectClaim(value: "staff-1"), aud: AudienceClaim(value: aud),
            exp: ExpirationClaim(value: now.addingTimeInterval(expires)),
            iat: IssuedAtClaim(value: now.addingTimeInterval(issued)), nonce: nonce, azp: azp,
            email: "ana@a.test", emailVerified: true)
    }

    static func refusal(_ token: String, _ keys: [JWK]) async -> IDTokenRefusal? {
        do {
            _ = try await IDTokenVerifier.verify(token, keys: keys, expecting: expectation)
            return nil
        } catch {
            return error as? IDTokenRefusal
        }
    }

    @Test(
        "sso-id-token-accepted: a token signed by the provider's key (ES256 by kid; RS256 without kid, as oidc-provider-mock signs, against its one key) gives its claims"
    )
    func accepted() async throws {
        let es = await Self.es256(kid: "k1")
        let other = await Self.es256(kid: "k2")
        let token = try await es.sign(Self.claims())
        let verified = try await IDTokenVerifier.verify(
            token, keys: [other.jwk, es.jwk], expecting: Self.expectation)
        #expect(verified.sub.value == "staff-1" && verified.email == "ana@a.test" && verified.emailVerified == true)
        let rs = try await Self.rs256()
        let rsToken = try await rs.sign(Self.claims(aud: ["outpost"], azp: "outpost"))
        #expect(try await IDTokenVerifier.verify(rsToken, keys: [rs.jwk], expecting: Self.expectation).nonce != nil)
    }

    @Test(
        "sso-id-token-refused: wrong audience (or several without azp ours), expired, issued too long ago or in the future, another issuer, a replayed or missing nonce, a forged signature, an unknown or missing kid among several keys, alg none or HS256, and garbage are each refused with their reason"
    )
    func refused() async throws {
        let key = await Self.es256(kid: "k1")
        let keys = [key.jwk]
        func signed(_ claims: IDTokenClaims) async throws -> String { try await key.sign(claims) }
        #expect(await Self.refusal(try await signed(Self.claims(aud: ["someone-else"])), keys) == .audience)
        #expect(
            await Self.refusal(try await signed(Self.claims(aud: ["outpost", "someone-else"])), keys) == .audience,
            "several audiences need azp ours")
        #expect(
            await Self.refusal(try await signed(Self.claims(aud: ["outpost", "x"], azp: "x")), keys) == .audience)
        #expect(await Self.refusal(try await signed(Self.claims(expires: -301)), keys) == .expired)
        #expect(await Self.refusal(try await signed(Self.claims(issued: -1_000)), keys) == .issuedAt)
        #expect(await Self.refusal(try await signed(Self.claims(issued: 400)), keys) == .issuedAt)
        #expect(await Self.refusal(try await signed(Self.claims(iss: "http://localhost:9400")), keys) == .issuer)
        #expect(await Self.refusal(try await signed(Self.claims(nonce: "an-earlier-sign-in")), keys) == .nonce)
        #expect(await Self.refusal(try await signed(Self.claims(nonce: nil)), keys) == .nonce)
        // Another key under the same kid: the signature does not verify.
        let impostor = await Self.es256(kid: "k1")
        #expect(await Self.refusal(try await impostor.sign(Self.claims()), keys) == .signature)
        // A kid the provider does not publish; a kid-less token while it publishes two keys.
        let stranger = await Self.es256(kid: "k9")
        #expect(await Self.refusal(try await stranger.sign(Self.claims()), keys) == .unknownKey)
        let rs = try await Self.rs256()
        let kidless = try await rs.sign(Self.claims())
        #expect(await Self.refusal(kidless, [rs.jwk, key.jwk]) == .unknownKey)
        // alg none and HS256 never reach a key.
        let body = Base64URL.encode(try JSONEncoder().encode(Self.claims()))
        let none = Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + body + "."
        #expect(await Self.refusal(none, keys) == .algorithm("none"))
        let hmac = await JWTKeyCollection().add(
            hmac: HMACKey(from: "a shared secret of thirty-two bytes at least"), digestAlgorithm: .sha256, kid: "k1")
        #expect(await Self.refusal(try await hmac.sign(Self.claims(), kid: "k1"), keys) == .algorithm("HS256"))
        #expect(await Self.refusal("not.a-token", keys) == .malformed)
    }
}
