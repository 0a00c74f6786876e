import OutpostShell

/// The notes module's stable test identifiers (seed 000's Notes tab).
extension UIIdentifier {
    public static let tabNotes = "native-shell-tab-notes"
    public static let notesScreen = "notes-screen"
    /// One note's current version: on whom, what, by whom, when.
    public static let notesEntry = "notes-entry"
    /// A note edited on two devices apart: both versions are shown.
    public static let notesConflict = "notes-conflict"
    public static let notesEmpty = "notes-empty"
    public static let notesInput = "notes-input"
    public static let notesSave = "notes-save"
    public static let notesError = "notes-error"
}
