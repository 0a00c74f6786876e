/// `PUT /v1/events/{eventId}/kiosk`.
public struct KioskSetupRequest: Codable, Sendable, Hashable {
    public var passcode: String
    public var orientation: KioskOrientation

    public init(passcode: String, orientation: KioskOrientation) {
        self.passcode = passcode
        self.orientation = orientation
    }
}
