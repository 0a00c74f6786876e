/// `GET /v1/tenant/settings` and `PUT` (organizer): settings that apply to every user of a tenant.
public struct TenantSettings: Codable, Sendable, Hashable {
    /// Hours a device may unlock offline after the server last accepted its session (1...720;
    /// default 72). Devices learn it with every sign-in and refresh.
    public var offlineUnlockHours: Int

    public static let defaultOfflineUnlockHours = 72
    public static let offlineUnlockRange = 1...720

    /// The time zone new events start in (an IANA name such as Europe/Oslo); absent: the
    /// console offers the browser's.
    public var timeZone: String?

    /// Organizers must sign in with a second factor (absent: no); one who has none may only turn
    /// it on until they do.
    public var organizersNeedTwoFactor: Bool?

    public init(
        offlineUnlockHours: Int = TenantSettings.defaultOfflineUnlockHours, timeZone: String? = nil,
        organizersNeedTwoFactor: Bool? = nil
    ) {
        self.offlineUnlockHours = offlineUnlockHours
        self.timeZone = timeZone
        self.organizersNeedTwoFactor = organizersNeedTwoFactor
    }
}
