import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostPickup
@testable import OutpostShell

/// The EFx tab's pickup station on real devices against a real server: it scans a ticket, shows
/// what the guest may still collect, and hands out one or several items in one step, offline as
/// online; two offline stations handing out the same single item both keep it, the server flags
/// the later one, and the stock counts both on the console and on every station.
@Suite("Pickup stations (EFx)")
struct PickupStationProbeTests {
    struct Expo {
        var event: EventInfo
        var vera: GuestInfo
        var type: AccessTypeInfo
        var shirt: PickupItemID
        var lunch: PickupItemID
    }

    /// The Expo (check-in and the EFx modules): Vera on its one access type, which allows one
    /// T-shirt M (5 in stock) and two lunches (no limit); Alex and Bea on its staff.
    @MainActor
    static func expo(_ lab: DeviceLab) async throws -> Expo {
        let organizer = lab.api.lab(lab.world.organizer)
        let start = lab.api.clock.now
        let event = try await organizer.createEvent(
            CreateEventRequest(
                name: "Expo", startsAt: start - 3600, endsAt: start + 6 * 3600, timeZone: "Europe/Oslo",
                modules: ["checkin", PickupModule.eventModule]))
        let type = try await lab.api.createAccessType(lab.world.organizer, event: event, name: "Visitor")
        let vera = try await lab.api.createGuest(lab.world.organizer, event: event, accessType: type, name: "Vera")
        try await lab.api.assign(lab.world.organizer, staff: lab.world.staff1, to: event)
        try await lab.api.assign(lab.world.organizer, staff: lab.world.staff2, to: event)
        let shirt = PickupItem(id: .random(), name: "T-shirt M", stock: 5)
        let lunch = PickupItem(id: .random(), name: "Lunch day 1")
        _ = try await organizer.call(
            API.setPickupItems, event.id,
            json: PickupCatalog(
                items: [shirt, lunch],
                allowances: [
                    PickupAllowance(accessTypeId: type.id, itemId: shirt.id, quantity: 1),
                    PickupAllowance(accessTypeId: type.id, itemId: lunch.id, quantity: 2),
                ]), what: "items")
        return Expo(event: event, vera: vera, type: type, shirt: shirt.id, lunch: lunch.id)
    }

    @MainActor
    static func station(_ lab: DeviceLab, _ name: String, email: String, event: EventID) async throws -> DeviceApp {
        let app = try lab.launch(name)
        await app.signIn(server: lab.serverURL, email: email, password: DeviceLab.staffPassword)
        await app.openEvent(event)
        #expect(app.tree().elements(UIIdentifier.tabEFx).count == 1, "one EFx tab for two EFx stations")
        app.openPickupStation()
        return app
    }

    @MainActor
    static func result(_ app: DeviceApp) -> (color: String?, text: String?) {
        let element = app.tree().elements(UIIdentifier.pickupResult).first
        return (element?.attributes["result"], element?.text)
    }

    @MainActor
    static func left(_ app: DeviceApp, _ item: PickupItemID) -> String? {
        app.tree().elements(UIIdentifier.pickupStock).first { $0.attributes["itemId"] == item.wire }?.attributes["left"]
    }

    @MainActor
    static func entitled(_ app: DeviceApp) -> [String] {
        app.tree().elements(UIIdentifier.pickupEntitlement).map(\.text)
    }

    @Test(
        "pickup-stations-offline-double-redemption: two offline pickup stations hand out Vera's one shirt; both are kept, the server flags the later one, and the stock counts both everywhere"
    )
    func offlineDoubleRedemption() async throws {
        try await DeviceLab.run { lab in
            let expo = try await Self.expo(lab)
            let ticket = try await lab.ticket(expo.vera, event: expo.event)
            let alex = try await Self.station(lab, "alex", email: "alex@acme.test", event: expo.event.id)
            let bea = try await Self.station(lab, "bea", email: "bea@acme.test", event: expo.event.id)
            #expect(Self.left(alex, expo.shirt) == "5")
            #expect(Self.left(alex, expo.lunch) == "", "no stock limit")
            for app in [alex, bea] { app.update { $0.online = false } }
            // Alex scans: the shirt and two lunches to collect; hands out the shirt and a lunch
            // in one step.
            alex.pickupScan(ticket)
            #expect(Self.entitled(alex) == ["1. T-shirt M × 1", "2. Lunch day 1 × 2"])
            alex.pickupRedeem([expo.shirt: 1, expo.lunch: 1])
            #expect(Self.result(alex).color == "green")
            #expect(Self.result(alex).text == "Hand Vera: T-shirt M, Lunch day 1.")
            #expect(Self.entitled(alex) == ["1. Lunch day 1 × 1"], "what is left, offline")
            #expect(Self.left(alex, expo.shirt) == "4", "this station's own stock, offline")
            // The same station refuses the shirt again.
            alex.pickupScan(ticket)
            alex.pickupRedeem([expo.shirt: 1])
            #expect(Self.result(alex).color == "red")
            #expect(Self.result(alex).text == "T-shirt M was already collected.")
            // Bea, offline too, cannot know: she hands out the shirt.
            bea.pickupScan(ticket)
            bea.pickupRedeem([expo.shirt: 1])
            #expect(Self.result(bea).color == "green")
            #expect(alex.pendingCount == 1 && bea.pendingCount == 1)
            for app in [alex, bea] { app.update { $0.online = true } }
            await alex.sync()
            await bea.sync()
            #expect(alex.pendingCount == 0 && bea.pendingCount == 0)
            let report = try await lab.api.lab(lab.world.organizer).call(
                API.pickupReport, expo.event.id, what: "report")
            let shirts = try #require(report.stock.first { $0.itemId == expo.shirt })
            #expect(shirts.redeemed == 2 && shirts.over == 1 && shirts.left == 3)
            #expect(report.overRedemptions.map(\.deviceId) == [bea.deviceId], "the later one, by scan time")
            #expect(Set(report.stations.map(\.deviceId)) == [alex.deviceId, bea.deviceId])
            // Both stations count both shirts once they have the server's count (not one short,
            // not one over).
            await alex.sync()
            await bea.sync()
            #expect(Self.left(alex, expo.shirt) == "3")
            #expect(Self.left(bea, expo.shirt) == "3")
            bea.pickupScan(ticket)
            #expect(Self.entitled(bea) == ["1. Lunch day 1 × 1"], "Alex's lunch is known at Bea's station now")
            // Everything left in one step.
            bea.pickupRedeem()
            #expect(Self.result(bea).text == "Hand Vera: Lunch day 1.")
            bea.pickupScan(ticket)
            #expect(Self.result(bea).text == "Vera: Nothing left to collect on this ticket.")
        }
    }

    @Test(
        "pickup-station-refusals: out of stock on this station, a cancelled ticket, another event's ticket, an event without EFx"
    )
    func refusals() async throws {
        try await DeviceLab.run { lab in
            let expo = try await Self.expo(lab)
            let organizer = lab.api.lab(lab.world.organizer)
            // One shirt left in stock.
            var catalog = try await organizer.call(API.pickupItems, expo.event.id, what: "items")
            catalog.items[0].stock = 1
            _ = try await organizer.call(API.setPickupItems, expo.event.id, json: catalog, what: "stock")
            let wim = try await lab.api.createGuest(
                lab.world.organizer, event: expo.event, accessType: expo.type, name: "Wim")
            let alex = try await Self.station(lab, "alex", email: "alex@acme.test", event: expo.event.id)
            alex.pickupScan(try await lab.ticket(expo.vera, event: expo.event))
            alex.pickupRedeem([expo.shirt: 1])
            #expect(Self.result(alex).color == "green")
            alex.pickupScan(try await lab.ticket(wim, event: expo.event))
            alex.pickupRedeem([expo.shirt: 1])
            #expect(Self.result(alex).text == "T-shirt M is out of stock.")
            #expect(alex.pendingCount == 1, "nothing recorded for a refusal")
            // Wim's ticket is cancelled: nothing to collect.
            _ = try await organizer.call(
                API.updateGuest, expo.event.id, wim.id, json: UpdateGuestRequest(status: .cancelled), what: "cancel")
            await alex.sync()
            alex.pickupScan(try await lab.ticket(wim, event: expo.event))
            #expect(Self.result(alex).text == "Nothing to collect: the ticket is cancelled or revoked.")
            #expect(Self.entitled(alex).isEmpty)
            alex.pickupScan(try await lab.ticket(lab.world.guests[0]))
            #expect(Self.result(alex).text == "Not a ticket of this event.")
            // The world's Gala has no EFx modules: no tab, no station.
            await alex.openEvent(lab.world.event.id)
            #expect(!alex.tree().contains(UIIdentifier.tabEFx))
            alex.openPickupStation()
            #expect(alex.tree().refusal?.contains("no EFx stations") == true)
        }
    }
}
