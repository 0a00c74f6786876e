import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The event's product pickup for its organizer (EFx): each item with what a ticket of each
/// access type may collect, its stock, how many were handed out and are left, the count per
/// station, the over-redemptions, a form to add an item and one to import single guests'
/// entitlements (CSV pasted; the answer lists the bad lines).
extension ConsoleRoutes {
    func registerPickup(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.pickup, use: pickup)
        group.on(ConsolePages.addPickupItem, use: addPickupItem)
        group.on(ConsolePages.importPickupEntitlements, use: importPickupEntitlements)
    }

    @Sendable func pickup(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            try await pickupPage(
                ConsolePages.pickup.parameters(in: context), session: session, call: call,
                notice: request.uri.queryParameters.get("done") == "item"
                    ? "The item was added; stations have it at their next sync." : nil)
        }
    }

    /// The page, with an import's result when there is one.
    func pickupPage(
        _ id: EventID, session: ConsoleSession, call: Call, notice: String?, imported: ImportResult? = nil
    ) async throws -> Response {
        let detail = try await eventDetail(id, call)
        let answer = try await call(API.pickupReport.line(id), nil)
        guard answer.status == .ok else {
            return try await problem(answer, session: session, back: ConsolePages.event.path(id))
        }
        let report = try answer.decode(PickupReport.self)
        let accessTypes = Dictionary(
            detail.accessTypes.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let items = Dictionary(report.catalog.items.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let clock = Self.localFormat(detail.event.timeZone)
        var values: [String: Any] = [
            "event": ["id": id.wire, "name": detail.event.name],
            "efx": detail.event.modules.contains(Self.efxModule),
            "canEdit": Self.role(session, on: detail) == .organizer,
            "accessTypes": detail.accessTypes.map { ["id": $0.id.wire, "name": $0.name] },
            "items": report.stock.map { stock -> [String: Any] in
                let allowances = report.catalog.allowances.filter { $0.itemId == stock.itemId }.map {
                    "\(accessTypes[$0.accessTypeId] ?? "?"): \($0.quantity)"
                }
                return [
                    "name": stock.name,
                    "allowances": allowances.isEmpty ? "by import only" : allowances.joined(separator: ", "),
                    "stock": stock.stock.map(String.init) ?? "no limit", "redeemed": stock.redeemed,
                    "left": stock.left.map(String.init) ?? "–", "over": stock.over,
                    "attention": stock.over > 0 || (stock.left ?? 1) <= 0,
                ]
            },
            "hasStations": !report.stations.isEmpty,
            "stations": report.stations.map {
                ["device": $0.deviceId, "item": items[$0.itemId] ?? "?", "redeemed": $0.redeemed] as [String: Any]
            },
            "hasOver": !report.overRedemptions.isEmpty,
            "over": report.overRedemptions.map { flagged -> [String: Any] in
                let what = flagged.lines.filter { $0.over > 0 }.map { "\($0.over) × \($0.itemName)" }
                return [
                    "at": clock.string(flagged.scannedAt), "guest": flagged.guestName,
                    "what": what.joined(separator: ", "), "by": flagged.byName, "device": flagged.deviceId,
                ]
            },
        ]
        if let imported {
            values["imported"] =
                [
                    "changed": imported.imported, "unchanged": imported.skipped, "hasErrors": !imported.errors.isEmpty,
                    "errors": imported.errors.map { ["line": $0.line, "error": $0.error] as [String: Any] },
                ] as [String: Any]
        }
        return try await self.page(
            "pickup", title: "Pickup · \(detail.event.name)", values, session: session, notice: notice)
    }

    @Sendable func addPickupItem(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.addPickupItem.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let detail = try await eventDetail(id, call)
            let back = ConsolePages.pickup.path(id)
            let listed = try await call(API.pickupItems.line(id), nil)
            guard listed.status == .ok else { return .refused(listed, back: back) }
            var catalog = try listed.decode(PickupCatalog.self)
            let (item, allowances) = try Self.pickupItem(form, accessTypes: detail.accessTypes)
            catalog.items.append(item)
            catalog.allowances += allowances
            let saved = try await call(API.setPickupItems.line(id), try OutpostJSON.encode(catalog))
            guard saved.status == .ok else { return .refused(saved, back: back) }
            return .redirect(ConsolePages.pickup.path(id, query: [("done", "item")]))
        }
    }

    /// The item the form describes, and a quantity per access type (0 or empty: none).
    static func pickupItem(
        _ form: [String: String], accessTypes: [AccessTypeInfo]
    ) throws -> (PickupItem, [PickupAllowance]) {
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw EventForm.Invalid(sentence: "Give the item a name.") }
        let stockText = (form["stock"] ?? "").trimmingCharacters(in: .whitespaces)
        let stock = stockText.isEmpty ? nil : Int(stockText)
        if !stockText.isEmpty, stock == nil {
            throw EventForm.Invalid(sentence: "The stock is a number of items, or empty for no limit.")
        }
        let item = PickupItem(id: .random(), name: name, stock: stock)
        var allowances: [PickupAllowance] = []
        for accessType in accessTypes {
            let text = (form["allow-\(accessType.id.wire)"] ?? "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            guard let quantity = Int(text) else {
                throw EventForm.Invalid(sentence: "\(accessType.name): the quantity per ticket is a number.")
            }
            if quantity > 0 {
                allowances.append(PickupAllowance(accessTypeId: accessType.id, itemId: item.id, quantity: quantity))
            }
        }
        return (item, allowances)
    }

    @Sendable func importPickupEntitlements(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.importPickupEntitlements.parameters(in: context)
        return try await changing(request, context) { session, form, call in
            _ = try await eventDetail(id, call)  // another tenant's event is not found, whatever the form
            let csv = form["csv"] ?? ""
            guard !csv.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw EventForm.Invalid(sentence: "Paste the CSV, header first.")
            }
            // The API reads the body as CSV whatever its declared type.
            let answer = try await call(API.importPickupEntitlements.line(id), Data(csv.utf8))
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.pickup.path(id)) }
            return .shown(
                try await pickupPage(
                    id, session: session, call: call, notice: nil, imported: try answer.decode(ImportResult.self)))
        }
    }
}
