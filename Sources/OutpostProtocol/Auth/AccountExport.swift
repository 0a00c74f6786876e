import Foundation

/// `GET /v1/me/export` (GDPR Art. 20): everything the server holds about the signed-in user, as
/// one JSON document. The device adds its own records to it for the worker's export.
public struct AccountExport: Codable, Sendable, Hashable {
    public var user: UserInfo
    public var createdAt: Date
    public var consent: ConsentRecord
    /// The sign-ins (one per device) the server keeps, without their secrets.
    public var devices: [String]
    public var days: [DaySubmission]
    public var finalisedWeeks: [FinalisedWeek]
    public var activities: [Activity]
    public var exportedAt: Date

    public init(
        user: UserInfo, createdAt: Date, consent: ConsentRecord, devices: [String], days: [DaySubmission],
        finalisedWeeks: [FinalisedWeek], activities: [Activity], exportedAt: Date
    ) {
        self.user = user
        self.createdAt = createdAt
        self.consent = consent
        self.devices = devices
        self.days = days
        self.finalisedWeeks = finalisedWeeks
        self.activities = activities
        self.exportedAt = exportedAt
    }
}
