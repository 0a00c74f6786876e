/// Every `error` code the API answers with (API.md), shared by the server, the device and the
/// soak. The server answers only with these; a client meets codes it does not know (a newer
/// server) as ``unknown(_:)``.
public enum APIErrorCode: Hashable, Sendable, CustomStringConvertible {
    case invalidRequest
    case unauthorized
    case invalidCredentials
    case tokenReused
    case forbidden
    case notFound
    case methodNotAllowed
    case emailTaken
    case guestNotAdmissible
    case idempotencyKeyReused
    case versionConflict
    case dayAlreadySubmitted
    case weekFinalised
    case invalidCode
    case mailUnavailable
    case weakPasscode
    case rateLimited
    case busy
    case payloadTooLarge
    case internalError
    /// 401: the account was removed by its organizer (its sign-ins ended with it).
    case accountRemoved
    /// 409: the user's devices last reported entries not yet sent (removal needs `confirm=unsent`).
    case unsentWork
    /// 409: the access type does not admit walk-ins.
    case walkInNotAllowed
    /// 409: no walk-in places of the access type are left to lease.
    case walkInCapacityReached
    /// 404: no tenant on this server signs in the e-mail's domain with single sign-on.
    case ssoNotConfigured
    /// 400: a single sign-on attempt or its answer was refused (state, code, ID token, domain).
    case ssoRefused
    /// 403: the user's organisation turned password sign-in off (single sign-on only).
    case passwordSignInOff
    /// 502: the organisation's identity provider did not answer, or answered with an error.
    case providerUnavailable
    /// 401: the password was right and the account signs in with a second factor: send a code
    /// with the answer's `challenge` (`POST /v1/auth/signin/code`).
    case twoFactorRequired
    /// 403: the organisation requires two-factor sign-in of its organizers: turn it on first.
    case twoFactorEnrollmentRequired
    case unknown(String)

    public static let known: [APIErrorCode] = [
        .invalidRequest, .unauthorized, .invalidCredentials, .tokenReused, .forbidden, .notFound, .methodNotAllowed,
        .emailTaken, .guestNotAdmissible, .idempotencyKeyReused, .versionConflict, .dayAlreadySubmitted, .weekFinalised,
        .invalidCode, .mailUnavailable,
        .weakPasscode, .rateLimited, .busy,
        .payloadTooLarge, .internalError, .accountRemoved, .unsentWork, .walkInNotAllowed, .walkInCapacityReached,
        .ssoNotConfigured, .ssoRefused, .passwordSignInOff, .providerUnavailable, .twoFactorRequired,
        .twoFactorEnrollmentRequired,
    ]

    public init(_ code: String) {
        self = Self.known.first { $0.rawValue == code } ?? .unknown(code)
    }

    /// The code as it appears in the body.
    public var rawValue: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .unauthorized: "unauthorized"
        case .invalidCredentials: "invalid_credentials"
        case .tokenReused: "token_reused"
        case .forbidden: "forbidden"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .emailTaken: "email_taken"
        case .guestNotAdmissible: "guest_not_admissible"
        case .idempotencyKeyReused: "idempotency_key_reused"
        case .versionConflict: "version_conflict"
        case .dayAlreadySubmitted: "day_already_submitted"
        case .weekFinalised: "week_finalised"
        case .invalidCode: "invalid_code"
        case .mailUnavailable: "mail_unavailable"
        case .weakPasscode: "weak_passcode"
        case .rateLimited: "rate_limited"
        case .busy: "busy"
        case .payloadTooLarge: "payload_too_large"
        case .internalError: "internal_error"
        case .accountRemoved: "account_removed"
        case .unsentWork: "unsent_work"
        case .walkInNotAllowed: "walk_in_not_allowed"
        case .walkInCapacityReached: "walk_in_capacity_reached"
        case .ssoNotConfigured: "sso_not_configured"
        case .ssoRefused: "sso_refused"
        case .passwordSignInOff: "password_sign_in_off"
        case .providerUnavailable: "provider_unavailable"
        case .twoFactorRequired: "two_factor_required"
        case .twoFactorEnrollmentRequired: "two_factor_enrollment_required"
        case .unknown(let code): code
        }
    }

    public var description: String { rawValue }

    /// True when sending the same request again can never succeed: the server looked at it and
    /// refused it for what it is. False for the codes of a moment (rate limits, a server
    /// failure), for the session's codes (they end or refresh the session instead), and for
    /// codes this client does not know (never drop work on an answer it cannot read).
    public var isFinal: Bool {
        switch self {
        case .invalidRequest, .forbidden, .notFound, .methodNotAllowed, .emailTaken, .guestNotAdmissible,
            .idempotencyKeyReused, .versionConflict, .dayAlreadySubmitted, .weekFinalised, .weakPasscode,
            .payloadTooLarge, .walkInNotAllowed, .walkInCapacityReached, .ssoNotConfigured, .ssoRefused,
            .passwordSignInOff:
            true
        case .unauthorized, .invalidCredentials, .invalidCode, .mailUnavailable, .tokenReused, .rateLimited, .busy,
            .internalError, .accountRemoved, .unsentWork, .providerUnavailable, .twoFactorRequired,
            .twoFactorEnrollmentRequired, .unknown:
            false
        }
    }
}

extension ErrorBody {
    /// The body's code as a value.
    public var code: APIErrorCode { APIErrorCode(error) }

    /// The body the server answers with for `code`.
    public init(code: APIErrorCode, message: String, rules: [String]? = nil, challenge: String? = nil) {
        self.init(error: code.rawValue, message: message, rules: rules, challenge: challenge)
    }
}
