import Foundation
import OutpostProtocol

/// A badge on its label: a band in the access type's colour with its name, the guest's name as
/// large as the label's width allows, the second line, and the ticket's QR code (vector modules:
/// it scans at any label size). Landscape labels put the QR on the right, portrait ones under
/// the words. Pure: cairo draws the page (``CairoCanvas``).
public enum BadgeSheet {
    static let ink = ReportColor(0x111827)
    static let muted = ReportColor(0x4B5563)
    static let white = ReportColor(0xFFFFFF)

    /// DejaVu Sans Bold's mean advance, in ems, over names (measured on the names the lab makes):
    /// a name's size is chosen so it fits the width without measuring at draw time.
    static let boldAdvance = 0.64
    static let regularAdvance = 0.56

    public static func page(_ badge: BadgeContent) -> ReportPage {
        let width = badge.layout.label.width
        let height = badge.layout.label.height
        let margin = (min(width, height) * 0.06).rounded()
        var shapes: [ReportShape] = [
            .rect(ReportRect(x: 0, y: 0, width: width, height: height), fill: white, stroke: nil, name: "label")
        ]
        var top = margin
        if badge.layout.band {
            let band = (height * 0.15).rounded()
            shapes.append(
                .rect(
                    ReportRect(x: 0, y: 0, width: width, height: band), fill: ReportColor(badge.colour), stroke: nil,
                    name: "band"))
            let size = min(band * 0.5, fitting(badge.accessType, width - 2 * margin, regularAdvance))
            shapes.append(
                .text(
                    badge.accessType, x: width / 2, y: band * 0.5 + size * 0.36, size: size, colour: white, bold: true,
                    align: .center))
            top = band + margin
        }
        let code = badge.ticket.flatMap(QRCode.init(text:))
        let landscape = width > height
        var qrSide = 0.0
        if code != nil {
            qrSide = landscape ? min(height - top - margin, width * 0.38) : min(width - 2 * margin, height * 0.42)
        }
        let textWidth = landscape && code != nil ? width - 3 * margin - qrSide : width - 2 * margin
        var nameSize = min(height * 0.16, fitting(badge.name, textWidth, boldAdvance))
        let name = nameSize < 16 ? split(badge.name) : [badge.name]
        if name.count > 1 {
            nameSize = min(height * 0.12, fitting(name.max { $0.count < $1.count }!, textWidth, boldAdvance))
        }
        var baseline = top + nameSize
        for line in name {
            shapes.append(.text(line, x: margin, y: baseline, size: nameSize, colour: ink, bold: true, align: .left))
            baseline += nameSize * 1.15
        }
        if !badge.secondLine.isEmpty {
            let size = min(nameSize * 0.55, fitting(badge.secondLine, textWidth, regularAdvance))
            baseline += size * 0.4
            shapes.append(
                .text(badge.secondLine, x: margin, y: baseline, size: size, colour: muted, bold: false, align: .left))
        }
        if let code {
            let left = landscape ? width - margin - qrSide : (width - qrSide) / 2
            let y = height - margin - qrSide
            shapes += code.shapes(in: ReportRect(x: left, y: y, width: qrSide, height: qrSide), ink: ink)
        }
        return ReportPage(width: width, height: height, shapes: shapes)
    }

    /// The largest size (at most 40 pt) at which `text` fits `width`, estimated by advance.
    static func fitting(_ text: String, _ width: Double, _ advance: Double) -> Double {
        max(6, min(40, width / (advance * Double(max(text.count, 1)))))
    }

    /// A long name on two lines, at the space nearest its middle (one line without a space).
    static func split(_ name: String) -> [String] {
        guard
            let space = name.indices.filter({ name[$0] == " " }).min(by: {
                abs(name.distance(from: name.startIndex, to: $0) - name.count / 2)
                    < abs(name.distance(from: name.startIndex, to: $1) - name.count / 2)
            })
        else { return [name] }
        return [String(name[..<space]), String(name[name.index(after: space)...])]
    }
}

extension QRCode {
    /// The symbol's dark modules as squares in `rect` (white behind, the quiet zone inside it):
    /// vector modules, so it scans at any print size.
    public func shapes(in rect: ReportRect, ink: ReportColor) -> [ReportShape] {
        let module = rect.width / Double(size + 2 * Self.quietZone)
        var shapes: [ReportShape] = [.rect(rect, fill: ReportColor(0xFFFFFF), stroke: nil, name: "qr")]
        for y in 0..<size {
            for x in 0..<size where isDark(x, y) {
                shapes.append(
                    .rect(
                        ReportRect(
                            x: rect.x + Double(x + Self.quietZone) * module,
                            y: rect.y + Double(y + Self.quietZone) * module, width: module + 0.05,
                            height: module + 0.05), fill: ink, stroke: nil, name: nil))
            }
        }
        return shapes
    }
}
