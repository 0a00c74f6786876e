import Foundation
import OutpostCore
import OutpostProtocol

/// Who a verified ID token signs in: a pure decision over what the store knows. Only the issuer
/// and subject are a stable identity (OIDC Core §5.7); an e-mail links a first sign-in to an
/// account only when the provider says it verified it and its domain is one the organizer listed
/// for this provider (the organizer's word that the provider owns those mailboxes: the nOAuth
/// takeover was an unverified, user-editable e-mail claim trusted across tenants).
enum SSOUserMapping {
    enum Outcome: Equatable {
        /// The identity is linked to this user already.
        case signIn(UserRecord)
        /// The first sign-in of an existing user through the provider: link, then sign in.
        case link(UserRecord)
        /// A new check-in staff account (the provider's policy allows it), linked.
        case create(UserRecord)
        case refuse(SSORefusal)
    }

    /// - Parameters:
    ///   - linked: the user the identity is linked to, if any.
    ///   - byEmail: the (not removed) user with the token's e-mail, if any, in any tenant.
    ///   - newUserId: the id a created account gets (its password hash is the caller's to set).
    static func decide(
        claims: IDTokenClaims, provider: SSOSettings, tenantId: TenantID, linked: UserRecord?, byEmail: UserRecord?,
        newUserId: UserID
    ) -> Outcome {
        if let linked {
            return linked.tenantId == tenantId ? .signIn(linked) : .refuse(.otherOrganisation)
        }
        guard let email = claims.email.map(Store.normalizedEmail), claims.emailVerified == true, !email.isEmpty else {
            return .refuse(.noVerifiedEmail)
        }
        guard let domain = SSODomains.domain(of: email), provider.allowedDomains.contains(domain) else {
            return .refuse(.domainNotAllowed(email))
        }
        if let byEmail {
            return byEmail.tenantId == tenantId ? .link(byEmail) : .refuse(.otherOrganisation)
        }
        switch provider.newUsers {
        case .existingOnly:
            return .refuse(.noAccount(email))
        case .checkInStaff:
            let name = claims.name?.trimmingCharacters(in: .whitespacesAndNewlines)
            return .create(
                UserRecord(
                    id: newUserId, tenantId: tenantId, email: email,
                    name: name.flatMap { $0.isEmpty ? nil : $0 } ?? email, role: .checkinStaff,
                    passwordHash: ""))
        }
    }
}

/// Why a single sign-on was refused: one sentence each, shown to the person signing in.
enum SSORefusal: Error, Equatable, CustomStringConvertible {
    case unknownAttempt
    case providerError(String)
    case token(IDTokenRefusal)
    case noVerifiedEmail
    case domainNotAllowed(String)
    case otherOrganisation
    case noAccount(String)
    case accountUnavailable
    case codeInvalid

    var description: String {
        switch self {
        case .unknownAttempt:
            "This sign-in link was already used, has expired or is not this server's; start signing in again."
        case .providerError(let error): "The identity provider did not sign you in (\(error))."
        case .token(let refusal): refusal.description
        case .noVerifiedEmail: "The identity provider did not give a verified e-mail address for you."
        case .domainNotAllowed(let email):
            "\(email) is not in a domain your organisation signs in with single sign-on."
        case .otherOrganisation: "This identity belongs to an account of another organisation on this server."
        case .noAccount(let email):
            "There is no Outpost account for \(email) yet; ask your organizer to add you."
        case .accountUnavailable:
            "The Outpost account with this e-mail was removed or belongs to another organisation; ask your organizer."
        case .codeInvalid: "That sign-in code is wrong, used or expired, or the app's verifier does not match it."
        }
    }
}

/// E-mail domains as the SSO settings keep them: lower-case, without a leading `@`.
enum SSODomains {
    /// The domain of a (normalised) e-mail address.
    static func domain(of email: String) -> String? {
        guard let at = email.lastIndex(of: "@") else { return nil }
        let domain = String(email[email.index(after: at)...])
        return domain.isEmpty ? nil : domain
    }

    /// A domain as an organizer typed it, normalised; nil when it is not a domain name.
    static func normalized(_ text: String) -> String? {
        var domain = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if domain.hasPrefix("@") { domain.removeFirst() }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.count <= 253,
            labels.allSatisfy({ label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            })
        else { return nil }
        return domain
    }
}
