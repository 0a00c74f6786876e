import Foundation
import Hummingbird

extension Request {
    /// The query parameter `name` as a browser's GET form sends it
    /// (`application/x-www-form-urlencoded`): `+` is a space and `%2B` a plus. Hummingbird's
    /// `queryParameters` decodes only the `%` escapes, so a searched full name `Guest+007+xxx`
    /// stayed one word with plus signs. Nil when absent; the first one wins.
    func formQuery(_ name: String) -> String? {
        guard let raw = uri.query else { return nil }
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard Self.formDecoded(parts[0]) == name else { continue }
            return parts.count > 1 ? Self.formDecoded(parts[1]) : ""
        }
        return nil
    }

    static func formDecoded(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
