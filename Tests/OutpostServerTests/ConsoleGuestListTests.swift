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
        "guest-list-sort: the list by name either way (the folded name: accents and case do not split it) and by e-mail in any case either way, a page at a time with its position; a cursor of another order and an unknown order are refused",
        arguments: StoreKind.allCases)
    func sort(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 0)
            let people = [
                ("Émile Zola", "ZOLA@example.org"), ("anna Berg", "berg@example.org"),
                ("Anna Adams", "Zed@example.org"),
                ("Zoë Quist", "adams@example.org"), ("bob Marley", "Marley@example.org"),
            ]
            for (name, email) in people {
                _ = try await api.createGuest(
                    world.organizer, event: world.event, accessType: world.accessType, name: name, email: email)
            }
            let walk = { (sort: String) async throws -> [String] in
                var names: [String] = []
                var after: String?
                var offsets: [Int] = []
                repeat {
                    let page: GuestPage = try await api.request(
                        .get,
                        API.listGuests.path(world.event.id, query: [("sort", sort), ("limit", "2"), ("after", after)]),
                        token: world.organizer.accessToken
                    ).decode()
                    offsets.append(page.offset ?? -1)
                    names += page.guests.map(\.name)
                    after = page.next
                } while after != nil
                #expect(offsets == [0, 2, 4], "\(sort): \(offsets)")
                return names
            }
            let byName = ["Anna Adams", "anna Berg", "bob Marley", "Émile Zola", "Zoë Quist"]
            #expect(try await walk("name") == byName)
            #expect(try await walk("-name") == byName.reversed())
            let byEmail = ["Zoë Quist", "anna Berg", "bob Marley", "Anna Adams", "Émile Zola"]
            #expect(try await walk("email") == byEmail)
            #expect(try await walk("-email") == byEmail.reversed())
            let first: GuestPage = try await api.request(
                .get, API.listGuests.path(world.event.id, query: [("sort", "email"), ("limit", "2")]),
                token: world.organizer.accessToken
            ).decode()
            let other = try await api.request(
                .get, API.listGuests.path(world.event.id, query: [("sort", "name"), ("after", first.next)]),
                token: world.organizer.accessToken)
            #expect(other.status == 400)
            let unknown = try await api.request(
                .get, API.listGuests.path(world.event.id, query: [("sort", "age")]), token: world.organizer.accessToken)
            #expect(unknown.status == 400 && unknown.text.contains("'sort' must be"))
        }
    }

    @Test(
        "console-guests-sort: the Name and E-mail headers sort the list and turn the order around, marked for a screen reader; the filters stay; the CSV download comes in the same order",
        arguments: StoreKind.allCases)
    func consoleSort(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 0)
            for (name, email) in [("Ada", "zz@example.org"), ("Bo", "aa@example.org"), ("Cy", "mm@example.org")] {
                _ = try await api.createGuest(
                    world.organizer, event: world.event, accessType: world.accessType, name: name, email: email)
            }
            let event = world.event.id
            let href = { (query: [(String, String?)]) in
                ConsolePages.guests.path(event, query: query).replacingOccurrences(of: "&", with: "&amp;")
            }
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.guests.path(event, query: [("status", "confirmed")]))
            #expect(
                page.text.contains(
                    "<th aria-sort=\"ascending\"><a href=\"\(href([("status", "confirmed"), ("sort", "-name")]))\""))
            #expect(
                page.text.contains(
                    "<th aria-sort=\"none\"><a href=\"\(href([("status", "confirmed"), ("sort", "email")]))\""))
            page = try await browser.get(
                ConsolePages.guests.path(event, query: [("status", "confirmed"), ("sort", "email")]))
            let order = { (text: String) in
                ["Ada", "Bo", "Cy"].sorted {
                    text.range(of: ">\($0)</a>")!.lowerBound < text.range(of: ">\($1)</a>")!.lowerBound
                }
            }
            #expect(order(page.text) == ["Bo", "Cy", "Ada"])
            #expect(
                page.text.contains(
                    "<th aria-sort=\"ascending\"><a href=\"\(href([("status", "confirmed"), ("sort", "-email")]))\""))
            page = try await browser.get(ConsolePages.guests.path(event, query: [("sort", "-email")]))
            #expect(order(page.text) == ["Ada", "Cy", "Bo"])
            #expect(page.text.contains("<th aria-sort=\"descending\">"))
            let csv = try await browser.get(ConsolePages.guestsCSV.path(event, query: [("sort", "email")]))
            let names = csv.text.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[0]) }
            #expect(names == ["Bo", "Cy", "Ada"])
        }
    }

    @Test(
        "console-guests-bulk: ticked guests' registrations cancelled, every guest a filter shows given another access type (the ones it would not change left alone), each through the API's guest update; nothing ticked or no action is refused in words; support has no bulk form",
        arguments: StoreKind.allCases)
    func bulk(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 6)
            let event = world.event.id
            let vip = try await api.lab(world.organizer).createAccessType(
                event: event, CreateAccessTypeRequest(name: "VIP"))
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.guests.path(event))
            let first = world.guests[0].id
            let second = world.guests[1].id
            #expect(page.text.contains("name=\"guest-\(first.wire)\" value=\"1\" form=\"bulk-guests\""))
            var answer = try await browser.post(
                ConsolePages.bulkGuests.path(event),
                [
                    ("list", ""), ("scope", "selected"), ("action", "cancel"), ("accessTypeId", ""),
                    ("guest-\(first.wire)", "1"), ("guest-\(second.wire)", "1"),
                ])
            #expect(
                answer.headers[.location]
                    == ConsolePages.guests.path(event, query: [("done", "bulk"), ("changed", "2"), ("refused", "0")]))
            page = try await browser.get(answer.headers[.location] ?? "")
            #expect(page.text.contains("2 guest(s) changed, 0 refused"))
            let statuses = { () async throws -> [GuestID: GuestInfo] in
                let list: GuestPage = try await api.request(
                    .get, API.listGuests.path(event, query: [("limit", "100")]), token: world.organizer.accessToken
                ).decode()
                return Dictionary(uniqueKeysWithValues: list.guests.map { ($0.id, $0) })
            }
            var guests = try await statuses()
            let cancelled: Set<GuestID> = Set(guests.values.filter { $0.status == .cancelled }.map(\.id))
            #expect(cancelled == [first, second])
            // Every confirmed guest (the filter) to VIP: four changed, the cancelled two untouched.
            answer = try await browser.post(
                ConsolePages.bulkGuests.path(event),
                [
                    ("list", "status=confirmed"), ("scope", "filter"), ("action", "access-type"),
                    ("accessTypeId", vip.id.wire),
                ])
            #expect(
                answer.headers[.location]
                    == ConsolePages.guests.path(
                        event, query: [("status", "confirmed"), ("done", "bulk"), ("changed", "4"), ("refused", "0")]))
            guests = try await statuses()
            #expect(guests.values.filter { $0.accessTypeId == vip.id }.count == 4)
            #expect(guests[first]?.accessTypeId == world.accessType.id && guests[first]?.status == .cancelled)
            // Again: nothing left to change.
            answer = try await browser.post(
                ConsolePages.bulkGuests.path(event),
                [
                    ("list", "status=confirmed"), ("scope", "filter"), ("action", "access-type"),
                    ("accessTypeId", vip.id.wire),
                ])
            #expect(answer.headers[.location]?.contains("changed=0") == true)
            // Refusals in words.
            answer = try await browser.post(
                ConsolePages.bulkGuests.path(event), [("list", ""), ("scope", "selected"), ("action", "cancel")])
            #expect(answer.status == 422 && answer.text.contains("Tick the guests first"))
            answer = try await browser.post(
                ConsolePages.bulkGuests.path(event), [("list", ""), ("scope", "filter"), ("action", "")])
            #expect(answer.status == 422 && answer.text.contains("Choose what to do with the guests."))
            answer = try await browser.post(
                ConsolePages.bulkGuests.path(event), [("list", ""), ("scope", "filter"), ("action", "access-type")])
            #expect(answer.status == 422 && answer.text.contains("Choose the access type to give them."))
            let support = try await ConsoleTests.signedIn(api, "support@acme.test", password: "staff-password")
            #expect(!(try await support.get(ConsolePages.guests.path(event))).text.contains("id=\"bulk-guests\""))
        }
    }

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
