/// What a drawn page is made of, in points from the top left (1/72 inch): a pure layout (the
/// month report, the ticket sheet) says what to draw, ``CairoCanvas`` draws it on a PNG, PDF or
/// SVG surface.
public struct ReportColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double

    /// `0xRRGGBB`.
    public init(_ hex: UInt32) {
        red = Double((hex >> 16) & 0xFF) / 255
        green = Double((hex >> 8) & 0xFF) / 255
        blue = Double(hex & 0xFF) / 255
    }

    /// The colour as 8-bit channels, as a decoded PNG holds it.
    public var bytes: (red: UInt8, green: UInt8, blue: UInt8) {
        (UInt8((red * 255).rounded()), UInt8((green * 255).rounded()), UInt8((blue * 255).rounded()))
    }
}

public struct ReportRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
}

public enum ReportShape: Sendable, Hashable {
    public enum Align: Sendable, Hashable {
        case left, center, right
    }

    /// A rectangle, filled and/or outlined; `name` lets a test find it (`bar-tracked-2026-11-03`).
    case rect(ReportRect, fill: ReportColor?, stroke: ReportColor?, name: String?)
    case circle(x: Double, y: Double, radius: Double, fill: ReportColor)
    case line(x1: Double, y1: Double, x2: Double, y2: Double, colour: ReportColor, width: Double)
    /// Text on its baseline at `x` (its left edge, centre or right edge by `align`).
    case text(String, x: Double, y: Double, size: Double, colour: ReportColor, bold: Bool, align: Align)

    /// The named rectangle's bounds.
    public func rect(named wanted: String) -> ReportRect? {
        if case .rect(let rect, _, _, let name) = self, name == wanted { return rect }
        return nil
    }
}

/// A page: its size in points and its shapes, in drawing order.
public struct ReportPage: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var shapes: [ReportShape]

    public init(width: Double, height: Double, shapes: [ReportShape]) {
        self.width = width
        self.height = height
        self.shapes = shapes
    }

    public func rect(named name: String) -> ReportRect? {
        shapes.lazy.compactMap { $0.rect(named: name) }.first
    }

    public func fill(named wanted: String) -> ReportColor? {
        for case .rect(_, let fill, _, let name) in shapes where name == wanted { return fill }
        return nil
    }

    /// Every text on the page, in order.
    public var texts: [String] {
        shapes.compactMap { shape in
            if case .text(let text, _, _, _, _, _, _) = shape { return text }
            return nil
        }
    }
}
