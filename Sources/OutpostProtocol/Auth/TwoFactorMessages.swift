import Foundation

/// `GET /v1/me/two-factor`: whether the caller signs in with a second factor.
public struct TwoFactorStatus: Codable, Sendable, Hashable {
    /// Codes from an authenticator app are asked for at every password sign-in.
    public var enabled: Bool
    /// A secret was handed out and waits for its first code.
    public var enrolling: Bool
    /// Recovery codes not used yet.
    public var recoveryCodesLeft: Int
    /// The organisation requires it of this user (an organizer, when its settings say so).
    public var required: Bool

    public init(enabled: Bool, enrolling: Bool, recoveryCodesLeft: Int, required: Bool) {
        self.enabled = enabled
        self.enrolling = enrolling
        self.recoveryCodesLeft = recoveryCodesLeft
        self.required = required
    }
}

/// `POST /v1/me/two-factor`: the caller's password, so a borrowed session cannot lock its owner out.
public struct TwoFactorEnrollRequest: Codable, Sendable, Hashable {
    public var password: String
    public init(password: String) { self.password = password }
}

/// The secret for the authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 seconds), as
/// base32 to type and as an `otpauth://` URI to scan.
public struct TwoFactorEnrollment: Codable, Sendable, Hashable {
    public var secret: String
    public var uri: String

    public init(secret: String, uri: String) {
        self.secret = secret
        self.uri = uri
    }
}

/// `POST /v1/me/two-factor/confirm`: the app's first code.
public struct TwoFactorConfirmRequest: Codable, Sendable, Hashable {
    public var code: String
    public init(code: String) { self.code = code }
}

/// Ten single-use codes that sign in without the app, shown once.
public struct RecoveryCodes: Codable, Sendable, Hashable {
    public var codes: [String]
    public init(codes: [String]) { self.codes = codes }
}

/// `POST /v1/auth/signin/code`: the second step of a password sign-in.
public struct SignInCodeRequest: Codable, Sendable, Hashable {
    /// The `challenge` of the `two_factor_required` answer.
    public var challenge: String
    /// Six digits from the app, or a recovery code.
    public var code: String

    public init(challenge: String, code: String) {
        self.challenge = challenge
        self.code = code
    }
}
