import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Single sign-on through the tenant's OpenID Connect provider, brokered by the server (the app
/// never talks to the provider; RFC 8252's native-app pattern for the app's own leg):
///
/// 1. `GET /v1/auth/sso?email=`: which provider signs in the e-mail's domain ("Sign in with …").
/// 2. `GET /v1/auth/sso/start` in the system browser, with the app's PKCE challenge, its loopback
///    redirect and its state: the server keeps one attempt row (state, nonce, its own PKCE
///    verifier; ten minutes) and redirects to the provider's authorization endpoint.
/// 3. `GET /v1/auth/sso/{tenantId}/callback` (one callback per provider: a mix-up defence): the
///    attempt is taken (once), the code exchanged with the client secret and the server's
///    verifier, the ID token checked (``ProviderKeys``, ``IDTokenVerifier``), the person mapped
///    to a user (``SSOUserMapping``), and the browser sent back to the app with a one-time code
///    (60 s). Every refusal after the attempt is known goes back to the app as `error` and
///    `error_description` (RFC 6749 §4.1.2.1), with no code.
/// 4. `POST /v1/auth/sso/token`: the code and the app's verifier for Outpost's token pair.
struct SSOSignInRoutes {
    let dependencies: ServerDependencies

    static let attemptLifetime: TimeInterval = 600
    static let codeLifetime: TimeInterval = 60
    /// Sign-ins one client address may start in ten minutes (each keeps a row until its callback
    /// or its expiry): a door team behind one address signs in well within it.
    static let startsPerAddress = 60
    /// The console's own landing page: the one redirect that is not the app's loopback.
    static let consoleRedirect = ConsolePages.singleSignOnDone.path()

    func register(on group: RouterGroup<AppRequestContext>) {
        group.on(API.ssoProvider, use: provider)
        group.on(API.ssoStart, use: start)
        group.on(API.ssoCallback, use: callback)
        group.on(API.ssoToken, use: token)
    }

    @Sendable func provider(_ request: Request, context: AppRequestContext) async throws -> Response {
        let record = try await providerRecord(email: request.uri.queryParameters.get("email") ?? "")
        return try HTTPHelpers.json(
            SSOProviderInfo(name: record.settings.displayName, passwordSignIn: record.settings.passwordSignIn))
    }

    private func providerRecord(email: String) async throws -> SSOProviderRecord {
        let email = Store.normalizedEmail(try UserRoutes.validEmail(email))
        guard let domain = SSODomains.domain(of: email),
            let record = try await dependencies.store.ssoProvider(domain: domain)
        else {
            throw APIError(
                .notFound, .ssoNotConfigured,
                "No organisation on this server signs in \(SSODomains.domain(of: email) ?? email) addresses with single sign-on; use your password."
            )
        }
        return record
    }

    @Sendable func start(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let email = query.get("email") ?? ""
        guard let redirect = query.get("redirect_uri"), Self.isAllowedAppRedirect(redirect) else {
            throw APIError.invalidRequest(
                "'redirect_uri' must be http://127.0.0.1:PORT/… or http://[::1]:PORT/… (the app's loopback, RFC 8252 §7.3)."
            )
        }
        guard let challenge = query.get("code_challenge"), PKCE.isWellFormed(challenge),
            query.get("code_challenge_method") == "S256"
        else {
            throw APIError.invalidRequest(
                "'code_challenge' (S256, RFC 7636) is needed: Outpost signs apps in with PKCE.")
        }
        let appState = query.get("state")
        if let appState, appState.count > 512 {
            throw APIError.invalidRequest("'state' is at most 512 characters.")
        }
        let record = try await providerRecord(email: email)
        let now = dependencies.clock.now()
        let address =
            context.clientAddress(of: request, trustedProxies: dependencies.configuration.trustedProxies) ?? "local"
        // Every start counts (never released), like a mailed code's request.
        _ = try await dependencies.store.reserveSignInAttempt(
            subjects: [("sso-start-addr:" + address, Self.startsPerAddress)], now: now,
            window: Self.attemptLifetime
        ).attempt(now: now, refusal: "Too many sign-ins started")
        let attempt = SSOAttempt(
            state: PKCE.randomToken(), tenantId: record.tenantId, nonce: PKCE.randomToken(),
            providerVerifier: PKCE.makeVerifier(),
            callback: baseURL(request, context) + API.ssoCallback.path(record.tenantId), appChallenge: challenge,
            appRedirect: redirect, appState: appState,
            expiresAt: now + Self.attemptLifetime)
        try await dependencies.store.insertSSOAttempt(attempt, now: now)
        let authorization = Self.withQuery(
            record.endpoints.authorizationEndpoint,
            [
                ("response_type", "code"), ("client_id", record.settings.clientId),
                ("redirect_uri", attempt.callback), ("scope", "openid email profile"), ("state", attempt.state),
                ("nonce", attempt.nonce), ("code_challenge", PKCE.challenge(of: attempt.providerVerifier)),
                ("code_challenge_method", "S256"), ("login_hint", Store.normalizedEmail(email)),
            ])
        return Response(status: .found, headers: [.location: authorization, .cacheControl: "no-store"])
    }

    @Sendable func callback(_ request: Request, context: AppRequestContext) async throws -> Response {
        let tenantId = try API.ssoCallback.parameters(in: context)
        let query = request.uri.queryParameters
        let now = dependencies.clock.now()
        guard let state = query.get("state"),
            let attempt = try await dependencies.store.takeSSOAttempt(state: state, tenantId: tenantId, now: now)
        else {
            // No app to send the person back to: the answer is the refusal itself.
            throw APIError(.badRequest, .ssoRefused, SSORefusal.unknownAttempt.description)
        }
        do {
            let user = try await signIn(attempt: attempt, request: request, now: now)
            let code = PKCE.randomToken()
            try await dependencies.store.insertSSOCode(
                code, userId: user.id, appChallenge: attempt.appChallenge, expiresAt: now + Self.codeLifetime)
            dependencies.logger.info("single sign-on of \(user.id.wire) (tenant \(tenantId.wire))")
            return Self.backToApp(attempt, [("code", code)])
        } catch let refusal as SSORefusal {
            dependencies.logger.info("single sign-on refused (tenant \(tenantId.wire)): \(refusal)")
            let error =
                if case .providerError = refusal { "temporarily_unavailable" } else { "access_denied" }
            return Self.backToApp(attempt, [("error", error), ("error_description", refusal.description)])
        }
    }

    /// The checks of the callback, in order; a refusal is an ``SSORefusal``.
    private func signIn(
        attempt: SSOAttempt, request: Request, now: Date
    ) async throws -> UserRecord {
        let query = request.uri.queryParameters
        let store = dependencies.store
        guard let record = try await store.ssoProvider(tenantId: attempt.tenantId) else {
            throw SSORefusal.providerError("single sign-on was turned off for your organisation")
        }
        let settings = record.settings
        // RFC 9207: a provider that names itself must be this tenant's.
        if let issuer = query.get("iss"), issuer != settings.issuer { throw SSORefusal.token(.issuer) }
        if let error = query.get("error") {
            throw SSORefusal.providerError(query.get("error_description").map { "\(error): \($0)" } ?? error)
        }
        guard let code = query.get("code"), !code.isEmpty else { throw SSORefusal.providerError("no code") }
        let idToken: String
        do {
            let secret = try dependencies.keyEncryptionKeys.open(
                secret: record.sealedSecret, purpose: SSOSettingsRoutes.secretPurpose, kekId: record.secretKEKId,
                tenantId: record.tenantId)
            if record.secretKEKId != dependencies.keyEncryptionKeys.current.id {
                // Sealed under an older key-encryption key: sealed again under the current one,
                // as tenants' data keys are re-wrapped on use (`outpost admin rotate-kek`).
                let resealed = try dependencies.keyEncryptionKeys.seal(
                    secret: secret, purpose: SSOSettingsRoutes.secretPurpose, tenantId: record.tenantId)
                try await store.resealSSOSecret(
                    tenantId: record.tenantId, from: record.secretKEKId, to: resealed.kekId, sealed: resealed.sealed)
            }
            idToken = try await dependencies.identityProvider.exchange(
                code: code, verifier: attempt.providerVerifier, redirectURI: attempt.callback,
                tokenEndpoint: record.endpoints.tokenEndpoint, clientId: settings.clientId, clientSecret: secret)
        } catch let failure as IdentityProviderClient.Failure {
            throw SSORefusal.providerError(failure.description)
        }
        let claims: IDTokenClaims
        do {
            guard let jwks = URL(string: record.endpoints.jwksURI) else { throw SSORefusal.token(.unknownKey) }
            claims = try await dependencies.providerKeys.verify(
                idToken, at: jwks,
                expecting: IDTokenVerifier.Expectation(
                    issuer: settings.issuer, clientId: settings.clientId, nonce: attempt.nonce, now: now))
        } catch let refusal as IDTokenRefusal {
            throw SSORefusal.token(refusal)
        } catch let failure as IdentityProviderClient.Failure {
            throw SSORefusal.providerError(failure.description)
        }
        let linked = try await store.ssoUser(issuer: settings.issuer, subject: claims.sub.value)
        let byEmail = try await claims.email.asyncMap { try await store.user(email: $0) } ?? nil
        let outcome = SSOUserMapping.decide(
            claims: claims, provider: settings, tenantId: attempt.tenantId, linked: linked, byEmail: byEmail,
            newUserId: .random())
        switch outcome {
        case .signIn(let user):
            return user
        case .link(let user):
            return try await store.linkSSOIdentity(
                issuer: settings.issuer, subject: claims.sub.value, to: user, create: false, now: now)
        case .create(var user):
            user.passwordHash = try await dependencies.hasher.unusablePasswordHash()
            do {
                return try await store.linkSSOIdentity(
                    issuer: settings.issuer, subject: claims.sub.value, to: user, create: true, now: now)
            } catch StoreError.emailTaken {
                // The e-mail's account was removed (its row keeps the address), or another
                // organisation's took the address meanwhile: no new account either way.
                throw SSORefusal.accountUnavailable
            }
        case .refuse(let refusal):
            throw refusal
        }
    }

    @Sendable func token(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await HTTPHelpers.decode(SSOTokenRequest.self, from: request)
        let deviceId = try HTTPHelpers.nonEmpty(body.deviceId, "deviceId")
        let now = dependencies.clock.now()
        let refused = APIError(.badRequest, .ssoRefused, SSORefusal.codeInvalid.description)
        // The code is used up whatever the verifier: a stolen code tried with a guess is gone.
        guard let issued = try await dependencies.store.takeSSOCode(body.code, now: now) else { throw refused }
        guard PKCE.challenge(of: body.codeVerifier) == issued.appChallenge else { throw refused }
        guard let user = try await dependencies.store.user(id: issued.userId) else { throw APIError.accountRemoved }
        return try await AuthRoutes(dependencies: dependencies).startSession(for: user, deviceId: deviceId, now: now)
    }

    /// The server's own address as browsers reach it: the configured public URL, else the
    /// request's host and scheme (behind a proxy, set the public URL).
    private func baseURL(_ request: Request, _ context: AppRequestContext) -> String {
        if let configured = dependencies.configuration.publicURL?.absoluteString {
            return configured.hasSuffix("/") ? String(configured.dropLast()) : configured
        }
        let secure = ConsoleHeaders.isSecure(request, context, configuration: dependencies.configuration)
        return (secure ? "https://" : "http://") + (request.head.authority ?? "127.0.0.1")
    }

    /// The app's redirects Outpost sends a code to: the loopback (any port: RFC 8252 §7.3, by IP
    /// literal, §8.3) and the console's own page.
    static func isAllowedAppRedirect(_ text: String) -> Bool {
        if text == consoleRedirect { return true }
        guard let url = URL(string: text), url.scheme == "http", url.user == nil, url.fragment == nil,
            url.port != nil
        else { return false }
        return url.host == "127.0.0.1" || url.host == "::1" || url.host == "[::1]"
    }

    /// The browser's way back to the app: its redirect with `items` and its own state.
    static func backToApp(_ attempt: SSOAttempt, _ items: [(String, String)]) -> Response {
        Response(
            status: .found,
            headers: [
                .location: withQuery(attempt.appRedirect, items + (attempt.appState.map { [("state", $0)] } ?? [])),
                .cacheControl: "no-store",
            ])
    }

    /// `base` with `items` added to its query, each percent-encoded.
    static func withQuery(_ base: String, _ items: [(String, String)]) -> String {
        let query = items.map {
            "\(IdentityProviderClient.formEncoded($0))=\(IdentityProviderClient.formEncoded($1))"
        }.joined(separator: "&")
        return base + (base.contains("?") ? "&" : "?") + query
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
