/// Sign-out with entries not yet synced: wait (the default), discard, or keep them for the
/// same user's next sign-in.
package struct SignOutWarningScreen: ScreenModel {
    package var pending: Int
    /// What waits, in the words of the module that made it ("activity", "day", "check-in").
    package var noun = ShellStatus.Noun.entries
    /// What waits on the user rather than the network (an unresolved conflict), each named.
    package var unsent: [String] = []
    package var message: String?

    package var identifier: String { UIIdentifier.signOutPendingWarning }

    package func elements() -> [UIElement] {
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
