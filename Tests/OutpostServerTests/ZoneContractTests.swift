import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Zone access control on the server: the zones and rules (read by whoever works the event, set
/// by organizers), the passages stations report, stored once each, and what the server marks:
/// a no-re-entry ticket admitted by two stations offline is kept twice and the later entry (by
/// scan time, whichever arrived first) is a violation.
@Suite("Zones and their passages")
struct ZoneContractTests {
    static let start = Date(millisecondsSince1970: 1_797_066_000_000)  // 2026-12-12 09:00 UTC

    /// The Gala's zones: the hall (everyone, any time) and the VIP lounge (VIP only, no re-entry,
    /// 14:00–16:00, 2 people).
    static func zones(general: AccessTypeID, vip: AccessTypeID) -> ZoneList {
        ZoneList(zones: [
            Zone(
                id: .random(), name: "Hall",
                access: [ZoneAccessRule(accessTypeId: general), ZoneAccessRule(accessTypeId: vip)]),
            Zone(
                id: .random(), name: "VIP lounge", capacity: 2,
                access: [
                    ZoneAccessRule(
                        accessTypeId: vip,
                        windows: [ZoneWindow(opens: start + 5 * 3600, closes: start + 7 * 3600)], reEntry: false)
                ]),
        ])
    }

    static func passage(
        _ zone: ZoneID, _ guest: GuestID, _ movement: ZoneMovement = .enter, device: String = "lounge-1",
        at hours: Double
    ) -> ZonePassage {
        ZonePassage(
            id: .random(), zoneId: zone, guestId: guest, movement: movement, deviceId: device,
            scannedAt: start + hours * 3600)
    }

    @Test(
        "zones-set-and-read: organizers set an event's zones and rules, its staff read them; bad rules are refused with the zone named",
        arguments: StoreKind.allCases)
    func setAndRead(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let vip = try await api.createAccessType(world.organizer, event: world.event, name: "VIP")
            let wanted = Self.zones(general: world.accessType.id, vip: vip.id)
            let organizer = api.lab(world.organizer)
            let saved = try await organizer.call(API.setZones, event, json: wanted, what: "zones")
            #expect(saved == wanted)
            #expect(try await api.lab(world.staff1).call(API.zones, event, what: "zones") == wanted)
            #expect(try await api.lab(world.support).request(API.setZones.line(event), json: wanted).status == 403)
            #expect(try await api.lab(world.staff1).request(API.setZones.line(event), json: wanted).status == 403)
            // Another event's access type, a window that closes before it opens, a nameless zone.
            var foreign = wanted
            foreign.zones[0].access.append(ZoneAccessRule(accessTypeId: .random()))
            #expect(try await organizer.request(API.setZones.line(event), json: foreign).status == 422)
            var backwards = wanted
            backwards.zones[1].access[0].windows = [ZoneWindow(opens: Self.start + 3600, closes: Self.start)]
            let refused = try await organizer.request(API.setZones.line(event), json: backwards)
            #expect(refused.status == 422)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("VIP lounge"))
            var nameless = wanted
            nameless.zones[0].name = "  "
            #expect(try await organizer.request(API.setZones.line(event), json: nameless).status == 422)
            #expect(try await organizer.call(API.zones, event, what: "zones") == wanted, "unchanged")
            // Another tenant sees no zones of this event.
            #expect(try await api.lab(world.otherOrganizer).request(API.zones.line(event)).status == 404)
            // A renamed zone keeps its id; a zone with passages cannot be dropped.
            var renamed = wanted
            renamed.zones[0].name = "Main hall"
            #expect(try await organizer.call(API.setZones, event, json: renamed, what: "rename") == renamed)
            let entry = Self.passage(renamed.zones[0].id, world.guests[0].id, at: 1)
            _ = try await api.lab(world.staff1).call(
                API.recordZonePassage, event, entry.id, json: entry, what: "passage")
            let dropped = try await organizer.request(
                API.setZones.line(event), json: ZoneList(zones: [renamed.zones[1]]))
            #expect(dropped.status == 409)
            #expect(String(decoding: dropped.body, as: UTF8.self).contains("Main hall"))
        }
    }

    @Test(
        "zone-anti-passback-offline: two stations admit one no-re-entry ticket offline; both entries are kept and the later one (by scan time, whichever arrives first) is the violation",
        arguments: StoreKind.allCases)
    func antiPassback(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let vip = try await api.createAccessType(world.organizer, event: world.event, name: "VIP")
            let guest = try await api.createGuest(world.organizer, event: world.event, accessType: vip, name: "Vera")
            let zones = try await api.lab(world.organizer).call(
                API.setZones, event, json: Self.zones(general: world.accessType.id, vip: vip.id), what: "zones")
            let lounge = zones.zones[1].id
            // Station 1 admitted Vera at 14:10, left at 14:30; station 2 admitted her again at
            // 14:40. Station 2 comes online first.
            let first = Self.passage(lounge, guest.id, device: "lounge-1", at: 5.17)
            let out = Self.passage(lounge, guest.id, .leave, device: "lounge-1", at: 5.5)
            let second = Self.passage(lounge, guest.id, device: "lounge-2", at: 5.67)
            let alex = api.lab(world.staff1)
            let bea = api.lab(world.staff2)
            let early = try await bea.call(API.recordZonePassage, event, second.id, json: second, what: "second")
            #expect(early.violation == nil, "the only entry the server knows yet")
            let firstStored = try await alex.call(API.recordZonePassage, event, first.id, json: first, what: "first")
            #expect(firstStored.violation == nil)
            _ = try await alex.call(API.recordZonePassage, event, out.id, json: out, what: "exit")
            // Sent again (its answer lost): the same passage, now marked.
            let again = try await bea.call(API.recordZonePassage, event, second.id, json: second, what: "again")
            #expect(again.violation == .noReEntry)
            #expect(again.passage == second)
            var changed = second
            changed.deviceId = "lounge-3"
            #expect(try await bea.request(API.recordZonePassage.line(event, second.id), json: changed).status == 409)
            let report = try await api.lab(world.organizer).call(API.zoneOccupancy, event, what: "occupancy")
            let counts = try #require(report.zones.first { $0.zoneId == lounge })
            #expect(counts.entries == 2 && counts.exits == 1 && counts.inside == 1 && counts.violations == 1)
            #expect(report.violations.map(\.passage.id) == [second.id])
            #expect(report.violations.first?.guestName == "Vera")
            #expect(report.violations.first?.byName == "Bea")
            // Nothing was dropped: three passages, each once.
            #expect(counts.entries + counts.exits == 3)
        }
    }

    @Test(
        "zone-violations: entries a station admitted against the rules it had (outside hours, not valid, cancelled) are kept and marked; exits never are; the count is entries minus exits",
        arguments: StoreKind.allCases)
    func violations(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let vip = try await api.createAccessType(world.organizer, event: world.event, name: "VIP")
            let vera = try await api.createGuest(world.organizer, event: world.event, accessType: vip, name: "Vera")
            let zones = try await api.lab(world.organizer).call(
                API.setZones, event, json: Self.zones(general: world.accessType.id, vip: vip.id), what: "zones")
            let (hall, lounge) = (zones.zones[0].id, zones.zones[1].id)
            let alex = api.lab(world.staff1)
            func record(_ passage: ZonePassage) async throws -> ZoneViolation? {
                try await alex.call(API.recordZonePassage, event, passage.id, json: passage, what: "passage").violation
            }
            #expect(try await record(Self.passage(lounge, vera.id, at: 4)) == .outsideHours)
            #expect(try await record(Self.passage(lounge, world.guests[0].id, at: 5.5)) == .notValidForZone)
            #expect(try await record(Self.passage(hall, world.guests[1].id, at: 1)) == nil)
            #expect(try await record(Self.passage(hall, world.guests[1].id, .leave, at: 2)) == nil)
            #expect(try await record(Self.passage(hall, world.guests[1].id, .leave, at: 3)) == nil, "an extra exit")
            _ = try await api.lab(world.organizer).updateGuest(
                event, world.guests[2].id, UpdateGuestRequest(status: .cancelled))
            #expect(try await record(Self.passage(hall, world.guests[2].id, at: 1)) == .notAdmissible)
            #expect(try await record(Self.passage(hall, world.guests[2].id, .leave, at: 2)) == nil)
            // Unknown guest, unknown zone, another event's guest.
            let stranger = Self.passage(hall, .random(), at: 1)
            #expect(
                try await alex.request(API.recordZonePassage.line(event, stranger.id), json: stranger).status == 422)
            let nowhere = Self.passage(.random(), vera.id, at: 1)
            #expect(try await alex.request(API.recordZonePassage.line(event, nowhere.id), json: nowhere).status == 422)
            let outsider = Self.passage(hall, world.otherGuest.id, at: 1)
            #expect(
                try await alex.request(API.recordZonePassage.line(event, outsider.id), json: outsider).status == 422)
            let report = try await api.lab(world.organizer).call(API.zoneOccupancy, event, what: "occupancy")
            let hallCount = try #require(report.zones.first { $0.zoneId == hall })
            #expect(hallCount.entries == 2 && hallCount.exits == 3 && hallCount.inside == 0)
            #expect(
                Set(report.violations.compactMap(\.violation)) == [.outsideHours, .notValidForZone, .notAdmissible])
        }
    }
}
