import CCairo
import Foundation

/// Draws a ``ReportPage`` with cairo (Debian's libcairo2): a PNG at `scale` pixels per point,
/// or a PDF or SVG page in points. The words are set in DejaVu Sans.
public enum CairoCanvas {
    public enum Format: String, CaseIterable, Sendable {
        case png, pdf, svg
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `pages` to `url` as one PDF, a page each (each its own size).
    public static func writePDF(_ pages: [ReportPage], to url: URL) throws {
        guard let first = pages.first else { throw Failure(description: "A PDF needs at least one page.") }
        guard let surface = cairo_pdf_surface_create(url.path, first.width, first.height),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw Failure(description: "Could not make a PDF surface for \(url.path).") }
        defer { cairo_surface_destroy(surface) }
        guard let context = cairo_create(surface) else { throw Failure(description: "Could not draw.") }
        defer { cairo_destroy(context) }
        for page in pages {
            cairo_pdf_surface_set_size(surface, page.width, page.height)
            for shape in page.shapes { draw(shape, on: context) }
            cairo_show_page(context)
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Failure(
                description: "Could not write \(url.path): \(String(cString: cairo_status_to_string(status))).")
        }
    }

    /// `pages` as the bytes of one PDF (drawn into a temporary file, which is removed).
    public static func pdf(_ pages: [ReportPage]) throws -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: url) }
        try writePDF(pages, to: url)
        return try Data(contentsOf: url)
    }

    /// Writes `page` to `url` as `format`.
    public static func write(_ page: ReportPage, format: Format, to url: URL, scale: Double = 2) throws {
        let surface: OpaquePointer?
        switch format {
        case .png:
            surface = cairo_image_surface_create(
                CAIRO_FORMAT_ARGB32, Int32((page.width * scale).rounded()), Int32((page.height * scale).rounded()))
        case .pdf:
            surface = cairo_pdf_surface_create(url.path, page.width, page.height)
        case .svg:
            surface = cairo_svg_surface_create(url.path, page.width, page.height)
        }
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw Failure(description: "Could not make a \(format.rawValue) surface for \(url.path).")
        }
        defer { cairo_surface_destroy(surface) }
        guard let context = cairo_create(surface) else { throw Failure(description: "Could not draw.") }
        defer { cairo_destroy(context) }
        if format == .png { cairo_scale(context, scale, scale) }
        for shape in page.shapes { draw(shape, on: context) }
        cairo_show_page(context)
        if format == .png {
            let status = cairo_surface_write_to_png(surface, url.path)
            guard status == CAIRO_STATUS_SUCCESS else {
                throw Failure(
                    description: "Could not write \(url.path): \(String(cString: cairo_status_to_string(status))).")
            }
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Failure(
                description: "Could not write \(url.path): \(String(cString: cairo_status_to_string(status))).")
        }
    }

    static func draw(_ shape: ReportShape, on context: OpaquePointer) {
        switch shape {
        case .rect(let rect, let fill, let stroke, _):
            cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
            if let fill {
                set(fill, context)
                if stroke == nil { cairo_fill(context) } else { cairo_fill_preserve(context) }
            }
            if let stroke {
                set(stroke, context)
                cairo_set_line_width(context, 0.75)
                cairo_stroke(context)
            }
        case .circle(let x, let y, let radius, let fill):
            set(fill, context)
            cairo_new_sub_path(context)
            cairo_arc(context, x, y, radius, 0, 2 * Double.pi)
            cairo_fill(context)
        case .line(let x1, let y1, let x2, let y2, let colour, let width):
            set(colour, context)
            cairo_set_line_width(context, width)
            cairo_move_to(context, x1, y1)
            cairo_line_to(context, x2, y2)
            cairo_stroke(context)
        case .text(let text, let x, let y, let size, let colour, let bold, let align):
            set(colour, context)
            cairo_select_font_face(
                context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(context, size)
            var extents = cairo_text_extents_t()
            cairo_text_extents(context, text, &extents)
            let left =
                switch align {
                case .left: x
                case .center: x - extents.x_advance / 2
                case .right: x - extents.x_advance
                }
            cairo_move_to(context, left, y)
            cairo_show_text(context, text)
            cairo_new_path(context)
        }
    }

    static func set(_ colour: ReportColor, _ context: OpaquePointer) {
        cairo_set_source_rgb(context, colour.red, colour.green, colour.blue)
    }
}
