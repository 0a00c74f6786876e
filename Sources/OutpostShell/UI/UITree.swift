/// One element of a screen: a stable identifier, its text and attributes.
public struct UIElement: Codable, Sendable, Hashable {
    public var id: String
    public var text: String
    public var attributes: [String: String]

    public init(_ id: String, _ text: String = "", _ attributes: [String: String] = [:]) {
        self.id = id
        self.text = text
        self.attributes = attributes
    }
}

/// What the user sees, as data: what front-ends render and tests assert on.
///
/// The JSON shape is DEVICE.md's: `screen`, `visible` (every identifier now visible, sorted),
/// `elements`, `online`, `pending`, `user`, `event`, `refusal`.
public struct UITree: Codable, Sendable, Hashable {
    public var screen: String
    public var visible: [String]
    public var elements: [UIElement]
    public var online: Bool
    public var pending: Int
    public var user: String?
    public var event: String?
    /// Why the action just asked for was refused, in one sentence (nil when it was not): the
    /// headless CLI prints the tree and then exits with status 3.
    public var refusal: String?

    public init(screen: String, elements: [UIElement], online: Bool, pending: Int, user: String?, event: String?) {
        self.screen = screen
        self.elements = elements
        self.visible = Array(Set(elements.map(\.id))).sorted()
        self.online = online
        self.pending = pending
        self.user = user
        self.event = event
    }

    private enum CodingKeys: String, CodingKey { case screen, visible, elements, online, pending, user, event, refusal }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(screen, forKey: .screen)
        try container.encode(visible, forKey: .visible)
        try container.encode(elements, forKey: .elements)
        try container.encode(online, forKey: .online)
        try container.encode(pending, forKey: .pending)
        try container.encode(user, forKey: .user)
        try container.encode(event, forKey: .event)
        try container.encode(refusal, forKey: .refusal)
    }

    public func contains(_ id: String) -> Bool { visible.contains(id) }

    public func elements(_ id: String) -> [UIElement] { elements.filter { $0.id == id } }

    public func element(_ id: String) -> UIElement? { elements.first { $0.id == id } }
}
