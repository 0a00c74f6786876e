import OutpostDevice
import Testing

@testable import OutpostTerminal

@Suite("Tree renderer")
struct TreeRendererTests {
    @Test("a status line, wrapped text within the width, banners boxed")
    func render() {
        let tree = UITree(
            screen: UIIdentifier.eventShell,
            elements: [
                UIElement(UIIdentifier.eventShell, "Winter Gala"),
                UIElement(UIIdentifier.offlineBanner, "Offline — 3 pending sync", ["pending": "3"]),
                UIElement(
                    UIIdentifier.manualEntryInput,
                    "Type a name, e-mail or code; suggestions appear as you type them here"),
            ],
            online: false, pending: 3, user: "alex@acme.test", event: "e")
        let lines = TreeRenderer(width: 30).render(tree)
        #expect(lines[0] == "offline · pending 3 · alex@ac…")
        #expect(lines.allSatisfy { $0.count <= 30 })
        #expect(lines.contains("│ Offline — 3 pending sync   │"))
        #expect(lines.contains { $0.hasPrefix("┌") } && lines.contains { $0.hasPrefix("└") })
        #expect(lines.last == "them here")
    }

    @Test("words longer than the width are cut, not lost")
    func longWords() {
        #expect(
            TreeRenderer.wrap(String(repeating: "A", count: 45), 20) == [
                String(repeating: "A", count: 20), String(repeating: "A", count: 20), "AAAAA",
            ])
    }
}
