import OutpostShell

/// This module's stable test identifiers: Seed 004 (the peer mentors' activities and contacts).
extension UIIdentifier {
    // Seed 004: the peer mentors' module (activities and contacts). The seed names no
    // identifiers; these follow the shell's style.
    public static let tabActivities = "activities-tab"
    public static let tabContacts = "contacts-tab"
    public static let activitiesScreen = "activities-screen"
    /// One activity: `activityId`, `contactId`, `type`, `date`, `durationMinutes`, `version`,
    /// `syncing` ("true" while its writes wait in the outbox).
    public static let activityRow = "activities-activity-row"
    public static let activityRegister = "activities-register-button"
    /// "Visit saved" after a registration (with "will sync when you're online" offline).
    public static let activitySaved = "activities-saved-notice"
    /// "N activities synced": once, after queued registrations reached the server.
    public static let activitySyncNotice = "activities-sync-notice"
    /// An edit or delete that met a newer version on the server: both versions, never dropped.
    public static let activityConflict = "activities-conflict"
    /// Entries the server refused for good (a contact no longer assigned, …); the rest sync on.
    public static let activitySyncFailed = "activities-sync-failed"
    /// What the last action could not do (a contact that is not yours, a bad date).
    public static let activityError = "activities-error"
    public static let contactsScreen = "contacts-screen"
    public static let contactRow = "contacts-contact-row"
    public static let contactDetailScreen = "contacts-contact-detail"
    /// The cached, non-sensitive information of a contact (name, area, last visit).
    public static let contactCachedInfo = "contacts-cached-info"
    /// One revealed sensitive field (`field`: address, phone, healthNotes), held in memory only.
    public static let contactSensitiveField = "contacts-sensitive-field"
    /// Offline: "Encrypted content requires a connection" (neutral wording).
    public static let contactEncryptedOffline = "contacts-encrypted-offline"
    public static let contactReveal = "contacts-reveal-button"
}
