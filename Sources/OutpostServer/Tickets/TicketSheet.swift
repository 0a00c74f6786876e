import Foundation
import OutpostDrawing
import OutpostProtocol

/// Tickets to print: one A5 page a guest with the event, the guest's name and access
/// type, the ticket's QR code (drawn as vector modules, so it scans at any print size) and the
/// guest's code. Names are set as text by the PDF's font machinery: a name with markup in it is
/// printed as those characters. Pure.
enum TicketSheet {
    static let width = 420.0
    static let height = 595.0
    static let ink = ReportColor(0x1F2933)
    static let muted = ReportColor(0x7B8794)
    static let white = ReportColor(0xFFFFFF)
    static let band = ReportColor(0x0F9488)

    struct Ticket: Sendable {
        var guest: GuestInfo
        var accessType: String
        /// The signed ticket text the QR code carries.
        var text: String
    }

    static func page(event: EventInfo, ticket: Ticket) -> ReportPage? {
        guard let code = QRCode(text: ticket.text) else { return nil }
        var shapes: [ReportShape] = [
            .rect(ReportRect(x: 0, y: 0, width: width, height: height), fill: white, stroke: nil, name: "page"),
            .rect(ReportRect(x: 0, y: 0, width: width, height: 86), fill: band, stroke: nil, name: "band"),
            .text(fit(event.name, 34), x: 28, y: 44, size: 20, colour: white, bold: true, align: .left),
            .text(when(event), x: 28, y: 68, size: 11, colour: white, bold: false, align: .left),
            .text(fit(ticket.guest.name, 28), x: 28, y: 128, size: 20, colour: ink, bold: true, align: .left),
            .text(fit(ticket.accessType, 48), x: 28, y: 152, size: 13, colour: muted, bold: false, align: .left),
        ]
        let side = 280.0
        let top = 176.0
        shapes += code.shapes(in: ReportRect(x: (width - side) / 2, y: top, width: side, height: side), ink: ink)
        shapes += [
            .text(
                "Code \(ticket.guest.code)", x: width / 2, y: top + side + 30, size: 12, colour: ink, bold: true,
                align: .center),
            .text(
                "Show this page (or the code) at the door.", x: width / 2, y: height - 36, size: 10, colour: muted,
                bold: false, align: .center),
        ]
        return ReportPage(width: width, height: height, shapes: shapes)
    }

    /// The event's start in its own time zone.
    static func when(_ event: EventInfo) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: event.timeZone) ?? .gmt
        formatter.dateFormat = "EEEE d MMMM yyyy, HH:mm"
        return formatter.string(from: event.startsAt) + " (" + event.timeZone + ")"
    }

    /// At most `length` characters, an ellipsis where cut.
    static func fit(_ text: String, _ length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}
