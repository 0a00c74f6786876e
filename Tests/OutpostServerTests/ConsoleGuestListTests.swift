import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The guest list at scale: where a page is ("51–100 of 123"), the attendee list as CSV with
/// the list's filters, and the tickets of everyone a filter shows e-mailed through the mail queue.
@Suite("Console: the guest list at scale")
struct ConsoleGuestListTests {
    @Test(
        "console-guests-at-scale: pages say where they are; the attendee CSV has the filter's guests (formula-safe); the tickets of a filter's guests go through the mail queue to them alone; support sees no bulk action",
        arguments: StoreKind.allCases)
    func atScale(kind: StoreKind) async throws {
        try await withMailTestServer(kind) { api, sink in
            let world = try await World.make(api)
            let organizer = api.lab(world.organizer)
            let event = world.event.id
            for index in 1...90 {
                _ = try await api.createGuest(
                    world.organizer, event: world.event, accessType: world.accessType,
                    name: String(format: "Guest %03d", index))
            }
            let vip = try await organizer.createAccessType(event: event, CreateAccessTypeRequest(name: "VIP"))
            var vips: [GuestInfo] = []
            for index in 1...30 {
                vips.append(
                    try await api.createGuest(
                        world.organizer, event: world.event, accessType: vip,
                        name: index == 1 ? "=HYPERLINK(\"x\")" : String(format: "Vip %02d", index)))
            }
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.guests.path(event))
            #expect(page.text.contains("<span id=\"guest-count\" aria-live=\"polite\">1–50 of 123</span>"))
            page = try await browser.get(try #require(Self.link("next-page", in: page.text)))
            #expect(page.text.contains(">51–100 of 123<"))
            page = try await browser.get(try #require(Self.link("next-page", in: page.text)))
            #expect(page.text.contains(">101–123 of 123<") && Self.link("next-page", in: page.text) == nil)
            page = try await browser.get(ConsolePages.guests.path(event, query: [("accessTypeId", vip.id.wire)]))
            #expect(page.text.contains(">30 guests<"))
            // The attendee list, as the filter shows it.
            let csv = try await browser.get(try #require(Self.link("guests-csv", in: page.text)))
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = csv.text.split(separator: "\r\n")
            #expect(lines.first == "name,email,code,access_type,status,checked_in_at,checked_in_by,notes")
            #expect(lines.count == 31 && lines.dropFirst().allSatisfy { $0.contains(",VIP,confirmed,") })
            #expect(lines.contains { $0.hasPrefix("\"'=HYPERLINK(\"\"x\"\")\"") }, "formula-safe")
            let none = try await organizer.request(
                API.exportGuests.line(event, query: [("status", "cancelled")]))
            #expect(String(decoding: none.body, as: UTF8.self).split(separator: "\r\n").count == 1)
            // Their tickets, through the mail queue, to them alone.
            let list = try #require(CheckInDeskTests.hidden("list", in: page.text))
            #expect(page.text.contains("E-mail their tickets (30)"))
            let mailed = try await browser.post(ConsolePages.mailGuests.path(event), [("list", list)])
            #expect(
                mailed.headers[.location]
                    == ConsolePages.ticketMails.path(
                        event, query: [("done", "mailed"), ("queued", "30"), ("failed", "0")]), "\(mailed.text)")
            #expect(sink.messages().isEmpty, "queued, not sent in the request")
            #expect(await api.sendQueuedMail() == MailQueue.Pass(sent: 30))
            #expect(Set(sink.messages().map(\.to)) == Set(vips.map(\.email)))
            // Support reads the list and downloads it, and has no bulk action.
            let support = try await ConsoleTests.signedIn(api, "support@acme.test", password: "staff-password")
            page = try await support.get(ConsolePages.guests.path(event))
            #expect(page.text.contains("guests-csv") && !page.text.contains("mail-guests"))
        }
    }

    /// The `href` of the element with `id` on a page, its entities undone.
    static func link(_ id: String, in html: String) -> String? {
        guard let tag = html.range(of: "id=\"\(id)\"") else { return nil }
        let before = html[..<tag.lowerBound]
        guard let href = before.range(of: "href=\"", options: .backwards) else { return nil }
        let rest = html[href.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Empty pages say what to do next.
@Suite("Console: empty states")
struct ConsoleEmptyStateTests {
    @Test(
        "console-empty-states: an event with nothing yet says on each page what to do next; a filter that matches nothing says so",
        arguments: StoreKind.allCases)
    func emptyStates(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let empty = try await api.createEvent(world.organizer, name: "Empty Hall")
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.guests.path(empty.id))
            #expect(page.text.contains("No guests yet: import them from a CSV file"))
            page = try await browser.get(ConsolePages.guests.path(world.event.id, query: [("q", "nobody at all")]))
            #expect(page.text.contains("No guest matches these filters") && page.text.contains(">No guests<"))
            page = try await browser.get(ConsolePages.event.path(empty.id))
            #expect(page.text.contains("None yet: add one below") && page.text.contains("put door staff on it below"))
            page = try await browser.get(ConsolePages.audit.path(empty.id))
            #expect(page.text.contains("appear here as they reach the server"))
            page = try await browser.get(ConsolePages.ticketMails.path(empty.id))
            #expect(page.text.contains("No ticket has been e-mailed yet: "))
            page = try await browser.get(ConsolePages.walkIns.path(empty.id))
            #expect(page.text.contains("a door device adds them from its Walk-in tab"))
        }
    }
}
