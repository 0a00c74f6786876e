import Foundation
import OutpostCore
import OutpostProtocol

/// Where the activities module is, kept across launches (sealed). What a reveal showed is never
/// part of it: sensitive contact fields live in memory only.
struct ActivitiesState: Codable, Sendable, Hashable {
    enum Screen: String, Codable, Sendable {
        case activities
        case contacts
        case contact
    }

    var screen: Screen = .activities
    var contactId: ContactID?
    /// The activities the server accepted writes of since the mentor last saw the notice (an
    /// activity registered and then corrected offline is two entries and one activity).
    var synced: Set<ActivityID> = []
    /// "Visit saved" after a registration.
    var saved: String?
    /// What the last action could not do.
    var error: String?
    /// When the contacts and activities were last pulled from the server.
    var lastUpdated: Date?
}
