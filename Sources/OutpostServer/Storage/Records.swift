import Foundation
import OutpostCore
import OutpostProtocol

public enum SignInIDKind: IDKind {}
/// One sign-in of a user on a device: its refresh tokens are one family, and revoking it ends
/// every access token that names it.
public typealias SignInID = TypedID<SignInIDKind>

/// Who is calling, as an access token proves it.
public struct Caller: Sendable, Hashable {
    public var userId: UserID
    public var tenantId: TenantID
    public var role: UserRole
    /// The sign-in the access token belongs to (its refresh-token family): when it ends, the
    /// token is refused at once (``RevokedSessions``). Nil only for tokens issued before tokens
    /// named it.
    public var session: SignInID?
    /// The organisation requires a second factor this user has not turned on: the session may
    /// only turn it on.
    public var mustEnroll: Bool

    public init(
        userId: UserID, tenantId: TenantID, role: UserRole, session: SignInID? = nil, mustEnroll: Bool = false
    ) {
        self.userId = userId
        self.tenantId = tenantId
        self.role = role
        self.session = session
        self.mustEnroll = mustEnroll
    }
}

struct UserRecord: Sendable, Hashable {
    var id: UserID
    var tenantId: TenantID
    var email: String
    var name: String
    var role: UserRole
    var passwordHash: String

    var info: UserInfo {
        UserInfo(id: id, name: name, email: email, role: role, tenantId: tenantId)
    }
}

struct EventRecord: Sendable {
    var id: EventID
    var tenantId: TenantID
    var name: String
    var startsAt: Date
    var endsAt: Date
    var timeZone: String
    var modules: [String]
    var kiosk: KioskInfo?

    var info: EventInfo {
        EventInfo(
            id: id, name: name, startsAt: startsAt, endsAt: endsAt, timeZone: timeZone,
            modules: modules)
    }
}

struct EventKeyRecord: Sendable {
    var keyID: TicketKeyID
    var publicKey: [UInt8]
    var privateKey: [UInt8]
    /// Milliseconds since 1970, as stored; nil: never expires.
    var expiresAt: Int64?

    /// Whether the key still signs and verifies at `now` (it expires after its last millisecond).
    func isValid(at now: Date) -> Bool { expiresAt.map { $0 > now.millisecondsSince1970 } ?? true }
}

/// A store rule was broken in a way the caller must hear about.
enum StoreError: Error, Equatable {
    case emailTaken
    case unknownAccessType
    case notFound
}
