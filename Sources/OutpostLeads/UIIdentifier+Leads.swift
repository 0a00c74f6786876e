import OutpostShell

/// This module's stable test identifiers: an exhibitor's lead station (EFx lead retrieval).
extension UIIdentifier {
    // Engine additions (not in the seeds' tables).
    public static let leadsScreen = "efx-leads"
    /// A booth the exhibitor is on (the one chosen is marked).
    public static let leadsBooth = "efx-leads-booth"
    /// The last scan's answer.
    public static let leadsResult = "efx-leads-result"
    /// A lead: the attendee (their name while shared), rating, notes, whether it waits to sync.
    public static let leadsRow = "efx-leads-row"
    /// A lead two devices edited at once: keep yours or theirs.
    public static let leadsConflict = "efx-leads-conflict"
}
