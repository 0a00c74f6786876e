import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Where the activities module is, kept across launches (sealed). What a reveal showed is never
/// part of it: sensitive contact fields live in memory only.
package struct ActivitiesState: Codable, Sendable, Hashable {
    package enum Screen: String, Codable, Sendable {
        case activities
        case contacts
        case contact
    }

    package var screen: Screen = .activities
    package var contactId: ContactID?
    /// The activities the server accepted writes of since the mentor last saw the notice (an
    /// activity registered and then corrected offline is two entries and one activity).
    package var synced: Set<ActivityID> = []
    /// "Visit saved" after a registration.
    package var saved: String?
    /// What the last action could not do.
    package var error: String?
    /// When the contacts and activities were last pulled from the server.
    package var lastUpdated: Date?
}
