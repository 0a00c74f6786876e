/// The store could not be opened or upgraded: nothing was deleted, and nothing else is shown.
struct StorageErrorScreen: ScreenModel {
    var reason: String

    var identifier: String { UIIdentifier.storageMigrationError }

    func elements() -> [UIElement] {
        [
            UIElement(
                UIIdentifier.storageMigrationError,
                "This device's saved data could not be upgraded. Nothing was deleted. Contact support.",
                ["contact": "support", "reason": reason])
        ]
    }
}
