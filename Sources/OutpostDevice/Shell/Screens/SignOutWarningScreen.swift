/// Sign-out with entries not yet synced: wait (the default), discard, or keep them for the
/// same user's next sign-in.
struct SignOutWarningScreen: ScreenModel {
    var pending: Int
    var message: String?

    var identifier: String { UIIdentifier.signOutPendingWarning }

    func elements() -> [UIElement] {
        [
            UIElement(
                UIIdentifier.signOutPendingWarning,
                "\(pending) check-in\(pending == 1 ? " hasn't" : "s haven't") synced. Sign out anyway?"
                    + (message.map { " " + $0 } ?? ""),
                ["pending": String(pending)]),
            UIElement(UIIdentifier.signOutWait, "Wait for sync", ["default": "true"]),
            UIElement(UIIdentifier.signOutDiscard, "Sign out and discard"),
            UIElement(UIIdentifier.signOutKeep, "Sign out keeping pending (sync on next sign-in)"),
        ]
    }
}
