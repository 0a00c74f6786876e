import OutpostShell

/// This module's stable test identifiers: Seed 003 (time tracking, its calendar and its picker).
extension UIIdentifier {
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
