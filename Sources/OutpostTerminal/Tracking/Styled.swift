/// A line of terminal text in runs of one style each, so its width on screen is known before
/// the escape sequences go in (``width`` counts characters; every symbol the calendar draws is
/// one column wide).
struct Styled {
    var runs: [(text: String, style: String)] = []

    init() {}

    init(_ text: String, _ style: String = "") {
        runs = [(text, style)]
    }

    var width: Int { runs.reduce(0) { $0 + $1.text.count } }
    var plain: String { runs.map(\.text).joined() }

    mutating func append(_ text: String, _ style: String = "") {
        runs.append((text, style))
    }

    static func + (lhs: Styled, rhs: Styled) -> Styled {
        var joined = lhs
        joined.runs += rhs.runs
        return joined
    }

    /// Cut to `width` columns (the last one an ellipsis when something was cut), then padded
    /// with spaces to exactly `width`.
    func fitted(_ width: Int) -> Styled {
        let cut = self.width > width
        var room = cut ? max(0, width - 1) : width
        var result = Styled()
        for run in runs where room > 0 {
            let text = String(run.text.prefix(room))
            result.append(text, run.style)
            room -= text.count
        }
        if cut {
            if width > 0 { result.append("…") }
        } else if room > 0 {
            result.append(String(repeating: " ", count: room))
        }
        return result
    }

    /// Fitted to `width - 1` columns and a blank: a cell that never runs into the next.
    func spaced(_ width: Int) -> Styled {
        fitted(max(0, width - 1)) + Styled(" ")
    }

    /// The line with its escape sequences: each styled run closed by a reset.
    var rendered: String {
        runs.map { $0.style.isEmpty || $0.text.isEmpty ? $0.text : $0.style + $0.text + TrackView.reset }.joined()
    }
}
