import Foundation
import JWTKit
import OutpostCore

/// What an identity provider's ID token says (OpenID Connect Core §2), once verified.
struct IDTokenClaims: JWTPayload, Equatable {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var nonce: String?
    var azp: String?
    var email: String?
    var emailVerified: Bool?
    var name: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, azp, email, name
        case emailVerified = "email_verified"
    }

    /// The checks are ``IDTokenVerifier``'s, each with its own refusal.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Why an ID token was refused: one sentence each, for the log and the refusal page.
enum IDTokenRefusal: Error, Equatable, CustomStringConvertible {
    case malformed
    case algorithm(String)
    case unknownKey
    case signature
    case issuer
    case audience
    case expired
    case issuedAt
    case nonce

    var description: String {
        switch self {
        case .malformed: "The ID token is not a signed JWT."
        case .algorithm(let name): "The ID token is signed with \(name), which is not allowed (RS256, ES256)."
        case .unknownKey: "The ID token names a key the provider does not publish."
        case .signature: "The ID token's signature does not verify."
        case .issuer: "The ID token comes from another issuer."
        case .audience: "The ID token is not meant for this client."
        case .expired: "The ID token has expired."
        case .issuedAt: "The ID token was issued too long ago, or in the future."
        case .nonce: "The ID token's nonce is not this sign-in's."
        }
    }
}

/// Checks an ID token as OpenID Connect Core §3.1.3.7 asks: an allowed algorithm, a signature
/// that verifies against the provider's published keys (chosen by `kid`; a token without one
/// only against a set of one key: jwt-kit would silently use its default key), the issuer exactly,
/// our client among the audiences (`azp` ours when there are several), not expired, issued within
/// the last ten minutes (with five minutes' leeway for clocks), and this sign-in's nonce.
enum IDTokenVerifier {
    static let algorithms: Set<String> = ["RS256", "ES256"]
    static let leeway: TimeInterval = 300
    static let maximumAge: TimeInterval = 600

    struct Expectation: Sendable {
        var issuer: String
        var clientId: String
        var nonce: String
        var now: Date
    }

    /// A token's JOSE header: the algorithm and the key it names.
    struct Header: Decodable {
        var alg: String
        var kid: String?
    }

    /// The header of `token`; nil when it is not a JWT's.
    static func header(of token: String) -> Header? {
        guard let first = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let bytes = Base64URL.decode(String(first))
        else { return nil }
        // A header that is not JSON is no header; the caller refuses the token as malformed.
        return try? JSONDecoder().decode(Header.self, from: Data(bytes))
    }

    static func verify(
        _ token: String, keys: [JWK], expecting expected: Expectation
    ) async throws
        -> IDTokenClaims
    {
        guard token.split(separator: ".", omittingEmptySubsequences: false).count == 3,
            let header = header(of: token)
        else { throw IDTokenRefusal.malformed }
        guard algorithms.contains(header.alg) else { throw IDTokenRefusal.algorithm(header.alg) }
        let candidates =
            header.kid.map { kid in keys.filter { $0.keyIdentifier?.string == kid } } ?? (keys.count == 1 ? keys : [])
        guard candidates.count == 1, var key = candidates.first else { throw IDTokenRefusal.unknownKey }
        // A key that names its algorithm is used only with it; one that does not, only with the
        // algorithm its type has (the header cannot pick HS256 for an RSA key: the allow-list).
        if let named = key.algorithm?.rawValue, named != header.alg { throw IDTokenRefusal.algorithm(header.alg) }
        let claims: IDTokenClaims
        do {
            // A collection of this one key: the token's kid finds it, a kid-less token gets it as
            // default (jwt-kit takes no key without a kid: a kid-less one gets a name of ours).
            if key.keyIdentifier == nil { key.keyIdentifier = JWKIdentifier(string: "the-only-key") }
            let collection = try await JWTKeyCollection().add(jwk: key, isDefault: true)
            claims = try await collection.verify(token, as: IDTokenClaims.self)
        } catch {
            throw IDTokenRefusal.signature
        }
        guard claims.iss.value == expected.issuer else { throw IDTokenRefusal.issuer }
        guard claims.aud.value.contains(expected.clientId) else { throw IDTokenRefusal.audience }
        if claims.aud.value.count > 1 || claims.azp != nil {
            guard claims.azp == expected.clientId else { throw IDTokenRefusal.audience }
        }
        guard claims.exp.value.addingTimeInterval(leeway) > expected.now else { throw IDTokenRefusal.expired }
        let age = expected.now.timeIntervalSince(claims.iat.value)
        guard age >= -leeway, age <= maximumAge + leeway else { throw IDTokenRefusal.issuedAt }
        guard claims.nonce == expected.nonce else { throw IDTokenRefusal.nonce }
        return claims
    }
}
