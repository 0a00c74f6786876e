/// Sign-out with entries not yet synced: wait (the default), discard, or keep them for the
/// same user's next sign-in.
struct SignOutWarningScreen: ScreenModel {
    var pending: Int
    /// What waits, in the words of the module that made it ("activity", "day", "check-in").
    var noun = ShellStatus.Noun(one: "check-in", many: "check-ins")
    /// What waits on the user rather than the network (an unresolved conflict), each named.
    var unsent: [String] = []
    var message: String?

    var identifier: String { UIIdentifier.signOutPendingWarning }

    func elements() -> [UIElement] {
        [
            UIElement(
                UIIdentifier.signOutPendingWarning,
                "\(pending) \(noun.for(pending)) \(pending == 1 ? "hasn't" : "haven't") synced. Sign out anyway?"
                    + (message.map { " " + $0 } ?? ""),
                ["pending": String(pending)])
        ]
            + unsent.map { UIElement(UIIdentifier.signOutUnsent, $0) }
            + [
                UIElement(UIIdentifier.signOutWait, "Wait for sync", ["default": "true"]),
                UIElement(UIIdentifier.signOutDiscard, "Sign out and discard"),
                UIElement(UIIdentifier.signOutKeep, "Sign out keeping pending (sync on next sign-in)"),
            ]
    }
}
