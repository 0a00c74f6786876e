import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Zone access control (EFx): `GET` and `PUT /v1/events/{eventId}/zones` (the zones and their
/// rules: whoever works the event reads them, stations decide offline from them; the organizer
/// changes them), `PUT …/zone-passages/{passageId}` (a station's entry or exit, stored once) and
/// `GET …/zone-occupancy` (the counts and the violations).
struct ZoneRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.zones, use: list)
        group.on(API.setZones, use: update)
        group.on(API.recordZonePassage, use: record)
        group.on(API.zoneOccupancy, use: occupancy)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.zones.parameters(in: context), context, dependencies)
        return try HTTPHelpers.json(try await dependencies.store.zones(eventId: event.id))
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try API.setZones.parameters(in: context)
        _ = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        let list = try Self.validated(try await HTTPHelpers.decode(ZoneList.self, from: request))
        switch try await dependencies.store.setZones(caller: context.caller, eventId: eventId, list: list) {
        case .saved(let saved): return try HTTPHelpers.json(saved)
        case .zoneInUse(let name):
            throw APIError(
                .conflict, .versionConflict, "\(name) has recorded entries and exits; it stays (rename it instead).")
        case .unknownAccessType:
            throw APIError.invalidRequest(
                "A rule names an access type that is not this event's.", status: .unprocessableContent)
        case .zoneIdTaken:
            throw APIError(.conflict, .versionConflict, "A zone id is another event's zone; a new zone needs its own.")
        case .notFound: throw APIError.notFound
        }
    }

    /// The list with names trimmed; a refusal says which zone and what.
    static func validated(_ body: ZoneList) throws -> ZoneList {
        guard body.zones.count <= ZoneList.maxZones else {
            throw APIError.invalidRequest(
                "An event has at most \(ZoneList.maxZones) zones.", status: .unprocessableContent)
        }
        var list = body
        var seen: Set<ZoneID> = []
        for index in list.zones.indices {
            var zone = list.zones[index]
            zone.name = zone.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...Zone.maxNameLength).contains(zone.name.count) else {
                throw APIError.invalidRequest(
                    "A zone's name has 1 to \(Zone.maxNameLength) characters.", status: .unprocessableContent)
            }
            guard seen.insert(zone.id).inserted else {
                throw APIError.invalidRequest("Zone ids must differ (\(zone.name)).", status: .unprocessableContent)
            }
            if let capacity = zone.capacity, !(1...10_000_000).contains(capacity) {
                throw APIError.invalidRequest(
                    "\(zone.name): a capacity is from 1 to 10,000,000 people.", status: .unprocessableContent)
            }
            guard Set(zone.access.map(\.accessTypeId)).count == zone.access.count else {
                throw APIError.invalidRequest(
                    "\(zone.name): one rule per access type.", status: .unprocessableContent)
            }
            for rule in zone.access {
                guard rule.windows.count <= Zone.maxWindows, rule.windows.allSatisfy({ $0.opens < $0.closes }) else {
                    throw APIError.invalidRequest(
                        "\(zone.name): each window opens before it closes (at most \(Zone.maxWindows)).",
                        status: .unprocessableContent)
                }
            }
            list.zones[index] = zone
        }
        return list
    }

    @Sendable func record(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, passageId) = try API.recordZonePassage.parameters(in: context)
        let passage = try await HTTPHelpers.decode(ZonePassage.self, from: request)
        guard passage.id == passageId else {
            throw APIError.invalidRequest(
                "The body's id must be the passage id of the path.", status: .unprocessableContent)
        }
        guard IdempotencyKey.accepts(deviceId: passage.deviceId) else {
            throw APIError.invalidRequest("The deviceId must be ASCII without spaces.", status: .unprocessableContent)
        }
        switch try await dependencies.store.recordZonePassage(
            caller: context.caller, eventId: eventId, passage: passage, now: dependencies.clock.now())
        {
        case .recorded(let stored), .replayed(let stored): return try HTTPHelpers.json(stored, status: .created)
        case .idTaken:
            throw APIError(.conflict, .versionConflict, "Another passage already has this id; a new one needs its own.")
        case .unknownGuest:
            throw APIError.invalidRequest("The guest is not one of this event's.", status: .unprocessableContent)
        case .unknownZone:
            throw APIError.invalidRequest("The zone is not one of this event's.", status: .unprocessableContent)
        case .notFound: throw APIError.notFound
        }
    }

    @Sendable func occupancy(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.zoneOccupancy.parameters(in: context), context, dependencies)
        return try HTTPHelpers.json(try await dependencies.store.zoneReport(eventId: event.id))
    }
}
