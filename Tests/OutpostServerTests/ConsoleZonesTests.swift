import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The console's zones page (EFx access control): the organizer turns the EFx stations on, adds
/// zones with what they admit, re-entry, a capacity and opening hours on the event's clock, and
/// sees each zone's counts and the entries the server marked; names are text, never markup.
@Suite("Console zones")
struct ConsoleZonesTests {
    @Test(
        "console-zones: EFx on and off, a zone added with its rules (console-zones-edit: changed, removed when empty) (the API has them, hours on the event's clock), counts and marked entries shown, markup in a zone's name is text; support reads without the forms",
        arguments: StoreKind.allCases)
    func zonesPage(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let id = event.wire
            let browser = try await ConsoleTests.signedIn(api)
            #expect(try await browser.get("/admin/events/\(id)").text.contains("id=\"zones-link\""))
            var page = try await browser.get("/admin/events/\(id)/zones")
            #expect(page.status == 200 && page.text.contains("EFx stations are off"))
            #expect(page.text.contains("No zones yet."))
            let on = try await browser.post("/admin/events/\(id)/efx", [("on", "on")])
            #expect(on.status == 303, "\(on.text)")
            let detail = try await api.lab(world.organizer).call(API.getEvent, event, what: "event")
            #expect(detail.event.modules.contains(EventModule.efx))
            let added = try await browser.post(
                "/admin/events/\(id)/zones",
                [
                    ("name", "<img src=x onerror=alert(1)> lounge"), ("capacity", "2"),
                    ("admit-\(world.accessType.id.wire)", "on"), ("opens", "2026-12-12T14:00"),
                    ("closes", "2026-12-12T16:00"),
                ])
            #expect(added.status == 303, "\(added.text)")
            let zones = try await api.lab(world.staff1).call(API.zones, event, what: "zones").zones
            let zone = try #require(zones.first)
            #expect(zone.name == "<img src=x onerror=alert(1)> lounge" && zone.capacity == 2)
            #expect(zone.access.map(\.accessTypeId) == [world.accessType.id])
            #expect(zone.access.first?.reEntry == false, "the box was not ticked")
            // 14:00 in Oslo (the World's event) is 13:00 UTC in December.
            #expect(
                zone.access.first?.windows
                    == [
                        ZoneWindow(
                            opens: Date(timeIntervalSince1970: 1_797_080_400),
                            closes: Date(timeIntervalSince1970: 1_797_087_600))
                    ])
            // A second entry of the same ticket, marked, shows on the page.
            for device in ["door-1", "door-2"] {
                let passage = ZonePassage(
                    id: .random(), zoneId: zone.id, guestId: world.guests[0].id, movement: .enter, deviceId: device,
                    scannedAt: Date(timeIntervalSince1970: 1_797_081_000))
                _ = try await api.lab(world.staff1).call(
                    API.recordZonePassage, event, passage.id, json: passage, what: "passage")
            }
            page = try await browser.get("/admin/events/\(id)/zones")
            #expect(page.text.contains("EFx stations are on"))
            #expect(
                page.text.contains("&lt;img src=x onerror=alert(1)&gt; lounge") && !page.text.contains("<img src=x"))
            #expect(page.text.contains("<td>2 of 2</td><td>2</td><td>0</td><td>1</td>"))
            #expect(page.text.contains("entered again on a ticket without re-entry"))
            // Only one of the two times: refused, nothing added.
            let half = try await browser.post(
                "/admin/events/\(id)/zones",
                [("name", "Hall"), ("admit-\(world.accessType.id.wire)", "on"), ("opens", "2026-12-12T14:00")])
            #expect(half.status == 422 || half.status == 400)
            #expect(try await api.lab(world.staff1).call(API.zones, event, what: "zones").zones.count == 1)
            // console-zones-edit: the capacity changed and the name kept; a zone with entries
            // cannot be removed, an empty one can.
            let changed = try await browser.post(
                "/admin/events/\(id)/zones/\(zone.id.wire)", [("name", zone.name), ("capacity", "5")])
            #expect(changed.status == 303, "\(changed.text)")
            let afterChange = try await api.lab(world.staff1).call(API.zones, event, what: "zones").zones
            #expect(afterChange.first?.capacity == 5 && afterChange.first?.access == zone.access)
            let inUse = try await browser.post("/admin/events/\(id)/zones/\(zone.id.wire)/remove", [])
            #expect(inUse.status == 409 || inUse.status == 422, "\(inUse.status)")
            #expect(inUse.text.contains("recorded entries and exits"))
            _ = try await browser.post("/admin/events/\(id)/zones", [("name", "Cloakroom")])
            let empty = try #require(
                try await api.lab(world.staff1).call(API.zones, event, what: "zones").zones.first {
                    $0.name == "Cloakroom"
                })
            let removed = try await browser.post("/admin/events/\(id)/zones/\(empty.id.wire)/remove", [])
            #expect(removed.status == 303)
            #expect(try await api.lab(world.staff1).call(API.zones, event, what: "zones").zones.count == 1)
            // Support reads the page without the forms.
            let support = try await ConsoleTests.signedIn(api, "support@acme.test", password: "staff-password")
            let read = try await support.get("/admin/events/\(id)/zones")
            #expect(read.status == 200 && !read.text.contains("id=\"zone-form\""))
            let turnedOff = try await browser.post("/admin/events/\(id)/efx", [("on", "off")])
            #expect(turnedOff.status == 303)
            #expect(
                !(try await api.lab(world.organizer).call(API.getEvent, event, what: "event")).event.modules
                    .contains(EventModule.efx))
        }
    }

    @Test(
        "console-efx-stations: the organizer chooses each door worker's station on the zones page (a zone one way, pickup, none); the API has it; a station for someone off the doors is refused with why",
        arguments: StoreKind.allCases)
    func stations(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let hall = Zone(id: .random(), name: "<b>Hall</b>", access: [])
            _ = try await api.lab(world.organizer).call(
                API.setZones, event, json: ZoneList(zones: [hall]), what: "zones")
            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get("/admin/events/\(event.wire)/zones")
            #expect(
                page.text.contains("id=\"stations\"") && page.text.contains("Alex") && page.text.contains("Sam Support")
            )
            #expect(page.text.contains("&lt;b&gt;Hall&lt;/b&gt; · entry") && !page.text.contains("<b>Hall"))
            let zone = try await browser.post(
                "/admin/events/\(event.wire)/stations",
                [("userId", world.staff1.user.id.wire), ("station", "zone:\(hall.id.wire):exit")])
            #expect(zone.status == 303, "\(zone.text)")
            let pickup = try await browser.post(
                "/admin/events/\(event.wire)/stations", [("userId", world.staff2.user.id.wire), ("station", "pickup")])
            #expect(pickup.status == 303)
            let chosen = try await api.lab(world.organizer).call(API.stations, event, what: "stations").stations
            #expect(Set(chosen.map(\.station)) == [.zone(hall.id, .exit), .pickup])
            let shown = try await browser.get("/admin/events/\(event.wire)/zones?done=station")
            #expect(shown.text.contains("value=\"zone:\(hall.id.wire):exit\" selected"))
            _ = try await browser.post(
                "/admin/events/\(event.wire)/stations", [("userId", world.staff2.user.id.wire), ("station", "none")])
            #expect(try await api.lab(world.staff2).call(API.myStation, event, what: "bea").station == nil)
            let ella = try await api.createUser(
                world.organizer, email: "ella@expo.test", role: .exhibitor, name: "Ella")
            let refused = try await browser.post(
                "/admin/events/\(event.wire)/stations", [("userId", ella.user.id.wire), ("station", "pickup")])
            #expect(refused.status == 422 && refused.text.contains("works this event"))
        }
    }
}
