import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The event's walk-ins for its organizer: each access type's places (capacity, admitted, held
/// by doors, over capacity), the end-of-shift summary by device with its CSV, and everyone added
/// at the door with who added them, what they paid and what to look at (a possible duplicate,
/// an admission past the capacity).
extension ConsoleRoutes {
    func registerWalkIns(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.walkIns, use: walkIns)
        group.on(ConsolePages.walkInsCSV, use: walkInsCSV)
    }

    @Sendable func walkIns(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.walkIns.parameters(in: context), call)
            let id = detail.event.id
            let list = try await call(API.listWalkIns.line(id), nil)
            guard list.status == .ok else {
                return try await problem(list, session: session, back: ConsolePages.event.path(id))
            }
            let summary = try await call(API.walkInSummary.line(id), nil)
            guard summary.status == .ok else {
                return try await problem(summary, session: session, back: ConsolePages.event.path(id))
            }
            let walkIns = try list.decode(WalkInList.self).walkIns
            let shifts = try summary.decode(WalkInSummary.self)
            let types = Dictionary(detail.accessTypes.map { ($0.id, $0.name) }) { first, _ in first }
            let names = Dictionary(walkIns.map { ($0.guestId, $0.name) }) { first, _ in first }
            let clock = Self.localFormat(detail.event.timeZone)
            let values: [String: Any] = [
                "event": ["id": id.wire, "name": detail.event.name],
                "csv": ConsolePages.walkInsCSV.path(id),
                "capacities": shifts.capacities.map { capacity -> [String: Any] in
                    [
                        "name": capacity.name, "capacity": capacity.capacity.map(String.init) ?? "no limit",
                        "admitted": capacity.admitted,
                        "reserved": capacity.capacity == nil ? "—" : "\(capacity.reserved)",
                        "openLeases": capacity.openLeases, "overCapacity": capacity.overCapacity,
                    ]
                },
                "shifts": shifts.devices.flatMap { shift in
                    shift.totals.map { total -> [String: Any] in
                        [
                            "device": shift.deviceId, "walkIns": shift.walkIns,
                            "method": total.method?.rawValue ?? "not paid", "count": total.count,
                            "amount": total.currency.map { "\(WalkInPayment.decimal(total.amountMinor)) \($0)" } ?? "",
                        ]
                    }
                },
                "walkIns": walkIns.map { walkIn -> [String: Any] in
                    var row: [String: Any] = [
                        "at": clock.string(walkIn.at), "guestId": walkIn.guestId.wire, "name": walkIn.name,
                        "email": walkIn.email, "accessType": types[walkIn.accessTypeId] ?? "",
                        "byName": walkIn.byName, "device": walkIn.deviceId,
                        "paid": walkIn.payment.map {
                            "\(WalkInPayment.decimal($0.amountMinor)) \($0.currency) (\($0.method.rawValue))"
                        } ?? "not paid",
                        "overCapacity": walkIn.overCapacity,
                    ]
                    if let duplicate = walkIn.possibleDuplicateOf {
                        row["duplicateOf"] = duplicate.wire
                        row["duplicateName"] = names[duplicate] ?? "another guest"
                    }
                    return row
                },
            ]
            return try await self.page("walkIns", title: "Walk-ins · \(detail.event.name)", values, session: session)
        }
    }

    @Sendable func walkInsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.walkInsCSV.parameters(in: context)
        return try await download(
            request, context, API.exportWalkInSummary.line(id), type: "text/csv; charset=utf-8",
            name: "walkins-by-device.csv", back: ConsolePages.walkIns.path(id))
    }
}
