import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Product pickup (EFx): `GET` and `PUT /v1/events/{eventId}/pickup-items` (the items and what
/// each access type may collect: whoever works the event reads them, the organizer changes
/// them), `POST …/pickup-entitlements:import` (guests' own entitlements by CSV, a bad row
/// reported by line), `PUT …/pickup-redemptions/{redemptionId}` (a station's handing-out, stored
/// once) and `GET …/pickup-report` (what a station pulls to decide offline; the console's stock).
struct PickupRoutes {
    let dependencies: ServerDependencies

    static let maxImportBytes = 4 << 20

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.pickupItems, use: catalog)
        group.on(API.setPickupItems, use: update)
        group.on(API.importPickupEntitlements, use: importEntitlements)
        group.on(API.recordPickup, use: record)
        group.on(API.pickupReport, use: report)
    }

    @Sendable func catalog(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.pickupItems.parameters(in: context), context, dependencies)
        return try HTTPHelpers.json(try await dependencies.store.pickupCatalog(eventId: event.id))
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try API.setPickupItems.parameters(in: context)
        _ = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        let catalog = try Self.validated(try await HTTPHelpers.decode(PickupCatalog.self, from: request))
        switch try await dependencies.store.setPickupCatalog(caller: context.caller, eventId: eventId, catalog: catalog)
        {
        case .saved(let saved): return try HTTPHelpers.json(saved)
        case .itemInUse(let name):
            throw APIError(.conflict, .versionConflict, "\(name) was handed out already; it stays (rename it instead).")
        case .unknownReference:
            throw APIError.invalidRequest(
                "An allowance names an access type that is not this event's or an item not in the list.",
                status: .unprocessableContent)
        case .itemIdTaken:
            throw APIError(.conflict, .versionConflict, "An item id is another event's item; a new item needs its own.")
        case .notFound: throw APIError.notFound
        }
    }

    /// The catalog with names trimmed; a refusal says which item and what.
    static func validated(_ body: PickupCatalog) throws -> PickupCatalog {
        guard body.items.count <= PickupCatalog.maxItems else {
            throw APIError.invalidRequest(
                "An event has at most \(PickupCatalog.maxItems) pickup items.", status: .unprocessableContent)
        }
        var catalog = body
        var ids: Set<PickupItemID> = []
        var names: Set<String> = []
        for index in catalog.items.indices {
            var item = catalog.items[index]
            item.name = item.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...PickupItem.maxNameLength).contains(item.name.count) else {
                throw APIError.invalidRequest(
                    "An item's name has 1 to \(PickupItem.maxNameLength) characters.", status: .unprocessableContent)
            }
            guard ids.insert(item.id).inserted, names.insert(item.name.lowercased()).inserted else {
                throw APIError.invalidRequest(
                    "Item ids and names must differ (\(item.name)).", status: .unprocessableContent)
            }
            if let stock = item.stock, !(0...10_000_000).contains(stock) {
                throw APIError.invalidRequest(
                    "\(item.name): a stock is from 0 to 10,000,000.", status: .unprocessableContent)
            }
            catalog.items[index] = item
        }
        var pairs: Set<String> = []
        for allowance in catalog.allowances {
            guard (0...PickupEntitlementImport.maxQuantity).contains(allowance.quantity) else {
                throw APIError.invalidRequest(
                    "An allowance's quantity is from 0 to \(PickupEntitlementImport.maxQuantity).",
                    status: .unprocessableContent)
            }
            guard pairs.insert(allowance.accessTypeId.wire + "/" + allowance.itemId.wire).inserted else {
                throw APIError.invalidRequest(
                    "One allowance per access type and item.", status: .unprocessableContent)
            }
        }
        return catalog
    }

    @Sendable func importEntitlements(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.importPickupEntitlements.parameters(in: context), context, dependencies, requiring: [.organizer])
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: Self.maxImportBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, .payloadTooLarge, "The CSV file is larger than 4 MiB; split it.")
        }
        let store = dependencies.store
        let guests = try await store.guestIdsByEmail(eventId: event.id)
        let plan = try PickupEntitlementImport(
            items: try await store.pickupCatalog(eventId: event.id).items, guestsByEmail: guests,
            guestIds: Set(guests.values.joined())
        ).plan(CSVReader.records(buffer.readableBytesView))
        let written = try await store.setPickupEntitlements(eventId: event.id, entitlements: plan.entitlements)
        return try HTTPHelpers.json(
            ImportResult(
                imported: written.changed, skipped: written.unchanged, errors: plan.errors,
                errorsOmitted: plan.errorsOmitted))
    }

    @Sendable func record(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, redemptionId) = try API.recordPickup.parameters(in: context)
        let redemption = try await HTTPHelpers.decode(PickupRedemption.self, from: request)
        guard redemption.id == redemptionId else {
            throw APIError.invalidRequest(
                "The body's id must be the redemption id of the path.", status: .unprocessableContent)
        }
        guard IdempotencyKey.accepts(deviceId: redemption.deviceId) else {
            throw APIError.invalidRequest("The deviceId must be ASCII without spaces.", status: .unprocessableContent)
        }
        guard (1...PickupRedemption.maxLines).contains(redemption.lines.count),
            Set(redemption.lines.map(\.itemId)).count == redemption.lines.count,
            redemption.lines.allSatisfy({ (1...PickupEntitlementImport.maxQuantity).contains($0.quantity) })
        else {
            throw APIError.invalidRequest(
                "A handing-out has 1 to \(PickupRedemption.maxLines) lines, one per item, each of 1 to "
                    + "\(PickupEntitlementImport.maxQuantity).", status: .unprocessableContent)
        }
        switch try await dependencies.store.recordPickup(
            caller: context.caller, eventId: eventId, redemption: redemption, now: dependencies.clock.now())
        {
        case .recorded(let stored), .replayed(let stored): return try HTTPHelpers.json(stored, status: .created)
        case .idTaken:
            throw APIError(
                .conflict, .versionConflict, "Another handing-out already has this id; a new one needs its own.")
        case .unknownGuest:
            throw APIError.invalidRequest("The guest is not one of this event's.", status: .unprocessableContent)
        case .unknownItem:
            throw APIError.invalidRequest("An item is not one of this event's.", status: .unprocessableContent)
        case .notFound: throw APIError.notFound
        }
    }

    @Sendable func report(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.pickupReport.parameters(in: context), context, dependencies)
        return try HTTPHelpers.json(try await dependencies.store.pickupReport(eventId: event.id))
    }
}
