/// A typed part of what the app shows, built from state by the shell or a module: front-ends
/// (the terminals, the report, SwiftUI views) read its typed values; its `elements()` are the
/// projection that tests and `--json` read. A front-end never parses an element's text.
package protocol ScreenPart {
    /// Its elements, a pure function of the part's values.
    func elements() -> [UIElement]
    /// The typed parts it is made of, itself first (the event shell: each module's tab).
    var parts: [any ScreenPart] { get }
}

extension ScreenPart {
    package var parts: [any ScreenPart] { [self] }
}

/// A whole screen: a part with the identifier the tree names it by.
package protocol ScreenModel: ScreenPart {
    /// The screen's identifier (UITree.screen).
    var identifier: String { get }
}

/// What the app shows now: the tree (the projection tests and `--json` read) and the typed
/// models it was projected from, which front-ends read.
public struct ShownScreen {
    public let tree: UITree
    let parts: [any ScreenPart]

    package init(tree: UITree, parts: [any ScreenPart]) {
        self.tree = tree
        self.parts = parts
    }

    /// The screen model `screen` inside `frame`, as the app would show it.
    package init(_ screen: some ScreenModel, in frame: ShellFrame) {
        self.init(tree: frame.tree(screen), parts: screen.parts)
    }

    /// The shown part of type `P` (the month's cells, the check-in tab's suggestions), if any.
    package func part<P: ScreenPart>(_ type: P.Type) -> P? {
        parts.lazy.compactMap { $0 as? P }.first
    }
}

/// A module's screen with what the module puts above it (the demo month's banner): the
/// screen's identifier and parts are the inner screen's.
package struct BannerScreen: ScreenModel {
    package var banners: [UIElement]
    package var screen: any ScreenModel

    package init(banners: [UIElement], screen: any ScreenModel) {
        self.banners = banners
        self.screen = screen
    }

    package var identifier: String { screen.identifier }
    package func elements() -> [UIElement] { banners + screen.elements() }
    package var parts: [any ScreenPart] { [self] + screen.parts }
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

    package init(
        online: Bool, pending: Int, user: String? = nil, event: String? = nil, banners: [UIElement] = []
    ) {
        self.online = online
        self.pending = pending
        self.user = user
        self.event = event
        self.banners = banners
    }

    package func tree(_ screen: any ScreenModel) -> UITree {
        UITree(
            screen: screen.identifier, elements: banners + screen.elements(), online: online, pending: pending,
            user: user, event: event)
    }
}
