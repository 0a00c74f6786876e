/// A screen as data: built from state by the shell or a module, rendered by a pure `elements()`.
package protocol ScreenModel {
    /// The screen's identifier (UITree.screen).
    var identifier: String { get }
    /// Its elements, a pure function of the model's values.
    func elements() -> [UIElement]
}

/// What frames every screen of a signed-in device: connectivity, the pending count, the user and
/// the event. The tree is the frame around one screen model.
package struct ShellFrame: Sendable {
    package var online: Bool
    package var pending: Int
    package var user: String?
    package var event: String?
    /// Banners shown above the screen (status and sync problems).
    package var banners: [UIElement] = []

    package func tree(_ screen: some ScreenModel) -> UITree {
        UITree(
            screen: screen.identifier, elements: banners + screen.elements(), online: online, pending: pending,
            user: user, event: event)
    }
}
