import Foundation
import OutpostCore

/// Who may sign in through the tenant's identity provider without an Outpost account yet.
public enum SSONewUsers: String, Codable, Sendable, CaseIterable {
    /// Only people the organizer already added (by e-mail) sign in; anyone else is refused.
    case existingOnly = "existing-only"
    /// Anyone the provider vouches for with a verified e-mail in an allowed domain gets an
    /// account with the check-in staff role (never more: roles are the organizer's to give).
    case checkInStaff = "checkin_staff"
}

/// `GET` and `PUT /v1/tenant/sso` (organizer): the tenant's OpenID Connect provider.
public struct SSOSettings: Codable, Sendable, Hashable {
    /// What the sign-in button says: "Sign in with <displayName>".
    public var displayName: String
    /// The provider's issuer exactly as its discovery document names it (`https://…`; plain
    /// `http://` only for a provider on this machine's loopback).
    public var issuer: String
    public var clientId: String
    /// Write-only: never in an answer. On `PUT`, nil keeps the stored secret.
    public var clientSecret: String?
    /// The e-mail domains this provider signs in (each belongs to one tenant on the server).
    public var allowedDomains: [String]
    public var newUsers: SSONewUsers
    /// False: the tenant's users sign in only through the provider.
    public var passwordSignIn: Bool

    public init(
        displayName: String, issuer: String, clientId: String, clientSecret: String? = nil,
        allowedDomains: [String], newUsers: SSONewUsers = .existingOnly, passwordSignIn: Bool = true
    ) {
        self.displayName = displayName
        self.issuer = issuer
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.allowedDomains = allowedDomains
        self.newUsers = newUsers
        self.passwordSignIn = passwordSignIn
    }
}

/// `GET /v1/auth/sso?email=` (no auth): the provider that signs in the e-mail's domain, for the
/// sign-in screen's "Sign in with <name>".
public struct SSOProviderInfo: Codable, Sendable, Hashable {
    public var name: String
    /// False when the organisation accepts only single sign-on.
    public var passwordSignIn: Bool

    public init(name: String, passwordSignIn: Bool) {
        self.name = name
        self.passwordSignIn = passwordSignIn
    }
}

/// `POST /v1/auth/sso/token` (no auth): the one-time code the sign-in's redirect carried and the
/// PKCE verifier of the challenge the app started it with, for a token pair.
public struct SSOTokenRequest: Codable, Sendable, Hashable {
    public var code: String
    public var codeVerifier: String
    public var deviceId: String

    public init(code: String, codeVerifier: String, deviceId: String) {
        self.code = code
        self.codeVerifier = codeVerifier
        self.deviceId = deviceId
    }
}
