import OutpostShell

/// This module's stable test identifiers: Seed 001 (check-in) and the tabs the check-in module shows in the event shell (seed 000 names them).
extension UIIdentifier {
    public static let tabCheckIn = "native-shell-tab-checkin"
    public static let tabEFx = "native-shell-tab-efx"
    public static let cameraPermissionPrompt = "native-shell-camera-permission-prompt"
    // Seed 001: check-in.
    public static let cameraViewfinder = "checkin-camera-viewfinder"
    public static let manualEntryToggle = "checkin-manual-entry-toggle"
    public static let manualEntryInput = "checkin-manual-entry-input"
    public static let confirmationScreen = "checkin-confirmation-screen"
    /// One of the guest's notes at the door on the confirmation card.
    public static let doorNote = "checkin-door-note"
    public static let confirmButton = "checkin-confirm-button"
    public static let cancelButton = "checkin-cancel-button"
    public static let alreadyCheckedIn = "checkin-already-checked-in"
    public static let crossEventBanner = "checkin-cross-event-banner"
    public static let tamperedBanner = "checkin-tampered-banner"
    public static let syncingIndicator = "checkin-syncing-indicator"
    /// A confirm that could not be written to the device's store (nothing was queued).
    public static let saveErrorBanner = "checkin-save-error-banner"

    /// The settings deep link on the camera prompt.
    public static let cameraSettingsLink = "native-shell-camera-permission-settings"
    /// The green "checked in" result card after a confirm.
    public static let checkedInCard = "checkin-checked-in-card"
    /// A guest who is cancelled or revoked (refused offline too).
    public static let notAdmissibleBanner = "checkin-not-admissible-banner"
    /// A signed ticket whose guest is not in the local roster yet.
    public static let notInRosterBanner = "checkin-not-in-roster-banner"
    /// Re-confirm on the already-checked-in screen.
    public static let reconfirmButton = "checkin-reconfirm-button"
    /// One autocomplete suggestion under manual entry.
    public static let manualEntrySuggestion = "checkin-manual-entry-suggestion"
    /// A check-in the server refused for good (404/409/422), shown until dismissed.
    public static let syncRejectedBanner = "native-shell-sync-rejected-banner"
    /// A block ticket's scope on the confirmation card ("Sponsor: Acme (block of 20)").
    public static let blockScope = "checkin-block-scope"
    /// One of the event's own guest fields on the card ("T-shirt size: M"), in the fields' order.
    public static let guestField = "checkin-guest-field"
    /// The holder's name for a block's unnamed ticket, named at the door.
    public static let doorNameInput = "checkin-door-name-input"
    /// A block's unnamed ticket the door may not name (the partner names its own).
    public static let unnamedTicketBanner = "checkin-unnamed-ticket-banner"
    /// The roster list in the event shell (offline readable).
    public static let rosterList = "native-shell-roster-list"
}
