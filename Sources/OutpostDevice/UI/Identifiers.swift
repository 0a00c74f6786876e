/// Every stable test identifier of the UI tree, defined once. The seeds' "Stable test
/// attributes" tables (000 native shell, 001 check-in, 002 kiosk) name most of them; the few
/// the engine adds are marked. A SwiftUI view sets `.accessibilityIdentifier` from these.
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
    public static let tabCheckIn = "native-shell-tab-checkin"
    public static let tabWalkIn = "native-shell-tab-walkin"
    public static let tabPrint = "native-shell-tab-print"
    public static let tabEFx = "native-shell-tab-efx"
    public static let offlineBanner = "native-shell-offline-banner"
    public static let pendingSyncBanner = "native-shell-pending-sync-banner"
    public static let cameraPermissionPrompt = "native-shell-camera-permission-prompt"
    public static let signOut = "native-shell-signout"
    public static let signOutPendingWarning = "native-shell-signout-pending-warning"
    /// One line on the sign-out warning per thing that waits on the user (an unresolved conflict).
    public static let signOutUnsent = "native-shell-signout-unsent"
    public static let appUpdateBanner = "native-shell-app-update-banner"
    public static let storageMigrationError = "native-shell-storage-migration-error"
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

    // Seed 001: check-in.
    public static let cameraViewfinder = "checkin-camera-viewfinder"
    public static let manualEntryToggle = "checkin-manual-entry-toggle"
    public static let manualEntryInput = "checkin-manual-entry-input"
    public static let confirmationScreen = "checkin-confirmation-screen"
    public static let confirmButton = "checkin-confirm-button"
    public static let cancelButton = "checkin-cancel-button"
    public static let alreadyCheckedIn = "checkin-already-checked-in"
    public static let crossEventBanner = "checkin-cross-event-banner"
    public static let tamperedBanner = "checkin-tampered-banner"
    public static let forceUpgradeScreen = "checkin-force-upgrade-screen"
    public static let syncingIndicator = "checkin-syncing-indicator"
    /// A confirm that could not be written to the device's store (nothing was queued).
    public static let saveErrorBanner = "checkin-save-error-banner"

    // Seed 002: kiosk mode.
    public static let kioskSetupPasscodeInput = "kiosk-setup-passcode-input"
    public static let kioskSetupOrientationLock = "kiosk-setup-orientation-lock"
    public static let kioskEnterCTA = "kiosk-enter-cta"
    public static let kioskWelcomeScreen = "kiosk-welcome-screen"
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
    /// The settings deep link on the camera prompt.
    public static let cameraSettingsLink = "native-shell-camera-permission-settings"
    /// The sign-out choices on the pending warning.
    public static let signOutWait = "native-shell-signout-wait"
    public static let signOutDiscard = "native-shell-signout-discard"
    public static let signOutKeep = "native-shell-signout-keep"
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
    /// Outbox entries set aside because they cannot be read (damaged on disk); kept, counted.
    public static let syncQuarantinedBanner = "native-shell-sync-quarantined-banner"
    /// Check-ins another user kept on this device (sign-out keeping pending), waiting for them.
    public static let pendingOtherUsersBanner = "native-shell-pending-other-users-banner"
    /// The sign-in error line.
    public static let signInError = "native-shell-signin-error"
    /// Seed 003's passwordless sign-in: "Sign in with a code by e-mail", and "a code is on its way".
    public static let signInEmailCode = "native-shell-signin-email-code"
    public static let signInNotice = "native-shell-signin-notice"
    /// The roster list in the event shell (offline readable).
    public static let rosterList = "native-shell-roster-list"

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

    // Seed 003: time tracking. `tab-status` is the seed's; the rest follow its style.
    public static let tabStatus = "tab-status"
    public static let tabTrackLocations = "tab-locations"
    public static let tabTrackHistory = "tab-history"
    public static let trackStatusScreen = "track-status-screen"
    /// One work location on the status screen: `locationId`, `state` (none, active,
    /// pending_exit), `elapsedMinutes` and `clockIn` while clocked in.
    public static let trackLocationCard = "track-location-card"
    public static let trackClockIn = "track-clock-in"
    public static let trackClockOut = "track-clock-out"
    /// An exit waiting for confirmation (the 5-minute hysteresis).
    public static let trackPendingExit = "track-pending-exit"
    public static let trackNotice = "track-notice"
    /// Shown on every tracking screen while the demo month is shown (``SandboxOwner``).
    public static let trackDemoBanner = "track-demo-banner"
    /// The location permission keeps automatic tracking from working (`permission`); the seed's
    /// dismissable banner, back after a week.
    public static let trackPermissionWarning = "track-permission-warning"
    public static let trackError = "track-error"
    public static let trackProfile = "track-geofence-profile"
    public static let trackLocationsScreen = "track-locations-screen"
    public static let trackLocationRow = "track-location-row"
    /// Add a location (`enabled` false at the 20-location limit).
    public static let trackLocationAdd = "track-location-add"
    public static let trackHistoryScreen = "track-history-screen"
    public static let trackHistoryTotal = "track-history-total"
    /// One day of the history: `date`, `minutes`, `status` (unconfirmed, queued, submitted,
    /// refused, retry: refused for a reason a new submission could mend).
    public static let trackHistoryDay = "track-history-day"
    /// The seed's review-mode hint, while a day waits to be submitted.
    public static let trackReviewHint = "track-review-hint"
    /// "Submit" for a day that is over and not confirmed (`date`).
    public static let trackDaySubmit = "track-day-submit"
    /// The server's words on a day it refused (`date`).
    public static let trackDayAnswer = "track-day-answer"

    // Seed 003's calendar (week view). The seed names `calendar-prev` and `tab-status`; the
    // others follow them.
    public static let tabCalendar = "tab-calendar"
    public static let calendarWeekScreen = "calendar-week-screen"
    public static let calendarPrev = "calendar-prev"
    public static let calendarNext = "calendar-next"
    public static let calendarTitle = "calendar-title"
    /// The GPS visibility toggle (`on`): tracked time shown on the calendar.
    public static let calendarGPSToggle = "calendar-gps-toggle"
    /// One day: `date`, `trackedMinutes`, `plannedMinutes`, `status` (confirmed; unconfirmed: a
    /// past day with activity; planned: today or later with activity; empty), `overtimeMinutes`
    /// on confirmed days, `today`.
    public static let calendarDay = "calendar-day"
    /// A shift on a day: `shiftId`, `color`, `startMinute`, `durationMinutes`, `orphaned`.
    public static let calendarShift = "calendar-shift"
    /// An absence on a day: `absenceId`, `kind`, `fullDay`.
    public static let calendarAbsence = "calendar-absence"
    /// The tracked time of a day (shown while the GPS toggle is on).
    public static let calendarTracked = "calendar-tracked"
    /// A shift template to place from (`templateId`, `color`, `breakMinutes`).
    public static let calendarTemplate = "calendar-template"
    public static let calendarMonthScreen = "calendar-month-screen"
    /// One of the month's 42 cells: `date`, `inMonth`, `status`, `tracked`, `shifts` (colours),
    /// `absences`, `overtimeMinutes` on confirmed days, `today`.
    public static let calendarMonthCell = "calendar-month-cell"
    /// The month's footer: tracked, planned, overtime, vacation and sick days, the nudge.
    public static let calendarMonthSummary = "calendar-month-summary"
    /// The 14-day overview on the status screen: `axisHours` (12, 16 or 24), `toConfirm`.
    public static let dashboard = "status-dashboard"
    /// One day of it: `date`, `weekday`, `plannedMinutes`, `trackedMinutes`, `faded`
    /// (unconfirmed), `beforeAccount` ("—"), `absences`, `today`.
    public static let dashboardDay = "status-dashboard-day"
    /// "X to confirm" (`count`; today excluded).
    public static let dashboardNudge = "status-dashboard-to-confirm"
    public static let dashboardNextShift = "status-next-shift"
    /// An absence template (`templateId`, `kind`).
    public static let calendarAbsenceTemplate = "calendar-absence-template"
    /// One session: `state`, `method`, `short` (under five minutes: kept, flagged), `minutes`.
    public static let trackHistorySession = "track-history-session"

    // Seed 003's inline picker and its entry points: the seed counts 28 test identifiers and
    // names none of them; these are ours, in its words (``pickerIdentifiers`` lists them).
    /// The floating button (week only, hidden while the picker is open) and its menu.
    public static let calendarFAB = "calendar-fab"
    public static let calendarFABShifts = "calendar-fab-shifts"
    public static let calendarFABAbsences = "calendar-fab-absences"
    public static let calendarFABLogHours = "calendar-fab-log-hours"
    /// The picker (`mode`: direct or arming, `tab`, `targetDate`).
    public static let inlinePicker = "inline-picker"
    public static let inlinePickerClose = "inline-picker-close"
    public static let inlinePickerTabShifts = "inline-picker-tab-shifts"
    public static let inlinePickerTabAbsences = "inline-picker-tab-absences"
    public static let inlinePickerTabGPS = "inline-picker-tab-gps"
    /// The day it places on (direct placement).
    public static let inlinePickerTargetDate = "inline-picker-target-date"
    /// A shift template's row (`templateId`, `color`), its pencil (left) and its selector (right).
    public static let inlinePickerShiftRow = "inline-picker-shift-row"
    public static let inlinePickerShiftEdit = "inline-picker-shift-edit"
    public static let inlinePickerShiftSelect = "inline-picker-shift-select"
    public static let inlinePickerShiftAdd = "inline-picker-shift-add"
    public static let inlinePickerAbsenceRow = "inline-picker-absence-row"
    public static let inlinePickerAbsenceEdit = "inline-picker-absence-edit"
    public static let inlinePickerAbsenceSelect = "inline-picker-absence-select"
    public static let inlinePickerAbsenceAdd = "inline-picker-absence-add"
    /// The inline edit form of a template and its fields (each with its `value`).
    public static let inlinePickerEditForm = "inline-picker-edit-form"
    public static let inlinePickerEditName = "inline-picker-edit-name"
    public static let inlinePickerEditStart = "inline-picker-edit-start"
    public static let inlinePickerEditDuration = "inline-picker-edit-duration"
    public static let inlinePickerEditBreak = "inline-picker-edit-break"
    public static let inlinePickerEditColor = "inline-picker-edit-color"
    public static let inlinePickerEditSave = "inline-picker-edit-save"
    /// The GPS tab: log tracked hours by hand.
    public static let inlinePickerLogHours = "inline-picker-gps-log-hours"
    /// The armed template's banner (a fixed slot) and its cancel.
    public static let calendarArmedBanner = "calendar-armed-banner"
    public static let calendarArmedCancel = "calendar-armed-cancel"
    /// The day the picker was opened for, ringed (`date`).
    public static let calendarFocusDay = "calendar-focus-day"

    /// The seed's 28 picker identifiers.
    public static let pickerIdentifiers = [
        calendarFAB, calendarFABShifts, calendarFABAbsences, calendarFABLogHours, inlinePicker, inlinePickerClose,
        inlinePickerTabShifts, inlinePickerTabAbsences, inlinePickerTabGPS, inlinePickerTargetDate,
        inlinePickerShiftRow, inlinePickerShiftEdit, inlinePickerShiftSelect, inlinePickerShiftAdd,
        inlinePickerAbsenceRow, inlinePickerAbsenceEdit, inlinePickerAbsenceSelect, inlinePickerAbsenceAdd,
        inlinePickerEditForm, inlinePickerEditName, inlinePickerEditStart, inlinePickerEditDuration,
        inlinePickerEditBreak, inlinePickerEditColor, inlinePickerEditSave, inlinePickerLogHours,
        calendarArmedBanner, calendarArmedCancel,
    ]

    /// The manual session form the GPS tab opens (`date`; seed 003's ManualSessionForm).
    public static let trackManualForm = "track-manual-form"

    /// Before the first Submit (seed 003's first-time tooltip): what submitting means (`date`),
    /// and the two ways out.
    public static let trackSubmitExplanation = "track-submit-explanation"
    public static let trackSubmitExplanationContinue = "track-submit-explanation-continue"
    public static let trackSubmitExplanationCancel = "track-submit-explanation-cancel"
}
