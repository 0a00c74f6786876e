import Foundation
import OutpostCore
import OutpostProtocol

/// How saving an event's pickup items ended.
enum PickupCatalogWrite: Sendable, Equatable {
    case saved(PickupCatalog)
    /// An item left out of the list was handed out already (its name): it stays.
    case itemInUse(String)
    /// An allowance names an access type that is not the event's, or an item not in the list.
    case unknownReference
    /// An item's id is another event's item.
    case itemIdTaken
    case notFound
}

/// How recording a handing-out ended.
enum PickupWrite: Sendable, Equatable {
    case recorded(StoredPickupRedemption)
    /// The same handing-out sent again (its answer was lost): as the server keeps it now.
    case replayed(StoredPickupRedemption)
    /// The id is another handing-out's.
    case idTaken
    case unknownGuest
    case unknownItem
    case notFound
}

/// Product pickup on the server: the event's items, allowances and guests' own entitlements,
/// and what stations hand out. A station decides offline (``PickupRules``); the server keeps
/// every handing-out (the items left the table: the stock counts them) and marks, per guest and
/// item in scan order, what went beyond the ticket's entitlement, whichever station's arrived
/// first.
extension Store {
    func pickupCatalog(eventId: EventID) async throws -> PickupCatalog {
        try await database.read { connection in try await Self.pickupCatalog(connection, eventId: eventId) }
    }

    static func pickupCatalog(_ connection: any SQLConnection, eventId: EventID) async throws -> PickupCatalog {
        let items = try await connection.query(
            "SELECT id, name, stock FROM pickup_items WHERE event_id = ? ORDER BY position, id", [.id(eventId)])
        let allowances = try await connection.query(
            """
            SELECT a.item_id, a.access_type_id, a.quantity FROM pickup_allowances a
            JOIN pickup_items i ON i.id = a.item_id WHERE i.event_id = ? ORDER BY i.position, a.access_type_id
            """, [.id(eventId)])
        return PickupCatalog(
            items: try items.map {
                PickupItem(
                    id: try $0.id("id"), name: try $0.text("name"), stock: try $0.optionalInt("stock").map(Int.init))
            },
            allowances: try allowances.map {
                PickupAllowance(
                    accessTypeId: try $0.id("access_type_id"), itemId: try $0.id("item_id"),
                    quantity: Int(try $0.int("quantity")))
            })
    }

    /// Replaces the event's items and allowances with `catalog`.
    func setPickupCatalog(caller: Caller, eventId: EventID, catalog: PickupCatalog) async throws -> PickupCatalogWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            let accessTypes = Set(
                try await connection.query("SELECT id FROM access_types WHERE event_id = ?", [.id(eventId)])
                    .map { try $0.id("id", as: AccessTypeID.self) })
            let listed = Set(catalog.items.map(\.id))
            guard catalog.allowances.allSatisfy({ accessTypes.contains($0.accessTypeId) && listed.contains($0.itemId) })
            else { return .unknownReference }
            for item in catalog.items {
                if let owner = try await connection.queryOne(
                    "SELECT event_id FROM pickup_items WHERE id = ?", [.id(item.id)]),
                    try owner.id("event_id", as: EventID.self) != eventId
                {
                    return .itemIdTaken
                }
            }
            let existing = try await connection.query(
                "SELECT id, name FROM pickup_items WHERE event_id = ?", [.id(eventId)])
            for row in existing where !listed.contains(try row.id("id", as: PickupItemID.self)) {
                let id: PickupItemID = try row.id("id")
                if try await connection.queryOne("SELECT 1 FROM pickup_lines WHERE item_id = ? LIMIT 1", [.id(id)])
                    != nil
                {
                    return .itemInUse(try row.text("name"))
                }
                try await connection.execute("DELETE FROM pickup_allowances WHERE item_id = ?", [.id(id)])
                try await connection.execute("DELETE FROM pickup_entitlements WHERE item_id = ?", [.id(id)])
                try await connection.execute("DELETE FROM pickup_items WHERE id = ?", [.id(id)])
            }
            for (position, item) in catalog.items.enumerated() {
                try await connection.execute(
                    """
                    INSERT INTO pickup_items (id, tenant_id, event_id, name, stock, position) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, stock = excluded.stock,
                        position = excluded.position
                    """,
                    [
                        .id(item.id), .id(caller.tenantId), .id(eventId), .text(item.name),
                        item.stock.map { .int(Int64($0)) } ?? .null, .int(Int64(position)),
                    ])
                try await connection.execute("DELETE FROM pickup_allowances WHERE item_id = ?", [.id(item.id)])
            }
            for allowance in catalog.allowances where allowance.quantity > 0 {
                try await connection.execute(
                    "INSERT INTO pickup_allowances (item_id, access_type_id, quantity) VALUES (?, ?, ?)",
                    [.id(allowance.itemId), .id(allowance.accessTypeId), .int(Int64(allowance.quantity))])
            }
            return .saved(try await Self.pickupCatalog(connection, eventId: eventId))
        }
    }

    /// Sets guests' own entitlements (a quantity of 0 removes one). Answers how many changed and
    /// how many were already so.
    func setPickupEntitlements(
        eventId: EventID, entitlements: [PickupGuestEntitlement]
    ) async throws -> (changed: Int, unchanged: Int) {
        try await database.transaction { connection in
            var changed = 0
            for entitlement in entitlements {
                let current = try await connection.queryOne(
                    "SELECT quantity FROM pickup_entitlements WHERE item_id = ? AND guest_id = ?",
                    [.id(entitlement.itemId), .id(entitlement.guestId)]
                ).map { Int(try $0.int("quantity")) }
                guard current ?? 0 != entitlement.quantity else { continue }
                changed += 1
                if entitlement.quantity == 0 {
                    try await connection.execute(
                        "DELETE FROM pickup_entitlements WHERE item_id = ? AND guest_id = ?",
                        [.id(entitlement.itemId), .id(entitlement.guestId)])
                } else {
                    try await connection.execute(
                        """
                        INSERT INTO pickup_entitlements (item_id, guest_id, event_id, quantity) VALUES (?, ?, ?, ?)
                        ON CONFLICT (item_id, guest_id) DO UPDATE SET quantity = excluded.quantity
                        """,
                        [
                            .id(entitlement.itemId), .id(entitlement.guestId), .id(eventId),
                            .int(Int64(entitlement.quantity)),
                        ])
                }
            }
            return (changed, entitlements.count - changed)
        }
    }

    /// The event's guests' ids by lower-cased e-mail (for the entitlement import).
    func guestIdsByEmail(eventId: EventID) async throws -> [String: [GuestID]] {
        try await database.read { connection in
            var byEmail: [String: [GuestID]] = [:]
            for row in try await connection.query("SELECT id, email FROM guests WHERE event_id = ?", [.id(eventId)]) {
                byEmail[try row.text("email").lowercased(), default: []].append(try row.id("id"))
            }
            return byEmail
        }
    }

    private static func storedPickup(
        _ connection: any SQLConnection, _ id: PickupRedemptionID
    ) async throws
        -> StoredPickupRedemption?
    {
        guard
            let row = try await connection.queryOne(
                """
                SELECT r.id, r.guest_id, r.device_id, r.by_name, r.scanned_at, r.at, g.name AS guest_name
                FROM pickup_redemptions r JOIN guests g ON g.id = r.guest_id WHERE r.id = ?
                """, [.id(id)])
        else { return nil }
        let lines = try await connection.query(
            """
            SELECT l.item_id, i.name, l.quantity, l.over FROM pickup_lines l JOIN pickup_items i ON i.id = l.item_id
            WHERE l.redemption_id = ? ORDER BY l.position
            """, [.id(id)])
        return StoredPickupRedemption(
            id: try row.id("id"), guestId: try row.id("guest_id"), guestName: try row.text("guest_name"),
            lines: try lines.map {
                StoredPickupLine(
                    itemId: try $0.id("item_id"), itemName: try $0.text("name"), quantity: Int(try $0.int("quantity")),
                    over: Int(try $0.int("over")))
            },
            deviceId: try row.text("device_id"), byName: try row.text("by_name"), scannedAt: try row.date("scanned_at"),
            at: try row.date("at"))
    }

    func recordPickup(
        caller: Caller, eventId: EventID, redemption: PickupRedemption, now: Date
    ) async throws -> PickupWrite {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil else { return .notFound }
            if let existing = try await connection.queryOne(
                "SELECT event_id, tenant_id FROM pickup_redemptions WHERE id = ?", [.id(redemption.id)])
            {
                let stored = try await Self.storedPickup(connection, redemption.id)
                let event: EventID = try existing.id("event_id")
                let tenant: TenantID = try existing.id("tenant_id")
                guard let stored, event == eventId, tenant == caller.tenantId, stored.guestId == redemption.guestId,
                    stored.deviceId == redemption.deviceId, stored.scannedAt == redemption.scannedAt,
                    stored.lines.map({ PickupLine(itemId: $0.itemId, quantity: $0.quantity) }) == redemption.lines
                else { return .idTaken }
                return .replayed(stored)
            }
            guard
                try await connection.queryOne(
                    "SELECT 1 FROM guests WHERE id = ? AND event_id = ?", [.id(redemption.guestId), .id(eventId)])
                    != nil
            else { return .unknownGuest }
            let items = Set(
                try await connection.query("SELECT id FROM pickup_items WHERE event_id = ?", [.id(eventId)])
                    .map { try $0.id("id", as: PickupItemID.self) })
            guard redemption.lines.allSatisfy({ items.contains($0.itemId) }) else { return .unknownItem }
            let byName =
                try await connection.queryOne("SELECT name FROM users WHERE id = ?", [.id(caller.userId)])?.text("name")
                ?? ""
            try await connection.execute(
                """
                INSERT INTO pickup_redemptions (id, tenant_id, event_id, guest_id, device_id, user_id, by_name,
                    scanned_at, at, flagged)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                """,
                [
                    .id(redemption.id), .id(caller.tenantId), .id(eventId), .id(redemption.guestId),
                    .text(redemption.deviceId), .id(caller.userId), .text(byName), .date(redemption.scannedAt),
                    .date(now),
                ])
            for (position, line) in redemption.lines.enumerated() {
                try await connection.execute(
                    """
                    INSERT INTO pickup_lines (redemption_id, item_id, guest_id, quantity, over, position)
                    VALUES (?, ?, ?, ?, 0, ?)
                    """,
                    [
                        .id(redemption.id), .id(line.itemId), .id(redemption.guestId), .int(Int64(line.quantity)),
                        .int(Int64(position)),
                    ])
            }
            try await Self.markOverRedemptions(
                connection, eventId: eventId, guestId: redemption.guestId, items: redemption.lines.map(\.itemId))
            guard let stored = try await Self.storedPickup(connection, redemption.id) else { return .idTaken }
            return .recorded(stored)
        }
    }

    /// Recounts, for each of `items`, the guest's lines in scan order against what the ticket
    /// allows (``PickupRules/overRedeemed(allowed:quantities:)``): an earlier handing-out that
    /// arrives later takes its place in the order, and the one after it carries the excess.
    private static func markOverRedemptions(
        _ connection: any SQLConnection, eventId: EventID, guestId: GuestID, items: [PickupItemID]
    ) async throws {
        guard
            let guest = try await connection.queryOne(
                "SELECT access_type_id, status FROM guests WHERE id = ?", [.id(guestId)])
        else { return }
        let admissible = (GuestStatus(rawValue: try guest.text("status")) ?? .revoked).isAdmissible
        let accessType: AccessTypeID = try guest.id("access_type_id")
        var touched: Set<String> = []
        for item in Set(items) {
            var allowed = 0
            if admissible {
                let allowance = try await connection.queryOne(
                    "SELECT quantity FROM pickup_allowances WHERE item_id = ? AND access_type_id = ?",
                    [.id(item), .id(accessType)])
                let own = try await connection.queryOne(
                    "SELECT quantity FROM pickup_entitlements WHERE item_id = ? AND guest_id = ?",
                    [.id(item), .id(guestId)])
                allowed =
                    PickupRules.entitlement(
                        accessType: [item: Int(try allowance?.int("quantity") ?? 0)],
                        guest: [item: Int(try own?.int("quantity") ?? 0)]
                    )[item] ?? 0
            }
            let lines = try await connection.query(
                """
                SELECT l.redemption_id, l.quantity FROM pickup_lines l
                JOIN pickup_redemptions r ON r.id = l.redemption_id
                WHERE l.guest_id = ? AND l.item_id = ? ORDER BY r.scanned_at, r.id
                """, [.id(guestId), .id(item)])
            let over = PickupRules.overRedeemed(
                allowed: allowed, quantities: try lines.map { Int(try $0.int("quantity")) })
            for (row, excess) in zip(lines, over) {
                let redemption = try row.text("redemption_id")
                touched.insert(redemption)
                try await connection.execute(
                    "UPDATE pickup_lines SET over = ? WHERE redemption_id = ? AND item_id = ?",
                    [.int(Int64(excess)), .text(redemption), .id(item)])
            }
        }
        for redemption in touched {
            try await connection.execute(
                """
                UPDATE pickup_redemptions SET flagged =
                    CASE WHEN EXISTS (SELECT 1 FROM pickup_lines WHERE redemption_id = ? AND over > 0) THEN 1 ELSE 0 END
                WHERE id = ?
                """, [.text(redemption), .text(redemption)])
        }
    }

    /// Everything a pickup station pulls and the console shows.
    func pickupReport(eventId: EventID, limit: Int = 100) async throws -> PickupReport {
        try await database.read { connection in
            let catalog = try await Self.pickupCatalog(connection, eventId: eventId)
            let entitlements = try await connection.query(
                "SELECT guest_id, item_id, quantity FROM pickup_entitlements WHERE event_id = ? ORDER BY guest_id, item_id",
                [.id(eventId)])
            let perStation = try await connection.query(
                """
                SELECT r.device_id, l.item_id, SUM(l.quantity) AS n, SUM(l.over) AS over FROM pickup_lines l
                JOIN pickup_redemptions r ON r.id = l.redemption_id
                WHERE r.event_id = ? GROUP BY r.device_id, l.item_id ORDER BY r.device_id, l.item_id
                """, [.id(eventId)])
            let perGuest = try await connection.query(
                """
                SELECT l.guest_id, l.item_id, SUM(l.quantity) AS n FROM pickup_lines l
                JOIN pickup_redemptions r ON r.id = l.redemption_id
                WHERE r.event_id = ? GROUP BY l.guest_id, l.item_id ORDER BY l.guest_id, l.item_id
                """, [.id(eventId)])
            var redeemed: [PickupItemID: Int] = [:]
            var over: [PickupItemID: Int] = [:]
            let stations = try perStation.map { row in
                let count = PickupStationCount(
                    deviceId: try row.text("device_id"), itemId: try row.id("item_id"), redeemed: Int(try row.int("n")))
                redeemed[count.itemId, default: 0] += count.redeemed
                over[count.itemId, default: 0] += Int(try row.int("over"))
                return count
            }
            let flagged = try await connection.query(
                "SELECT id FROM pickup_redemptions WHERE event_id = ? AND flagged = 1 ORDER BY at DESC, id LIMIT ?",
                [.id(eventId), .int(Int64(limit))])
            var overRedemptions: [StoredPickupRedemption] = []
            for row in flagged {
                if let stored = try await Self.storedPickup(connection, try row.id("id")) {
                    overRedemptions.append(stored)
                }
            }
            return PickupReport(
                catalog: catalog,
                entitlements: try entitlements.map {
                    PickupGuestEntitlement(
                        guestId: try $0.id("guest_id"), itemId: try $0.id("item_id"),
                        quantity: Int(try $0.int("quantity")))
                },
                stock: catalog.items.map {
                    PickupStock(
                        itemId: $0.id, name: $0.name, stock: $0.stock, redeemed: redeemed[$0.id] ?? 0,
                        over: over[$0.id] ?? 0)
                },
                stations: stations,
                collected: try perGuest.map {
                    PickupCollected(
                        guestId: try $0.id("guest_id"), itemId: try $0.id("item_id"), quantity: Int(try $0.int("n")))
                },
                overRedemptions: overRedemptions)
        }
    }
}
