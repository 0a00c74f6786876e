import Foundation
import OutpostCore

/// What was done to a user's account, as the organisation's record of it keeps it.
public enum UserChangeKind: String, Codable, Sendable, CaseIterable {
    case added
    case renamed
    case roleChanged = "role_changed"
    case removed
    case passwordReset = "password_reset"
    case passwordLinkSent = "password_link_sent"
    case passwordSetByLink = "password_set_by_link"
    case signedOutEverywhere = "signed_out_everywhere"
    case twoFactorTurnedOff = "two_factor_turned_off"

    /// The change in words, for the console.
    public var title: String {
        switch self {
        case .added: "Added"
        case .renamed: "Renamed"
        case .roleChanged: "Role changed"
        case .removed: "Removed"
        case .passwordReset: "Password set by an organizer"
        case .passwordLinkSent: "Password link mailed"
        case .passwordSetByLink: "Password set by link"
        case .signedOutEverywhere: "Every sign-in ended"
        case .twoFactorTurnedOff: "Second factor turned off"
        }
    }
}

/// One change to a user's account: who did it to whom, when, and what changed (`detail`: a
/// role change's "checkin_staff → organizer", a rename's old name).
public struct UserChange: Codable, Sendable, Hashable {
    public var at: Date
    public var kind: UserChangeKind
    public var userId: UserID
    public var userName: String
    public var byId: UserID
    public var byName: String
    public var detail: String?

    public init(
        at: Date, kind: UserChangeKind, userId: UserID, userName: String, byId: UserID, byName: String,
        detail: String? = nil
    ) {
        self.at = at
        self.kind = kind
        self.userId = userId
        self.userName = userName
        self.byId = byId
        self.byName = byName
        self.detail = detail
    }
}

/// `GET /v1/user-changes`: the organisation's changes to its users, newest first.
public struct UserChangeList: Codable, Sendable, Hashable {
    public var changes: [UserChange]

    public init(changes: [UserChange]) { self.changes = changes }
}
