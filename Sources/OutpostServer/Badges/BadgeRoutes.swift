import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Badges (seed 000's Print tab): the event's badge layout (whoever works the event reads it;
/// organizers set it) and the prints devices report (`PUT …/badge-prints/{printId}`, stored
/// once; a reprint audited with its reason).
struct BadgeRoutes {
    let dependencies: ServerDependencies

    static let maxList = 500

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.badgeLayout, use: layout)
        group.on(API.setBadgeLayout, use: setLayout)
        group.on(API.recordBadgePrint, use: record)
        group.on(API.listBadgePrints, use: list)
    }

    @Sendable func layout(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.badgeLayout.parameters(in: context), context, dependencies)
        return try HTTPHelpers.json(try await dependencies.store.badgeLayout(eventId: event.id))
    }

    @Sendable func setLayout(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.setBadgeLayout.parameters(in: context), context, dependencies, requiring: [.organizer])
        let layout = try await HTTPHelpers.decode(BadgeLayout.self, from: request)
        try await dependencies.store.setBadgeLayout(
            eventId: event.id, tenantId: context.caller.tenantId, layout: layout, now: dependencies.clock.now())
        return try HTTPHelpers.json(layout)
    }

    @Sendable func record(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, printId) = try API.recordBadgePrint.parameters(in: context)
        var record = try await HTTPHelpers.decode(BadgePrintRecord.self, from: request)
        guard record.id == printId else {
            throw APIError.invalidRequest(
                "The body's id must be the print id of the path.", status: .unprocessableContent)
        }
        guard IdempotencyKey.accepts(deviceId: record.deviceId) else {
            throw APIError.invalidRequest("The deviceId must be ASCII without spaces.", status: .unprocessableContent)
        }
        record.reason = record.reason?.trimmingCharacters(in: .whitespacesAndNewlines)
        if record.reprint {
            guard let reason = record.reason, !reason.isEmpty, reason.count <= BadgePrintRecord.maxReasonLength else {
                throw APIError.invalidRequest(
                    "A reprint names its reason in 1 to \(BadgePrintRecord.maxReasonLength) characters.",
                    status: .unprocessableContent)
            }
        } else if record.reason != nil {
            throw APIError.invalidRequest("Only a reprint has a reason.", status: .unprocessableContent)
        }
        switch try await dependencies.store.recordBadgePrint(
            caller: context.caller, eventId: eventId, record: record, now: dependencies.clock.now())
        {
        case .recorded(let print), .replayed(let print): return try HTTPHelpers.json(print, status: .created)
        case .idTaken:
            throw APIError(.conflict, .versionConflict, "Another print already has this id; a new one needs its own.")
        case .unknownGuest:
            throw APIError.invalidRequest("The guest is not one of this event's.", status: .unprocessableContent)
        case .notFound: throw APIError.notFound
        }
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.listBadgePrints.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(try await dependencies.store.badgePrints(eventId: event.id, limit: Self.maxList))
    }
}
