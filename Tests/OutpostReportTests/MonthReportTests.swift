import CCairo
import Foundation
import OutpostDevice
import OutpostDrawing
import OutpostProtocol
import Testing

@testable import OutpostReport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `outpost device track report`: seed-demo's November, as the device tests
/// commit its tree, drawn as a page with cairo, then read back as a user's viewer would.
@Suite("The month report")
struct MonthReportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../OutpostDeviceTests/Fixtures/calendar")

    /// The month as the device showed it: the committed tree and the typed model it projects.
    static var tree: ShownScreen {
        let tree = try! JSONDecoder().decode(
            UITree.self, from: Data(contentsOf: fixtures.appendingPathComponent("month-2026-11.json")))
        let month = try! OutpostJSON.decode(
            MonthScreen.self, from: Data(contentsOf: fixtures.appendingPathComponent("month-2026-11.model.json")))
        return ShownScreen(tree: tree, parts: month.parts)
    }

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("outpost-report-\(UUID().uuidString)-\(name)")
    }

    /// A PNG decoded by cairo (libpng underneath): its size and the colour at a pixel.
    struct DecodedPNG {
        let width: Int
        let height: Int
        let stride: Int
        let bytes: [UInt8]

        init(_ url: URL) throws {
            let surface = try #require(cairo_image_surface_create_from_png(url.path))
            defer { cairo_surface_destroy(surface) }
            try #require(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "not a PNG")
            cairo_surface_flush(surface)
            width = Int(cairo_image_surface_get_width(surface))
            height = Int(cairo_image_surface_get_height(surface))
            stride = Int(cairo_image_surface_get_stride(surface))
            let data = try #require(cairo_image_surface_get_data(surface))
            bytes = Array(UnsafeBufferPointer(start: data, count: stride * height))
        }

        /// The pixel at `x`, `y` (pixels) as red, green, blue (ARGB32 is B, G, R, A in memory
        /// on a little-endian machine; every pixel drawn here is opaque).
        func colour(_ x: Int, _ y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
            let offset = y * stride + x * 4
            return (bytes[offset + 2], bytes[offset + 1], bytes[offset])
        }

        func isColour(_ x: Double, _ y: Double, _ expected: ReportColor, scale: Double = 2) -> Bool {
            let pixel = colour(Int(x * scale), Int(y * scale))
            let wanted = expected.bytes
            return abs(Int(pixel.red) - Int(wanted.red)) <= 2 && abs(Int(pixel.green) - Int(wanted.green)) <= 2
                && abs(Int(pixel.blue) - Int(wanted.blue)) <= 2
        }
    }

    @Test(
        "report-month-png: the month as a 1684×1190 PNG; read back, the page is white, a confirmed day tinted, October's days grey, the 10th's bars planned green and tracked rose, the vacation blue"
    )
    func png() throws {
        let page = try MonthReport.page(Self.tree, worker: "maria@demo.outpost")
        let url = Self.temporary("month.png")
        defer { try? FileManager.default.removeItem(at: url) }
        try CairoCanvas.write(page, format: .png, to: url)
        let png = try DecodedPNG(url)
        #expect(png.width == 1684 && png.height == 1190)
        // seed-demo's month is the demo sandbox's: the page says so.
        #expect(
            page.shapes.contains {
                if case .text(let text, _, _, _, _, _, _) = $0 { text.hasPrefix("Demo month:") } else { false }
            })
        #expect(png.isColour(4, 4, MonthReport.white))
        let confirmed = try #require(page.rect(named: "cell-2026-11-10"))
        #expect(png.isColour(confirmed.x + 4, confirmed.y + confirmed.height - 4, MonthReport.confirmedTint))
        let open = try #require(page.rect(named: "cell-2026-11-24"))
        #expect(png.isColour(open.x + 4, open.y + open.height - 4, MonthReport.white), "a day to come, not tinted")
        let october = try #require(page.rect(named: "cell-2026-10-28"))
        #expect(png.isColour(october.midX, october.y + october.height - 4, MonthReport.outside))
        let planned = try #require(page.rect(named: "bar-planned-2026-11-10"))
        let tracked = try #require(page.rect(named: "bar-tracked-2026-11-10"))
        #expect(png.isColour(planned.midX, planned.midY, MonthReport.plannedColour))
        #expect(png.isColour(tracked.midX, tracked.midY, MonthReport.trackedColour))
        #expect(tracked.height > planned.height, "8 h 20 min tracked against 7 h 30 min planned")
        let vacation = try #require(page.rect(named: "absence-2026-11-20"))
        #expect(png.isColour(vacation.x + vacation.width - 4, vacation.midY, MonthReport.vacation))
        let sick = try #require(page.rect(named: "absence-2026-11-09"))
        #expect(png.isColour(sick.x + sick.width - 4, sick.midY, MonthReport.sick))
    }

    @Test(
        "report-month-layout: 42 cells, bars only where there are hours and as tall as their hours on the 12 h axis, the footer's totals, the worker; a tree that is not a month is refused"
    )
    func layout() throws {
        let page = try MonthReport.page(Self.tree, worker: "maria@demo.outpost")
        #expect(
            page.shapes.compactMap { shape -> String? in
                if case .rect(_, _, _, let name?) = shape, name.hasPrefix("cell-") { return name }
                return nil
            }.count == 42)
        #expect(page.texts.contains("November 2026") && page.texts.contains("maria@demo.outpost"))
        for total in [
            "Tracked 99 h 13 min", "Planned 141 h 44 min", "Overtime +7h 6m", "Vacation 3", "Sick 1 (9 confirmed)",
        ] {
            #expect(page.texts.contains(total), "\(total)")
        }
        let tracked = try #require(page.rect(named: "bar-tracked-2026-11-10"))
        #expect(abs(tracked.height - MonthReport.chartRect.height * 500 / 60 / 12) < 0.001, "500 minutes of 12 h")
        #expect(page.rect(named: "bar-tracked-2026-11-14") == nil, "nothing tracked on a free Saturday")
        #expect(page.rect(named: "bar-planned-2026-11-23") != nil, "a shift to come is planned")
        #expect(page.texts.contains("+0:50") && page.texts.contains("✓"), "overtime and ✓ on a confirmed day")
        #expect(page.texts.contains("?"), "a day to confirm")
        let weekTree = try JSONDecoder().decode(
            UITree.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("week-2026-11-09.json")))
        let week = try OutpostJSON.decode(
            WeekScreen.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("week-2026-11-09.model.json")))
        #expect(throws: MonthReport.ReportError.self) {
            try MonthReport.page(ShownScreen(tree: weekTree, parts: week.parts), worker: nil)
        }
    }

    @Test(
        "report-month-pdf-svg: the same page as a one-page A4 landscape PDF with its font embedded, and as SVG that parses as XML at 842×595 pt"
    )
    func vector() throws {
        let page = try MonthReport.page(Self.tree, worker: nil)
        let pdf = Self.temporary("month.pdf")
        let svg = Self.temporary("month.svg")
        defer {
            try? FileManager.default.removeItem(at: pdf)
            try? FileManager.default.removeItem(at: svg)
        }
        try CairoCanvas.write(page, format: .pdf, to: pdf)
        let bytes = String(decoding: try Data(contentsOf: pdf), as: UTF8.self)
        #expect(bytes.hasPrefix("%PDF-"))
        #expect(bytes.matches(of: /\/Type \/Page[^s]/).count == 1, "one page")
        #expect(bytes.contains("/MediaBox [ 0 0 842 595 ]"))
        #expect(bytes.contains("DejaVu"), "the font is embedded")
        try CairoCanvas.write(page, format: .svg, to: svg)
        final class Root: NSObject, XMLParserDelegate {
            var attributes: [String: String]?
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                if self.attributes == nil, name == "svg" { self.attributes = attributes }
            }
        }
        let parser = try #require(XMLParser(contentsOf: svg))
        let root = Root()
        parser.delegate = root
        #expect(parser.parse(), "the SVG is well-formed XML")
        #expect(root.attributes?["width"] == "842pt" && root.attributes?["height"] == "595pt")
    }

    @Test(
        "report-readme-image: the README's month report is this page as a PNG (OUTPOST_UPDATE_FIXTURES=1 draws it again)"
    )
    func readmeImage() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/hours-2026-11.png").standardizedFileURL
        let page = try MonthReport.page(Self.tree, worker: "maria@demo.outpost")
        if ProcessInfo.processInfo.environment["OUTPOST_UPDATE_FIXTURES"] == "1" {
            try CairoCanvas.write(page, format: .png, to: url)
        }
        let png = try DecodedPNG(url)
        #expect(png.width == 1684 && png.height == 1190)
        // seed-demo's month is the demo sandbox's: the page says so.
        #expect(
            page.shapes.contains {
                if case .text(let text, _, _, _, _, _, _) = $0 { text.hasPrefix("Demo month:") } else { false }
            })
        let tracked = try #require(page.rect(named: "bar-tracked-2026-11-10"))
        #expect(png.isColour(tracked.midX, tracked.midY, MonthReport.trackedColour))
        let readme = try String(
            contentsOf: url.deletingLastPathComponent().appendingPathComponent("../README.md"), encoding: .utf8)
        #expect(readme.contains("](docs/hours-2026-11.png)"), "the README shows it")
    }

    @Test("report-unwritable: a file that cannot be written is one clear sentence")
    func unwritable() throws {
        let page = try MonthReport.page(Self.tree, worker: nil)
        let url = URL(fileURLWithPath: "/nonexistent-outpost-dir/month.png")
        #expect(throws: CairoCanvas.Failure.self) { try CairoCanvas.write(page, format: .png, to: url) }
        do {
            try CairoCanvas.write(page, format: .pdf, to: url)
            Issue.record("a PDF in a missing folder was written")
        } catch let failure as CairoCanvas.Failure {
            #expect(failure.description.hasPrefix("Could not"))
        }
    }
}
