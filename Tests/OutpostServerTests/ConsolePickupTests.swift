import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The console's pickup page (EFx product pickup): the organizer adds items with their stock and
/// what a ticket of each access type may collect, pastes single guests' entitlements as CSV and
/// sees the bad lines, and sees stock, the count per station and the over-redemptions; names
/// are text, never markup.
@Suite("Console pickup")
struct ConsolePickupTests {
    @Test(
        "console-pickup: an item added with stock and allowance, entitlements pasted with a bad line reported, stock per item and station, an over-redemption shown, markup in an item's name is text; support reads without the forms",
        arguments: StoreKind.allCases)
    func pickupPage(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let id = event.wire
            let browser = try await ConsoleTests.signedIn(api)
            #expect(try await browser.get("/admin/events/\(id)").text.contains("id=\"pickup-link\""))
            var page = try await browser.get("/admin/events/\(id)/pickup")
            #expect(page.status == 200 && page.text.contains("No items yet."))
            let hostile = "<img src=x onerror=alert(1)> shirt"
            let added = try await browser.post(
                "/admin/events/\(id)/pickup",
                [("name", hostile), ("stock", "3"), ("allow-\(world.accessType.id.wire)", "1")])
            #expect(added.status == 303, "\(added.text)")
            let bag = try await browser.post("/admin/events/\(id)/pickup", [("name", "Welcome bag"), ("stock", "")])
            #expect(bag.status == 303, "\(bag.text)")
            let catalog = try await api.lab(world.staff1).call(API.pickupItems, event, what: "items")
            #expect(catalog.items.map(\.name) == [hostile, "Welcome bag"])
            #expect(catalog.items.map(\.stock) == [3, nil])
            #expect(
                catalog.allowances == [
                    PickupAllowance(accessTypeId: world.accessType.id, itemId: catalog.items[0].id, quantity: 1)
                ])
            // Entitlements pasted: one good row, one unknown e-mail.
            let imported = try await browser.post(
                "/admin/events/\(id)/pickup/entitlements",
                [("csv", "email,item\n\(world.guests[1].email),Welcome bag\nnobody@example.org,Welcome bag\n")])
            #expect(imported.status == 200, "\(imported.text)")
            #expect(imported.text.contains("1 entitlement(s) set, 0 already so."))
            #expect(imported.text.contains("Line 3: No guest of this event has the e-mail nobody@example.org."))
            let report = try await api.lab(world.organizer).call(API.pickupReport, event, what: "report")
            #expect(report.entitlements(of: world.guests[1].id) == [catalog.items[1].id: 1])
            // Two stations hand guest 0 the one shirt: the second is an over-redemption.
            for (device, minutes) in [("pickup-1", 0.0), ("pickup-2", 5.0)] {
                let redemption = PickupRedemption(
                    id: .random(), guestId: world.guests[0].id,
                    lines: [PickupLine(itemId: catalog.items[0].id, quantity: 1)], deviceId: device,
                    scannedAt: Date(timeIntervalSince1970: 1_797_081_000 + minutes * 60))
                _ = try await api.lab(world.staff1).call(
                    API.recordPickup, event, redemption.id, json: redemption, what: "pickup")
            }
            page = try await browser.get("/admin/events/\(id)/pickup")
            #expect(page.text.contains("&lt;img src=x onerror=alert(1)&gt; shirt") && !page.text.contains("<img src=x"))
            #expect(page.text.contains("<td>General: 1</td><td>3</td><td>2</td><td>1</td><td>1</td>"))
            #expect(page.text.contains("<td>by import only</td><td>no limit</td><td>0</td>"))
            #expect(page.text.contains("<td>pickup-2</td>"))
            #expect(page.text.contains("1 × &lt;img src=x onerror=alert(1)&gt; shirt"))
            // A stock that is not a number: refused, nothing added.
            let bad = try await browser.post("/admin/events/\(id)/pickup", [("name", "Lunch"), ("stock", "lots")])
            #expect(bad.status == 422)
            #expect(try await api.lab(world.staff1).call(API.pickupItems, event, what: "items").items.count == 2)
            // Support reads the page without the forms.
            let support = try await ConsoleTests.signedIn(api, "support@acme.test", password: "staff-password")
            let read = try await support.get("/admin/events/\(id)/pickup")
            #expect(read.status == 200 && !read.text.contains("id=\"pickup-form\""))
            #expect(!read.text.contains("id=\"pickup-import-form\""))
        }
    }
}
