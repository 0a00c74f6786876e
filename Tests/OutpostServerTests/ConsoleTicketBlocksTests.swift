import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The console's ticket blocks (EF-069): the organizer allocates a block to a partner with its
/// manager; the manager signs in, sees their block only (another is the console's 404) and
/// names its tickets until the deadline; after it the forms are gone and a forged post is
/// refused with why; partners' names are text.
@Suite("Console ticket blocks")
struct ConsoleTicketBlocksTests {
    @Test(
        "console-ticket-blocks: a block allocated in the console, named by its manager until the deadline (block isolation, then refused with why), markup in a partner's and holder's name is text",
        arguments: StoreKind.allCases)
    func allocateAndName(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let mia = try await api.createUser(
                world.organizer, email: "mia@sponsor.test", role: .blockManager, name: "Mia Manager")
            let browser = try await ConsoleTests.signedIn(api)
            #expect(try await browser.get("/admin/events/\(event.wire)").text.contains("id=\"ticket-blocks-link\""))
            let form = try await browser.get("/admin/events/\(event.wire)/ticket-blocks")
            #expect(form.text.contains("No ticket blocks yet.") && form.text.contains("Mia Manager"))
            let hostile = "<img src=x onerror=alert(1)> Sponsor"
            let deadline = ConsoleRoutes.local(api.clock.now.addingTimeInterval(600), world.event.timeZone)
            let added = try await browser.post(
                "/admin/events/\(event.wire)/ticket-blocks",
                [
                    ("partner", hostile), ("kind", "sponsor"), ("accessTypeId", world.accessType.id.wire),
                    ("size", "3"), ("namingDeadline", deadline), ("manager-\(mia.user.id.wire)", "on"),
                ])
            #expect(added.status == 303, "\(added.text)")
            let other = try await browser.post(
                "/admin/events/\(event.wire)/ticket-blocks",
                [
                    ("partner", "Globex"), ("kind", "company"), ("accessTypeId", world.accessType.id.wire),
                    ("size", "2"), ("namingDeadline", deadline),
                ])
            #expect(other.status == 303)
            // A form without an access type is refused with why.
            let missing = try await browser.post(
                "/admin/events/\(event.wire)/ticket-blocks",
                [("partner", "X"), ("size", "2"), ("namingDeadline", deadline)])
            #expect(missing.status == 422 && missing.text.contains("Choose the access type"))
            let blocks = try await api.lab(world.organizer).call(API.ticketBlocks, event, what: "blocks").blocks
            #expect(blocks.map(\.partner) == [hostile, "Globex"] && blocks[0].managers == [mia.user.id])
            let list = try await browser.get("/admin/events/\(event.wire)/ticket-blocks")
            #expect(
                list.text.contains("&lt;img src=x onerror=alert(1)&gt; Sponsor") && !list.text.contains("<img src=x"))
            #expect(list.text.contains("0 of 3"))
            // Mia in the console: her block on the events page, its tickets, nothing else.
            let miaBrowser = try await ConsoleTests.signedIn(api, "mia@sponsor.test", password: "staff-password")
            let home = try await miaBrowser.get("/admin/events")
            #expect(home.text.contains("Your ticket blocks") && home.text.contains("0 of 3 named"))
            #expect(!home.text.contains("<img src=x"))
            let block = blocks[0].id
            let page = try await miaBrowser.get("/admin/ticket-blocks/\(block.wire)")
            #expect(page.status == 200 && page.text.components(separatedBy: "class=\"block-ticket-save\"").count == 4)
            #expect(page.text.contains("Sponsor: &lt;img"))
            let detail = try await api.lab(mia).call(API.ticketBlock, block, what: "block")
            let first = detail.tickets[0].guestId
            let named = try await miaBrowser.post(
                "/admin/ticket-blocks/\(block.wire)/tickets/\(first.wire)",
                [("name", "<b>Nora</b>"), ("email", "nora@sponsor.test")])
            #expect(named.status == 303, "\(named.text)")
            let after = try await miaBrowser.get("/admin/ticket-blocks/\(block.wire)?done=named")
            #expect(after.text.contains("value=\"&lt;b&gt;Nora&lt;/b&gt;\"") && after.text.contains("1 of 3 named"))
            // Globex's block and the organizer's pages are the console's 404 for Mia.
            #expect(try await miaBrowser.get("/admin/ticket-blocks/\(blocks[1].id.wire)").status == 404)
            #expect(try await miaBrowser.get("/admin/events/\(event.wire)/ticket-blocks").status == 404)
            let foreign = try await api.lab(world.organizer).call(API.ticketBlock, blocks[1].id, what: "globex")
            #expect(
                try await miaBrowser.post(
                    "/admin/ticket-blocks/\(blocks[1].id.wire)/tickets/\(foreign.tickets[0].guestId.wire)",
                    [("name", "Mallory"), ("email", "m@x.test")]
                ).status == 404)
            // After the deadline: no forms, and a post is refused with the rule's sentence.
            api.clock.advance(by: 600)
            let late = try await miaBrowser.get("/admin/ticket-blocks/\(block.wire)")
            #expect(late.text.contains("The naming deadline passed") && !late.text.contains("block-ticket-save"))
            let refused = try await miaBrowser.post(
                "/admin/ticket-blocks/\(block.wire)/tickets/\(detail.tickets[1].guestId.wire)",
                [("name", "Late Larry"), ("email", "larry@sponsor.test")])
            #expect(refused.status == 422 && refused.text.contains("The naming deadline of this block has passed"))
            // The organizer still names, and grows the block from its page.
            let organizerPage = try await browser.get("/admin/ticket-blocks/\(block.wire)")
            #expect(
                organizerPage.text.contains("block-ticket-save") && organizerPage.text.contains("block-change-form"))
            let grown = try await browser.post(
                "/admin/ticket-blocks/\(block.wire)",
                [
                    ("partner", "Acme"), ("kind", "sponsor"), ("size", "5"),
                    (
                        "namingDeadline",
                        ConsoleRoutes.local(api.clock.now.addingTimeInterval(600), world.event.timeZone)
                    ),
                    ("doorNaming", "on"), ("manager-\(mia.user.id.wire)", "on"),
                ])
            #expect(grown.status == 303, "\(grown.text)")
            let changed = try await api.lab(world.organizer).call(API.ticketBlock, block, what: "changed").block
            #expect(changed.size == 5 && changed.partner == "Acme" && changed.doorNaming && changed.named == 1)
        }
    }
}
