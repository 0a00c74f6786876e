import Foundation
import OutpostDevice

/// Renders a UI tree as plain text lines for a terminal of a given width: a status line, then
/// one line per element (its text, wrapped; banners boxed). The station and kiosk loops build
/// on this; it has no terminal I/O of its own.
public struct TreeRenderer: Sendable {
    public var width: Int

    public init(width: Int = 80) { self.width = max(20, width) }

    public func render(_ tree: UITree) -> [String] {
        var lines: [String] = []
        let status = [tree.online ? "online" : "offline", "pending \(tree.pending)", tree.user ?? "signed out"]
            .joined(separator: " · ")
        lines.append(Self.fit(status, width))
        lines.append(String(repeating: "─", count: width))
        for element in tree.elements where !element.text.isEmpty {
            let boxed = element.id.hasSuffix("-banner")
            let inner = boxed ? width - 4 : width
            let wrapped = Self.wrap(element.text, inner)
            if boxed {
                lines.append("┌" + String(repeating: "─", count: width - 2) + "┐")
                lines += wrapped.map { "│ " + $0.padding(toLength: inner, withPad: " ", startingAt: 0) + " │" }
                lines.append("└" + String(repeating: "─", count: width - 2) + "┘")
            } else {
                lines += wrapped
            }
        }
        return lines
    }

    /// Greedy word wrap; words longer than the width are cut.
    static func wrap(_ text: String, _ width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                var word = Substring(word)
                while word.count > width {
                    if !line.isEmpty { lines.append(line); line = "" }
                    lines.append(String(word.prefix(width)))
                    word = word.dropFirst(width)
                }
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }

    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }
}
