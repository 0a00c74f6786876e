import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// `GET`, `PUT` and `DELETE /v1/tenant/sso` (organizer): the tenant's OpenID Connect provider.
/// A save reads the provider's discovery document first (its issuer must be the one given,
/// exactly) and keeps the endpoints it names; the client secret is sealed by the server's
/// key-encryption keys and never answered.
struct SSOSettingsRoutes {
    let dependencies: ServerDependencies

    static let secretPurpose = "sso client secret"

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.ssoSettings, use: show)
        group.on(API.setSSOSettings, use: update)
        group.on(API.removeSSOSettings, use: remove)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        guard let provider = try await dependencies.store.ssoProvider(tenantId: context.caller.tenantId) else {
            throw APIError(.notFound, .notFound, "This organisation has no single sign-on provider.")
        }
        return try HTTPHelpers.json(provider.settings)
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let tenantId = context.caller.tenantId
        var settings = try Self.validated(try await HTTPHelpers.decode(SSOSettings.self, from: request))
        let store = dependencies.store
        let existing = try await store.ssoProvider(tenantId: tenantId)
        let sealed: (kekId: String, sealed: [UInt8])
        if let secret = settings.clientSecret {
            sealed = try dependencies.keyEncryptionKeys.seal(
                secret: secret, purpose: Self.secretPurpose, tenantId: tenantId)
        } else if let existing {
            sealed = (existing.secretKEKId, existing.sealedSecret)
        } else {
            throw APIError.invalidRequest(
                "'clientSecret' is needed the first time (the provider gave it with the client id).",
                status: .unprocessableContent)
        }
        let discovery: IdentityProviderClient.Discovery
        do {
            discovery = try await dependencies.identityProvider.discover(issuer: settings.issuer)
        } catch {
            throw APIError(
                .badGateway, .providerUnavailable,
                "Could not read \(settings.issuer)'s discovery document: \(error)")
        }
        guard discovery.issuer == settings.issuer else {
            throw APIError.invalidRequest(
                "The provider's discovery document names the issuer '\(discovery.issuer)', not '\(settings.issuer)'.",
                status: .unprocessableContent)
        }
        for endpoint in [discovery.authorizationEndpoint, discovery.tokenEndpoint, discovery.jwksURI] {
            guard Self.isAcceptableProviderURL(endpoint) else {
                throw APIError.invalidRequest(
                    "The provider's discovery document names '\(endpoint)', which is not https.",
                    status: .unprocessableContent)
            }
        }
        settings.clientSecret = nil
        do {
            try await store.saveSSOProvider(
                SSOProviderRecord(
                    tenantId: tenantId, settings: settings, secretKEKId: sealed.kekId, sealedSecret: sealed.sealed,
                    endpoints: discovery),
                now: dependencies.clock.now())
        } catch SSOStoreError.domainTaken(let domain) {
            throw APIError(
                .conflict, .invalidRequest,
                "The domain \(domain) is signed in by another organisation's provider on this server.")
        }
        return try HTTPHelpers.json(settings)
    }

    @Sendable func remove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        guard try await dependencies.store.removeSSOProvider(tenantId: context.caller.tenantId) else {
            throw APIError(.notFound, .notFound, "This organisation has no single sign-on provider.")
        }
        return Response(status: .noContent)
    }

    /// The settings with their fields trimmed and the domains normalised; a refusal names the field.
    static func validated(_ body: SSOSettings) throws -> SSOSettings {
        var settings = body
        settings.displayName = body.displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        settings.issuer = body.issuer.trimmingCharacters(in: .whitespacesAndNewlines)
        settings.clientId = body.clientId.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(settings.displayName.count) else {
            throw APIError.invalidRequest(
                "'displayName' is what the sign-in button names (1 to 64 characters).", status: .unprocessableContent)
        }
        guard Self.isAcceptableProviderURL(settings.issuer) else {
            throw APIError.invalidRequest(
                "'issuer' must be the provider's https:// address (http:// only on this machine's loopback).",
                status: .unprocessableContent)
        }
        guard (1...255).contains(settings.clientId.count) else {
            throw APIError.invalidRequest(
                "'clientId' is the client id the provider gave.", status: .unprocessableContent)
        }
        if let secret = body.clientSecret, secret.isEmpty || secret.count > 1024 {
            throw APIError.invalidRequest("'clientSecret' must not be empty.", status: .unprocessableContent)
        }
        var domains: [String] = []
        for text in body.allowedDomains {
            guard let domain = SSODomains.normalized(text) else {
                throw APIError.invalidRequest(
                    "'allowedDomains' holds '\(text)', which is not a domain name such as example.org.",
                    status: .unprocessableContent)
            }
            if !domains.contains(domain) { domains.append(domain) }
        }
        guard !domains.isEmpty, domains.count <= 50 else {
            throw APIError.invalidRequest(
                "'allowedDomains' names the e-mail domains the provider signs in (1 to 50).",
                status: .unprocessableContent)
        }
        settings.allowedDomains = domains
        return settings
    }

    /// `https://`, or `http://` to this machine's loopback (a provider for development and tests).
    static func isAcceptableProviderURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let host = url.host, url.user == nil, url.query == nil else { return false }
        switch url.scheme {
        case "https": return true
        case "http": return ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host)
        default: return false
        }
    }
}
