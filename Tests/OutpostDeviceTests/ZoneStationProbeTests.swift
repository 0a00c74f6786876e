import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostShell
@testable import OutpostZones

/// The EFx tab's zone station on real devices against a real server: set to a zone and a
/// direction, it decides each scan offline from the rules it pulled; two stations that both admit
/// one no-re-entry ticket offline each keep their entry, and the server keeps both and marks the
/// later one.
@Suite("Zone stations (EFx)")
struct ZoneStationProbeTests {
    /// The EFx event: Expo (check-in and the EFx modules), one access type, Vera on it, Alex and
    /// Bea on its staff, and the VIP lounge (no re-entry, 10 people).
    @MainActor
    static func expo(_ lab: DeviceLab) async throws -> (event: EventInfo, guest: GuestInfo, lounge: ZoneID) {
        let organizer = lab.api.lab(lab.world.organizer)
        let start = lab.api.clock.now
        let event = try await organizer.createEvent(
            CreateEventRequest(
                name: "Expo", startsAt: start - 3600, endsAt: start + 6 * 3600, timeZone: "Europe/Oslo",
                modules: ["checkin", ZonesModule.eventModule]))
        let type = try await lab.api.createAccessType(lab.world.organizer, event: event, name: "VIP")
        let guest = try await lab.api.createGuest(lab.world.organizer, event: event, accessType: type, name: "Vera")
        try await lab.api.assign(lab.world.organizer, staff: lab.world.staff1, to: event)
        try await lab.api.assign(lab.world.organizer, staff: lab.world.staff2, to: event)
        let lounge = ZoneID.random()
        _ = try await organizer.call(
            API.setZones, event.id,
            json: ZoneList(zones: [
                Zone(
                    id: lounge, name: "VIP lounge", capacity: 10,
                    access: [ZoneAccessRule(accessTypeId: type.id, reEntry: false)])
            ]), what: "zones")
        return (event, guest, lounge)
    }

    @MainActor
    static func station(
        _ lab: DeviceLab, _ name: String, email: String, event: EventID, lounge: ZoneID
    ) async throws
        -> DeviceApp
    {
        let app = try lab.launch(name)
        await app.signIn(server: lab.serverURL, email: email, password: DeviceLab.staffPassword)
        await app.openEvent(event)
        #expect(app.tree().contains(UIIdentifier.tabEFx), "the EFx tab of an event with the EFx modules")
        app.openZoneStation()
        #expect(app.tree().elements(UIIdentifier.zoneChoice).map(\.text) == ["VIP lounge (10 people)"])
        app.setZoneStation(zoneId: lounge, direction: .entry)
        return app
    }

    @MainActor
    static func result(_ app: DeviceApp) -> (color: String?, text: String?) {
        let element = app.tree().elements(UIIdentifier.zoneResult).first
        return (element?.attributes["result"], element?.text)
    }

    @Test(
        "zone-stations-offline-anti-passback: two offline zone stations admit one no-re-entry ticket; each keeps its entry, and after reconnecting the server keeps both and marks the later one"
    )
    func offlineAntiPassback() async throws {
        try await DeviceLab.run { lab in
            let (event, vera, lounge) = try await Self.expo(lab)
            let ticket = try await lab.ticket(vera, event: event)
            let alex = try await Self.station(lab, "alex", email: "alex@acme.test", event: event.id, lounge: lounge)
            let bea = try await Self.station(lab, "bea", email: "bea@acme.test", event: event.id, lounge: lounge)
            #expect(lab.world.event.modules.contains(ZonesModule.eventModule) == false)
            for app in [alex, bea] { app.update { $0.online = false } }
            alex.zoneScan(ticket)
            #expect(Self.result(alex).color == "green")
            #expect(Self.result(alex).text == "In: Vera.")
            // The same station knows she entered: no re-entry.
            alex.zoneScan(ticket)
            #expect(Self.result(alex).color == "red")
            #expect(Self.result(alex).text == "Already inside VIP lounge once: no re-entry.")
            // The other station, offline, cannot know.
            bea.zoneScan(ticket)
            #expect(Self.result(bea).color == "green")
            #expect(alex.pendingCount == 1 && bea.pendingCount == 1)
            #expect(
                alex.tree().elements(UIIdentifier.zoneOccupancy).first?.attributes["inside"] == "1",
                "its own entry counted offline")
            for app in [alex, bea] { app.update { $0.online = true } }
            await bea.sync()
            await alex.sync()
            #expect(alex.pendingCount == 0 && bea.pendingCount == 0)
            let report = try await lab.api.lab(lab.world.organizer).call(
                API.zoneOccupancy, event.id, what: "occupancy")
            let counts = try #require(report.zones.first)
            #expect(counts.entries == 2 && counts.violations == 1 && counts.inside == 2)
            #expect(report.violations.count == 1)
            #expect(report.violations.first?.passage.deviceId == bea.deviceId, "the later entry, by scan time")
            #expect(report.violations.first?.violation == .noReEntry)
            // Both stations count both entries once they have the server's count.
            await alex.sync()
            #expect(alex.tree().elements(UIIdentifier.zoneOccupancy).first?.attributes["inside"] == "2")
        }
    }

    @Test(
        "zone-station-refusals: a ticket of another event, a guest of an access type without access, the wrong zone set, the EFx tab only with the EFx modules (zone-efx-learned-at-sync: turned on, it shows at the next sync)"
    )
    func refusals() async throws {
        try await DeviceLab.run { lab in
            let (event, _, lounge) = try await Self.expo(lab)
            let alex = try await Self.station(lab, "alex", email: "alex@acme.test", event: event.id, lounge: lounge)
            // A guest of the Expo whose access type the lounge does not list.
            let general = try await lab.api.createAccessType(lab.world.organizer, event: event, name: "General")
            let gus = try await lab.api.createGuest(lab.world.organizer, event: event, accessType: general, name: "Gus")
            await alex.sync()
            alex.zoneScan(try await lab.ticket(gus, event: event))
            #expect(Self.result(alex).color == "red")
            #expect(Self.result(alex).text == "Not valid for VIP lounge.")
            alex.zoneScan(try await lab.ticket(lab.world.guests[0]))
            #expect(Self.result(alex).text == "Not a ticket of this event.")
            alex.setZoneStation(zoneId: .random(), direction: .entry)
            #expect(alex.tree().refusal?.contains("no such zone") == true)
            #expect(alex.pendingCount == 0, "nothing recorded for a refusal")
            // The world's Gala has no EFx modules: no tab.
            await alex.openEvent(lab.world.event.id)
            #expect(!alex.tree().contains(UIIdentifier.tabEFx))
            // The organizer turns them on: the device learns it at its next sync, with no trip
            // through the events list (zone-efx-learned-at-sync).
            _ = try await lab.api.lab(lab.world.organizer).call(
                API.updateEvent, lab.world.event.id, json: UpdateEventRequest(modules: ["checkin", "efx"]),
                what: "efx on")
            await alex.sync()
            #expect(alex.tree().contains(UIIdentifier.tabEFx), "zone-efx-learned-at-sync")
        }
    }

    @Test(
        "zone-count-unsent-before-pull: an entry scanned before a pull whose send had not gone through is still counted on the station (not one short), and once sent and pulled, counted once"
    )
    func unsentBeforePull() async throws {
        try await DeviceLab.run { lab in
            let (event, vera, lounge) = try await Self.expo(lab)
            let alex = try await Self.station(lab, "alex", email: "alex@acme.test", event: event.id, lounge: lounge)
            alex.update { $0.online = false }
            alex.zoneScan(try await lab.ticket(vera, event: event))
            #expect(alex.pendingCount == 1)
            alex.update { $0.online = true }
            // The count is pulled while the entry is still queued (its send failed or has not run).
            let module = try #require(alex.zonesModule)
            let info = try #require(alex.currentEvent)
            try await module.pull(event: info)
            #expect(alex.tree().elements(UIIdentifier.zoneOccupancy).first?.attributes["inside"] == "1")
            await alex.sync()
            #expect(alex.pendingCount == 0)
            #expect(alex.tree().elements(UIIdentifier.zoneOccupancy).first?.attributes["inside"] == "1")
            await alex.sync()
            #expect(alex.tree().elements(UIIdentifier.zoneOccupancy).first?.attributes["inside"] == "1", "once")
        }
    }
}

/// The EFx tab opens the station the organizer chose for its user.
@Suite("EFx station assignment on the device")
struct StationAssignmentProbeTests {
    @Test(
        "efx-tab-opens-assigned-station: the organizer makes Alex the lounge's entry station and Bea the pickup station; at their next sync each one's EFx tab opens that station, and Alex cannot move his post"
    )
    func assignedStations() async throws {
        try await DeviceLab.run { lab in
            let (event, vera, lounge) = try await ZoneStationProbeTests.expo(lab)
            let organizer = lab.api.lab(lab.world.organizer)
            let alex = try lab.launch("alex")
            await alex.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            await alex.openEvent(event.id)
            // Without a choice: the zone chooser.
            alex.openEFx()
            #expect(alex.tree().elements(UIIdentifier.zoneChoice).count == 1)
            alex.closeZoneStation()
            _ = try await organizer.call(
                API.setStation, event.id, lab.world.staff1.user.id, json: .zone(lounge, .entry), what: "alex")
            _ = try await organizer.call(API.setStation, event.id, lab.world.staff2.user.id, json: .pickup, what: "bea")
            await alex.sync()
            #expect(alex.assignedStation == .zone(lounge, .entry))
            alex.openEFx()
            #expect(alex.tree().screen == UIIdentifier.zoneStation)
            #expect(alex.tree().elements(UIIdentifier.zoneChoice).isEmpty, "set by the organizer: no chooser")
            alex.zoneScan(try await lab.ticket(vera, event: event))
            #expect(ZoneStationProbeTests.result(alex).text == "In: Vera.")
            alex.setZoneStation(zoneId: lounge, direction: .exit)
            #expect(alex.refusal == "The organizer made you the zone station at VIP lounge (entry); they change it.")
            let bea = try lab.launch("bea")
            await bea.signIn(server: lab.serverURL, email: "bea@acme.test", password: DeviceLab.staffPassword)
            await bea.openEvent(event.id)
            bea.openEFx()
            #expect(bea.tree().screen == UIIdentifier.pickupStation)
        }
    }
}
