/// The store could not be opened or upgraded: nothing was deleted, and nothing else is shown.
package struct StorageErrorScreen: ScreenModel {
    package var reason: String

    package var identifier: String { UIIdentifier.storageMigrationError }

    package func elements() -> [UIElement] {
        [
            UIElement(
                UIIdentifier.storageMigrationError,
                "This device's saved data could not be upgraded. Nothing was deleted. Contact support.",
                ["contact": "support", "reason": reason])
        ]
    }
}
