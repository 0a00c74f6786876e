import OutpostShell

/// This module's stable test identifiers: Seed 002 (kiosk mode).
extension UIIdentifier {
    // Seed 002: kiosk mode.
    public static let kioskSetupPasscodeInput = "kiosk-setup-passcode-input"
    public static let kioskSetupOrientationLock = "kiosk-setup-orientation-lock"
    public static let kioskEnterCTA = "kiosk-enter-cta"
    public static let kioskWelcomeScreen = "kiosk-welcome-screen"
    /// The attendee's check-in could not be saved on this kiosk.
    public static let kioskNotSavedMessage = "kiosk-not-saved-message"
    public static let kioskCamera = "kiosk-camera"
    public static let kioskEmailInput = "kiosk-email-input"
    /// The exit prompt's passcode field (masked: one dot per digit typed).
    public static let kioskPasscodeInput = "kiosk-exit-passcode-input"
    public static let kioskConfirmation = "kiosk-confirmation"
    public static let kioskAlreadyCheckedInMessage = "kiosk-already-checked-in-message"
    public static let kioskEmailNotFoundMessage = "kiosk-email-not-found-message"
    public static let kioskCameraFallbackBanner = "kiosk-camera-fallback-banner"
    public static let kioskExitPrompt = "kiosk-exit-prompt"
    public static let kioskExitLockoutBanner = "kiosk-exit-lockout-banner"
    public static let kioskBatteryLowBanner = "kiosk-battery-low-banner"
    public static let kioskBatteryCriticalBanner = "kiosk-battery-critical-banner"

    // Engine additions (not in the seeds' tables).
    /// A kiosk passcode rule the server refused, in words, on the set-up screen.
    public static let kioskSetupRuleError = "kiosk-setup-rule-error"
    /// The corner staff tap three times to reach the exit prompt.
    public static let kioskExitCorner = "kiosk-exit-corner"
    /// On the attendee screen's footer: how many kiosk check-ins have notes for staff (a count only).
    public static let kioskStaffNotesWaiting = "kiosk-staff-notes-waiting"
    /// On the staff view: a guest checked in at the kiosk with their notes at the door.
    public static let kioskStaffNote = "kiosk-staff-note"
    /// On the staff view: staff have seen the kiosk's notes.
    public static let kioskStaffNotesClear = "kiosk-staff-notes-clear"
}
