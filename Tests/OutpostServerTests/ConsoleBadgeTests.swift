import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The console's badge page: the organizer sets the label and fields, sees a preview drawn as the
/// printers draw it, and every badge printed with the reprints and their reasons.
@Suite("Console badge")
struct ConsoleBadgeTests {
    /// The PNG's width and height from its IHDR chunk.
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test(
        "console-badge: the organizer saves a label size, the line under the name and print-on-check-in; the API has it, the preview is a PNG at the label's size; the prints are listed with a reprint's reason; staff are refused",
        arguments: StoreKind.allCases)
    func badgePage(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let browser = try await ConsoleTests.signedIn(api)
            let event = try await browser.get("/admin/events/\(id)")
            #expect(event.text.contains("id=\"badge-link\""))
            var page = try await browser.get("/admin/events/\(id)/badge")
            #expect(page.status == 200 && page.text.contains("id=\"badge-form\""))
            #expect(page.text.contains("<option value=\"4x3in\" selected>"), "the standard layout first")
            var preview = try await browser.get("/admin/events/\(id)/badge/preview.png")
            #expect(preview.status == 200 && preview.headers[.contentType] == "image/png")
            #expect(Self.pngSize(preview.body).map { [$0.0, $0.1] } == [576, 432], "4 × 3 in at 2 px per point")
            let saved = try await browser.post(
                "/admin/events/\(id)/badge",
                [("label", "62x100mm"), ("secondLine", "company"), ("qr", "on"), ("printOnCheckIn", "on")])
            #expect(saved.status == 303, "\(saved.text)")
            let layout = try await api.lab(world.staff1).call(API.badgeLayout, world.event.id, what: "layout")
            #expect(
                layout
                    == BadgeLayout(
                        label: .label62x100, secondLine: .company, band: false, qr: true, printOnCheckIn: true))
            preview = try await browser.get("/admin/events/\(id)/badge/preview.png")
            #expect(Self.pngSize(preview.body).map { [$0.0, $0.1] } == [352, 567], "62 × 100 mm at 2 px per point")
            let door = api.lab(world.staff1)
            let guest = world.guests[0]
            for record in [
                BadgePrintRecord(
                    id: .random(), guestId: guest.id, reprint: false, reason: nil, deviceId: "door-1",
                    printedAt: api.clock.now),
                BadgePrintRecord(
                    id: .random(), guestId: guest.id, reprint: true, reason: "coffee <b>spilt</b>", deviceId: "door-1",
                    printedAt: api.clock.now.addingTimeInterval(60)),
            ] {
                #expect(try await door.recordBadgePrint(event: world.event.id, record).status == 201)
            }
            page = try await browser.get("/admin/events/\(id)/badge")
            #expect(page.text.contains("1 printed, 1 reprinted"))
            #expect(page.text.contains("reprint: coffee &lt;b&gt;spilt&lt;/b&gt;"), "escaped")
            #expect(page.text.contains("<option value=\"62x100mm\" selected>"))
            let staff = try await ConsoleTests.signedIn(api, "alex@acme.test", password: "staff-password")
            #expect(try await staff.get("/admin/events/\(id)/badge").status == 403)
        }
    }
}
