/// The shell's stable test identifiers of the UI tree, defined once (seed 000's "Stable test
/// attributes", the lock and the data rights screen); each module adds its own in an extension
/// in its target. A SwiftUI view sets `.accessibilityIdentifier` from these.
public enum UIIdentifier {
    // Seed 000: native app shell.
    public static let signIn = "native-shell-signin"
    public static let signInEmail = "native-shell-signin-email"
    public static let signInPassword = "native-shell-signin-password"
    public static let signInSubmit = "native-shell-signin-submit"
    public static let eventPicker = "native-shell-event-picker"
    public static let eventRow = "native-shell-event-row"
    public static let eventShell = "native-shell-event-shell"
    public static let rosterProgress = "native-shell-roster-progress"
    public static let offlineBanner = "native-shell-offline-banner"
    public static let pendingSyncBanner = "native-shell-pending-sync-banner"
    public static let signOut = "native-shell-signout"
    public static let signOutPendingWarning = "native-shell-signout-pending-warning"
    /// One line on the sign-out warning per thing that waits on the user (an unresolved conflict).
    public static let signOutUnsent = "native-shell-signout-unsent"
    public static let appUpdateBanner = "native-shell-app-update-banner"
    public static let storageMigrationError = "native-shell-storage-migration-error"
    /// A write to the store failed while the app ran (``StorageFaults``).
    public static let storageFaultBanner = "native-shell-storage-fault-banner"
    public static let resumeSkeleton = "native-shell-resume-skeleton"

    // Seed 003/004: the lock screen (seed 003's LockScreen: biometrics, device passcode, sign in
    // with e-mail) and its settings toggle. The seeds name no identifiers; these follow the
    // shell's style.
    public static let lockScreen = "native-shell-lock-screen"
    public static let lockUser = "native-shell-lock-user"
    public static let lockUnlockBiometric = "native-shell-lock-unlock-biometric"
    public static let lockUsePasscode = "native-shell-lock-use-passcode"
    public static let lockSignInEmail = "native-shell-lock-signin-email"
    public static let lockMessage = "native-shell-lock-message"
    public static let lockPending = "native-shell-lock-pending"
    public static let settings = "native-shell-settings"
    public static let settingsBiometricToggle = "native-shell-settings-biometric-toggle"
    public static let settingsLockAfter = "native-shell-settings-lock-after"
    public static let sessionEndedMessage = "native-shell-session-ended"
    // The data rights screen (seed 003 "DataPrivacyScreen"): consent status, export, delete.
    public static let privacyScreen = "native-shell-privacy"
    public static let privacyConsent = "native-shell-privacy-consent"
    public static let privacyExport = "native-shell-privacy-export"
    public static let privacyDelete = "native-shell-privacy-delete"
    /// Shown before deleting while entries wait to be sent (`pending`): confirm to go on.
    public static let privacyDeleteWarning = "native-shell-privacy-delete-warning"
    public static let privacyMessage = "native-shell-privacy-message"

    public static let forceUpgradeScreen = "checkin-force-upgrade-screen"
    /// The sign-out choices on the pending warning.
    public static let signOutWait = "native-shell-signout-wait"
    public static let signOutDiscard = "native-shell-signout-discard"
    public static let signOutKeep = "native-shell-signout-keep"
    /// Outbox entries set aside because they cannot be read (damaged on disk); kept, counted.
    public static let syncQuarantinedBanner = "native-shell-sync-quarantined-banner"
    /// Check-ins another user kept on this device (sign-out keeping pending), waiting for them.
    public static let pendingOtherUsersBanner = "native-shell-pending-other-users-banner"
    /// The sign-in error line.
    public static let signInError = "native-shell-signin-error"
    /// Seed 003's passwordless sign-in: "Sign in with a code by e-mail", and "a code is on its way".
    public static let signInEmailCode = "native-shell-signin-email-code"
    public static let signInNotice = "native-shell-signin-notice"
    /// "Sign in with single sign-on": the organisation's identity provider, in the system browser.
    public static let signInSingleSignOn = "native-shell-signin-sso"
}
