import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Product pickup on the server: items and allowances (read by whoever works the event, set by
/// organizers), guests' own entitlements by CSV with bad rows reported, handings-out stored once
/// each, and what the server flags: two offline stations handing out the same single item are
/// both kept, the later one (by scan time, whichever arrives first) is an over-redemption, and
/// the stock counts both.
@Suite("Product pickup")
struct PickupContractTests {
    static let start = Date(millisecondsSince1970: 1_797_066_000_000)  // 2026-12-12 09:00 UTC

    /// A shirt (one per General ticket, 10 in stock), lunch (two per General ticket) and a
    /// welcome bag (by import only, 3 in stock).
    static func catalog(general: AccessTypeID) -> PickupCatalog {
        let shirt = PickupItem(id: .random(), name: "T-shirt M", stock: 10)
        let lunch = PickupItem(id: .random(), name: "Lunch day 1")
        let bag = PickupItem(id: .random(), name: "Welcome bag", stock: 3)
        return PickupCatalog(
            items: [shirt, lunch, bag],
            allowances: [
                PickupAllowance(accessTypeId: general, itemId: shirt.id, quantity: 1),
                PickupAllowance(accessTypeId: general, itemId: lunch.id, quantity: 2),
            ])
    }

    static func redemption(
        _ guest: GuestID, _ lines: [(PickupItemID, Int)], device: String = "pickup-1", at hours: Double
    ) -> PickupRedemption {
        PickupRedemption(
            id: .random(), guestId: guest, lines: lines.map { PickupLine(itemId: $0.0, quantity: $0.1) },
            deviceId: device, scannedAt: start + hours * 3600)
    }

    @Test(
        "pickup-items-set-and-read: organizers set items, stock and allowances, staff read them; bad ones are refused naming the item",
        arguments: StoreKind.allCases)
    func setAndRead(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let wanted = Self.catalog(general: world.accessType.id)
            let organizer = api.lab(world.organizer)
            #expect(try await organizer.call(API.setPickupItems, event, json: wanted, what: "items") == wanted)
            #expect(try await api.lab(world.staff1).call(API.pickupItems, event, what: "items") == wanted)
            #expect(try await api.lab(world.staff1).request(API.setPickupItems.line(event), json: wanted).status == 403)
            var foreign = wanted
            foreign.allowances.append(PickupAllowance(accessTypeId: .random(), itemId: wanted.items[0].id, quantity: 1))
            #expect(try await organizer.request(API.setPickupItems.line(event), json: foreign).status == 422)
            var negative = wanted
            negative.items[2].stock = -1
            let refused = try await organizer.request(API.setPickupItems.line(event), json: negative)
            #expect(refused.status == 422)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("Welcome bag"))
            var twice = wanted
            twice.items[1].name = " t-shirt m "
            #expect(try await organizer.request(API.setPickupItems.line(event), json: twice).status == 422)
            #expect(try await organizer.call(API.pickupItems, event, what: "items") == wanted, "unchanged")
            #expect(try await api.lab(world.otherOrganizer).request(API.pickupItems.line(event)).status == 404)
            // An item handed out cannot be dropped; renaming keeps it.
            let out = Self.redemption(world.guests[0].id, [(wanted.items[0].id, 1)], at: 1)
            _ = try await api.lab(world.staff1).call(API.recordPickup, event, out.id, json: out, what: "pickup")
            let dropped = try await organizer.request(
                API.setPickupItems.line(event),
                json: PickupCatalog(items: Array(wanted.items.dropFirst()), allowances: []))
            #expect(dropped.status == 409)
            #expect(String(decoding: dropped.body, as: UTF8.self).contains("T-shirt M"))
        }
    }

    @Test(
        "pickup-double-redemption: two offline stations hand out one single item; both are kept, the later is flagged, the stock counts both",
        arguments: StoreKind.allCases)
    func doubleRedemption(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let catalog = try await api.lab(world.organizer).call(
                API.setPickupItems, event, json: Self.catalog(general: world.accessType.id), what: "items")
            let (shirt, lunch) = (catalog.items[0].id, catalog.items[1].id)
            let guest = world.guests[0].id
            // Station 1 handed out the shirt and a lunch at 10:00; station 2, offline too, the
            // shirt again at 10:05. Station 2 comes online first.
            let first = Self.redemption(guest, [(shirt, 1), (lunch, 1)], device: "pickup-1", at: 1)
            let second = Self.redemption(guest, [(shirt, 1)], device: "pickup-2", at: 1.08)
            let alex = api.lab(world.staff1)
            let bea = api.lab(world.staff2)
            let early = try await bea.call(API.recordPickup, event, second.id, json: second, what: "second")
            #expect(!early.isOverRedemption, "the only one the server knows yet")
            let firstStored = try await alex.call(API.recordPickup, event, first.id, json: first, what: "first")
            #expect(!firstStored.isOverRedemption)
            // Sent again (its answer lost): the same handing-out, now flagged.
            let again = try await bea.call(API.recordPickup, event, second.id, json: second, what: "again")
            #expect(again.isOverRedemption)
            #expect(again.lines == [StoredPickupLine(itemId: shirt, itemName: "T-shirt M", quantity: 1, over: 1)])
            var changed = second
            changed.lines = [PickupLine(itemId: lunch, quantity: 1)]
            #expect(try await bea.request(API.recordPickup.line(event, second.id), json: changed).status == 409)
            let report = try await api.lab(world.organizer).call(API.pickupReport, event, what: "report")
            let shirts = try #require(report.stock.first { $0.itemId == shirt })
            #expect(shirts.redeemed == 2, "both left the table")
            #expect(shirts.over == 1)
            #expect(shirts.left == 8)
            #expect(report.overRedemptions.map(\.id) == [second.id])
            #expect(Set(report.stations.filter { $0.itemId == shirt }.map(\.deviceId)) == ["pickup-1", "pickup-2"])
            #expect(report.collected(by: guest) == [shirt: 2, lunch: 1])
            // A second lunch stands (two allowed); a third is over.
            let lunch2 = Self.redemption(guest, [(lunch, 1)], at: 2)
            #expect(
                !(try await alex.call(API.recordPickup, event, lunch2.id, json: lunch2, what: "l2")).isOverRedemption)
            let lunch3 = Self.redemption(guest, [(lunch, 1)], at: 3)
            #expect(try await alex.call(API.recordPickup, event, lunch3.id, json: lunch3, what: "l3").isOverRedemption)
            // Refusals: another event's guest, an unknown item, an empty step, a foreign tenant.
            let stranger = Self.redemption(world.otherGuest.id, [(shirt, 1)], at: 1)
            #expect(try await alex.request(API.recordPickup.line(event, stranger.id), json: stranger).status == 422)
            let unknown = Self.redemption(guest, [(.random(), 1)], at: 1)
            #expect(try await alex.request(API.recordPickup.line(event, unknown.id), json: unknown).status == 422)
            let empty = Self.redemption(guest, [], at: 1)
            #expect(try await alex.request(API.recordPickup.line(event, empty.id), json: empty).status == 422)
            let outsider = Self.redemption(guest, [(shirt, 1)], at: 1)
            #expect(
                try await api.lab(world.otherOrganizer).request(
                    API.recordPickup.line(event, outsider.id), json: outsider
                )
                .status == 404)
        }
    }

    @Test(
        "pickup-entitlement-import: a CSV adds guests' own entitlements; a bad row is reported by line and the rest land",
        arguments: StoreKind.allCases)
    func entitlementImport(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let organizer = api.lab(world.organizer)
            let catalog = try await organizer.call(
                API.setPickupItems, event, json: Self.catalog(general: world.accessType.id), what: "items")
            let bag = catalog.items[2].id
            let csv = """
                email,item,quantity
                \(world.guests[0].email),Welcome bag,1
                \(world.guests[1].email.uppercased()),welcome bag,
                nobody@example.org,Welcome bag,1
                \(world.guests[2].email),Golden ticket,1
                \(world.guests[2].email),Welcome bag,many
                "\(world.guests[2].email)",Welcome bag,2

                """
            let result = try await organizer.call(
                API.importPickupEntitlements.line(event), body: Data(csv.utf8), headers: ["Content-Type": "text/csv"],
                what: "import", as: ImportResult.self)
            #expect(result.imported == 3)
            #expect(result.errors.map(\.line) == [4, 5, 6])
            #expect(result.errors[0].error.contains("nobody@example.org"))
            #expect(result.errors[1].error.contains("Golden ticket"))
            #expect(result.errors[2].error.contains("quantity"))
            let report = try await organizer.call(API.pickupReport, event, what: "report")
            #expect(report.entitlements(of: world.guests[0].id) == [bag: 1])
            #expect(report.entitlements(of: world.guests[1].id) == [bag: 1])
            #expect(report.entitlements(of: world.guests[2].id) == [bag: 2])
            // Imported again: nothing changes.
            let again = try await organizer.call(
                API.importPickupEntitlements.line(event), body: Data(csv.utf8), headers: ["Content-Type": "text/csv"],
                what: "again", as: ImportResult.self)
            #expect(again.imported == 0)
            #expect(again.skipped == 3)
            // The import's entitlement counts at the server: a second bag for guest 0 is over.
            let one = Self.redemption(world.guests[0].id, [(bag, 1)], at: 1)
            let two = Self.redemption(world.guests[0].id, [(bag, 1)], at: 2)
            #expect(
                !(try await api.lab(world.staff1).call(API.recordPickup, event, one.id, json: one, what: "1"))
                    .isOverRedemption)
            #expect(
                try await api.lab(world.staff1).call(API.recordPickup, event, two.id, json: two, what: "2")
                    .isOverRedemption)
            // A header without the columns, staff importing, another tenant.
            let headerless = try await organizer.request(
                API.importPickupEntitlements.line(event), body: Data("name,thing\na,b\n".utf8))
            #expect(headerless.status == 422)
            #expect(String(decoding: headerless.body, as: UTF8.self).contains("an item column"))
            let empty = try await organizer.request(API.importPickupEntitlements.line(event), body: Data())
            #expect(empty.status == 422, "\(String(decoding: empty.body, as: UTF8.self))")
            #expect(
                try await api.lab(world.staff1).request(API.importPickupEntitlements.line(event), body: Data(csv.utf8))
                    .status == 403)
            #expect(
                try await api.lab(world.otherOrganizer).request(
                    API.importPickupEntitlements.line(event), body: Data(csv.utf8)
                ).status == 404)
        }
    }
}
