import OutpostShell

/// The walk-in module's stable test identifiers (seed 000's Walk-Ins tab).
extension UIIdentifier {
    /// The tab, visible when an access type of the event admits walk-ins.
    public static let tabWalkIn = "native-shell-tab-walkin"
    public static let walkInForm = "walkin-form"
    public static let walkInName = "walkin-name-input"
    public static let walkInEmail = "walkin-email-input"
    /// One access type staff may choose, with the places left on this device.
    public static let walkInAccessType = "walkin-access-type"
    public static let walkInPayment = "walkin-payment"
    public static let walkInSubmit = "walkin-submit"
    public static let walkInCancel = "walkin-cancel"
    /// Why the walk-in was not added (no places left, no name), in one sentence.
    public static let walkInError = "walkin-error"
    /// The green card after a walk-in was added and checked in.
    public static let walkInAddedCard = "walkin-added-card"
    public static let walkInSummary = "walkin-summary"
    public static let walkInShiftCount = "walkin-shift-count"
    public static let walkInShiftTotal = "walkin-shift-total"
}
