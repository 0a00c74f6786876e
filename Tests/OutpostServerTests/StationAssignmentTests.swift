import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// EFx station assignments: the organizer chooses each door worker's station (a zone station at
/// a zone and a direction, or a pickup station); each reads only their own; a removed zone
/// takes its stations with it.
@Suite("EFx station assignments")
struct StationAssignmentTests {
    @Test(
        "efx-station-assignment: the organizer sets a zone or pickup station per user; each reads their own; wrong zones, directions and roles are refused with why; a removed zone clears its stations",
        arguments: StoreKind.allCases)
    func assignments(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let organizer = api.lab(world.organizer)
            let hall = Zone(id: .random(), name: "Hall", access: [ZoneAccessRule(accessTypeId: world.accessType.id)])
            let lounge = Zone(id: .random(), name: "Lounge", access: [])
            _ = try await organizer.call(API.setZones, event, json: ZoneList(zones: [hall, lounge]), what: "zones")
            // Nobody has a station yet.
            #expect(try await api.lab(world.staff1).call(API.myStation, event, what: "mine").station == nil)
            let alex = try await organizer.call(
                API.setStation, event, world.staff1.user.id, json: .zone(hall.id, .entry), what: "alex")
            #expect(alex.station == .zone(hall.id, .entry))
            _ = try await organizer.call(API.setStation, event, world.staff2.user.id, json: .pickup, what: "bea")
            _ = try await organizer.call(
                API.setStation, event, world.support.user.id, json: .zone(lounge.id, .both), what: "sam")
            #expect(
                try await api.lab(world.staff1).call(API.myStation, event, what: "alex").station
                    == .zone(hall.id, .entry))
            #expect(try await api.lab(world.staff2).call(API.myStation, event, what: "bea").station == .pickup)
            let list = try await organizer.call(API.stations, event, what: "list").stations
            #expect(Set(list.map(\.userId)) == [world.staff1.user.id, world.staff2.user.id, world.support.user.id])
            // Changed: the last choice stands.
            _ = try await organizer.call(
                API.setStation, event, world.staff1.user.id, json: .zone(hall.id, .exit), what: "exit")
            #expect(
                try await api.lab(world.staff1).call(API.myStation, event, what: "alex").station
                    == .zone(hall.id, .exit))
            // Refused with why: another event's zone, a missing direction, a pickup with a zone.
            for (station, sentence) in [
                (StationAssignment.zone(.random(), .entry), "one of this event's zones"),
                (StationAssignment(kind: .zone, zoneId: hall.id), "one of this event's zones"),
                (StationAssignment(kind: .pickup, zoneId: hall.id), "names no zone"),
            ] {
                let refused = try await organizer.request(
                    API.setStation.line(event, world.staff1.user.id), json: station)
                #expect(refused.status == 422)
                #expect(try OutpostJSON.decode(ErrorBody.self, from: refused.body).message.contains(sentence))
            }
            // Someone who does not work the doors gets none: an exhibitor, staff not on this event.
            let ella = try await api.createUser(
                world.organizer, email: "ella@expo.test", role: .exhibitor, name: "Ella")
            let loner = try await api.createUser(
                world.organizer, email: "loner@acme.test", role: .checkinStaff, name: "Loner")
            for user in [ella.user.id, loner.user.id] {
                #expect(
                    try await organizer.request(API.setStation.line(event, user), json: StationAssignment.pickup).status
                        == 422)
            }
            // Only the organizer sets; staff and support read only their own.
            #expect(
                try await api.lab(world.staff1).request(
                    API.setStation.line(event, world.staff1.user.id), json: StationAssignment.pickup
                )
                .status == 403)
            #expect(try await api.lab(world.staff1).request(API.stations.line(event)).status == 403)
            #expect(try await api.lab(ella).request(API.myStation.line(event)).status == 404)
            // The lounge goes: Sam's station with it.
            _ = try await organizer.call(API.setZones, event, json: ZoneList(zones: [hall]), what: "zones")
            #expect(try await api.lab(world.support).call(API.myStation, event, what: "sam").station == nil)
            // Cleared.
            #expect(try await organizer.request(API.clearStation.line(event, world.staff2.user.id)).status == 204)
            #expect(try await api.lab(world.staff2).call(API.myStation, event, what: "bea").station == nil)
            #expect(try await organizer.request(API.clearStation.line(event, world.staff2.user.id)).status == 404)
        }
    }
}
