import Foundation
import OutpostCore

/// A user role. No anonymous or guest use exists.
public enum UserRole: String, Codable, Sendable, CaseIterable {
    case organizer
    case support
    case checkinStaff = "checkin_staff"
    /// A peer mentor (seed 004): sees and registers activities only for the contacts assigned to them.
    case mentor
    /// A care worker tracking their own hours (seed 003): their own locations, sessions and days.
    case worker
    /// An exhibitor's staff (EFx lead retrieval): the leads of the booths they are on, nothing else
    /// of the event (not the roster, not check-in).
    case exhibitor
    /// A partner's block manager (EF-069): names the tickets of the blocks they manage until the
    /// naming deadline, nothing else of the event (not the roster, not check-in).
    case blockManager = "block_manager"
}

/// `POST /v1/auth/signin`.
public struct SignInRequest: Codable, Sendable, Hashable {
    public var email: String
    public var password: String
    public var deviceId: String

    public init(email: String, password: String, deviceId: String) {
        self.email = email
        self.password = password
        self.deviceId = deviceId
    }
}

/// `POST /v1/auth/refresh` and `POST /v1/auth/signout`.
public struct RefreshRequest: Codable, Sendable, Hashable {
    public var refreshToken: String
    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

/// A user as the API shows it.
public struct UserInfo: Codable, Sendable, Hashable {
    public var id: UserID
    public var name: String
    public var email: String
    public var role: UserRole
    public var tenantId: TenantID
    /// In the users list only: whether the user signs in with a second factor.
    public var twoFactorEnabled: Bool?
    /// In an event's staff list only: `organizer` when the event makes them its organizer; absent,
    /// they work it in their own role.
    public var eventRole: UserRole?

    public init(
        id: UserID, name: String, email: String, role: UserRole, tenantId: TenantID, twoFactorEnabled: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.email = email
        self.role = role
        self.tenantId = tenantId
        self.twoFactorEnabled = twoFactorEnabled
    }
}

/// The answer of sign-in and refresh.
public struct TokenPair: Codable, Sendable, Hashable {
    public var accessToken: String
    public var refreshToken: String
    /// Seconds the access token stays valid.
    public var expiresIn: Int
    public var user: UserInfo
    /// Hours a device may unlock offline after this validation (the tenant's setting).
    public var offlineUnlockHours: Int?
    /// True when the organisation requires a second factor the user has not turned on: the
    /// session may only turn it on (`/v1/me/two-factor`), then refresh.
    public var twoFactorEnrollmentRequired: Bool?

    public init(
        accessToken: String, refreshToken: String, expiresIn: Int, user: UserInfo, offlineUnlockHours: Int? = nil,
        twoFactorEnrollmentRequired: Bool? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.user = user
        self.offlineUnlockHours = offlineUnlockHours
        self.twoFactorEnrollmentRequired = twoFactorEnrollmentRequired
    }
}

/// `PUT /v1/users/{userId}/password` (organizer): a new password; every sign-in of the user ends.
public struct PasswordResetRequest: Codable, Sendable, Hashable {
    public var password: String

    public init(password: String) { self.password = password }
}

/// `POST /v1/users/{userId}/password-link` (organizer): a link to set a new password was mailed
/// to the user; it works once, until `expiresAt`, and a newer one ends it.
public struct PasswordLinkSent: Codable, Sendable, Hashable {
    public var email: String
    public var expiresAt: Date

    public init(email: String, expiresAt: Date) {
        self.email = email
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/auth/password-link` (no auth): a mailed link's token and the new password; every
/// sign-in of the user ends.
public struct PasswordLinkUse: Codable, Sendable, Hashable {
    public var token: String
    public var password: String

    public init(token: String, password: String) {
        self.token = token
        self.password = password
    }
}

/// `POST /v1/auth/email-code` (no auth): send a six-digit sign-in code to `email`. Answered
/// 202 whether or not an account exists (no account enumeration); `register` words the mail
/// for someone creating an account.
public struct EmailCodeRequest: Codable, Sendable, Hashable {
    public enum Purpose: String, Codable, Sendable, Hashable {
        case signin
        case register
    }

    public var email: String
    public var purpose: Purpose

    public init(email: String, purpose: Purpose) {
        self.email = email
        self.purpose = purpose
    }
}

/// `POST /v1/auth/email-signin` (no auth): the code from the mail. For an e-mail without an
/// account, `name` and `consentVersion` (the version of the terms and privacy notice the person
/// accepted) create one: a `worker` in a tenant of their own.
public struct EmailSignInRequest: Codable, Sendable, Hashable {
    public var email: String
    public var code: String
    public var deviceId: String
    public var name: String?
    public var consentVersion: String?

    public init(email: String, code: String, deviceId: String, name: String? = nil, consentVersion: String? = nil) {
        self.email = email
        self.code = code
        self.deviceId = deviceId
        self.name = name
        self.consentVersion = consentVersion
    }
}

/// `PUT /v1/me/consent`: the version of the terms the signed-in user accepted (a new version
/// asks again); `GET /v1/me/consent` answers the same shape.
public struct ConsentRecord: Codable, Sendable, Hashable {
    public var version: String?
    public var acceptedAt: Date?

    public init(version: String?, acceptedAt: Date? = nil) {
        self.version = version
        self.acceptedAt = acceptedAt
    }
}

/// `GET /v1/users` (every user of the caller's tenant, by name) and
/// `GET /v1/events/{eventId}/staff` (the event's staff, by name).
public struct UserList: Codable, Sendable, Hashable {
    public var users: [UserInfo]
    public init(users: [UserInfo]) { self.users = users }
}

/// The 409 `unsent_work` of `DELETE /v1/users/{id}`: what the user's devices last reported not
/// sent. Removing the user anyway (`?confirm=unsent`) leaves those entries on the devices (they
/// show why, and their privacy export holds them); the server no longer accepts them.
public struct UnsentWork: Codable, Sendable, Hashable {
    public struct Device: Codable, Sendable, Hashable {
        public var deviceId: String
        public var pending: Int
        public var reportedAt: Date

        public init(deviceId: String, pending: Int, reportedAt: Date) {
            self.deviceId = deviceId
            self.pending = pending
            self.reportedAt = reportedAt
        }
    }

    public var error: String
    public var message: String
    public var unsent: Int
    public var devices: [Device]

    public init(message: String, devices: [Device]) {
        error = APIErrorCode.unsentWork.rawValue
        self.message = message
        self.unsent = devices.map(\.pending).reduce(0, +)
        self.devices = devices
    }
}

/// `PATCH /v1/users/{userId}` (organizer): the fields to change (absent: unchanged). A new role
/// ends every sign-in of the user, so their devices sign in again with it.
public struct UpdateUserRequest: Codable, Sendable, Hashable {
    public var name: String?
    public var role: UserRole?

    public init(name: String? = nil, role: UserRole? = nil) {
        self.name = name
        self.role = role
    }
}
