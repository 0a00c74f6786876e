import Foundation
import OutpostDevice
import OutpostProtocol
import Testing

@Suite("UI tree")
struct UITreeTests {
    @Test("JSON has DEVICE.md's shape: sorted unique visible identifiers, explicit nulls")
    func shape() throws {
        let tree = UITree(
            screen: UIIdentifier.signIn,
            elements: [
                UIElement(UIIdentifier.signInSubmit, "Sign in"), UIElement(UIIdentifier.signIn, "Outpost"),
                UIElement(UIIdentifier.signInEmail), UIElement(UIIdentifier.signInSubmit, "again"),
            ],
            online: true, pending: 0, user: nil, event: nil)
        #expect(tree.visible == [UIIdentifier.signIn, UIIdentifier.signInEmail, UIIdentifier.signInSubmit])
        let json = String(decoding: try OutpostJSON.encode(tree), as: UTF8.self)
        #expect(json.contains(#""user":null"#) && json.contains(#""event":null"#) && json.contains(#""refusal":null"#))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(
            Set(object?.keys.map { $0 } ?? []) == [
                "screen", "visible", "elements", "online", "pending", "user", "event", "refusal",
            ])
    }
}
