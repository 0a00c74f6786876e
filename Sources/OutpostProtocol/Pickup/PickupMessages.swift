import Foundation
import OutpostCore

/// An item guests collect at a pickup station ("T-shirt M", "Lunch day 1"), with the stock the
/// organizer counted (none: no limit).
public struct PickupItem: Codable, Sendable, Hashable {
    public static let maxNameLength = 80

    public var id: PickupItemID
    public var name: String
    public var stock: Int?

    public init(id: PickupItemID, name: String, stock: Int? = nil) {
        self.id = id
        self.name = name
        self.stock = stock
    }
}

/// How many of an item every guest of an access type may collect.
public struct PickupAllowance: Codable, Sendable, Hashable {
    public var accessTypeId: AccessTypeID
    public var itemId: PickupItemID
    public var quantity: Int

    public init(accessTypeId: AccessTypeID, itemId: PickupItemID, quantity: Int) {
        self.accessTypeId = accessTypeId
        self.itemId = itemId
        self.quantity = quantity
    }
}

/// `GET` and `PUT /v1/events/{eventId}/pickup-items`: the event's items (in the organizer's
/// order) and what each access type may collect. A `PUT` replaces them all (an item already
/// handed out cannot be dropped).
public struct PickupCatalog: Codable, Sendable, Hashable {
    public static let maxItems = 100

    public var items: [PickupItem]
    public var allowances: [PickupAllowance]

    public init(items: [PickupItem], allowances: [PickupAllowance]) {
        self.items = items
        self.allowances = allowances
    }

    /// What `accessType` may collect, by item.
    public func allowance(for accessType: AccessTypeID) -> [PickupItemID: Int] {
        allowances.filter { $0.accessTypeId == accessType }.reduce(into: [:]) {
            $0[$1.itemId, default: 0] += $1.quantity
        }
    }
}

/// How many of an item one guest may collect on top of their access type's allowance (imported
/// by CSV: `email,item,quantity`).
public struct PickupGuestEntitlement: Codable, Sendable, Hashable {
    public var guestId: GuestID
    public var itemId: PickupItemID
    public var quantity: Int

    public init(guestId: GuestID, itemId: PickupItemID, quantity: Int) {
        self.guestId = guestId
        self.itemId = itemId
        self.quantity = quantity
    }
}

/// One item and how many of it in a handing-out.
public struct PickupLine: Codable, Sendable, Hashable {
    public var itemId: PickupItemID
    public var quantity: Int

    public init(itemId: PickupItemID, quantity: Int) {
        self.itemId = itemId
        self.quantity = quantity
    }
}

/// `PUT /v1/events/{eventId}/pickup-redemptions/{redemptionId}`: what a pickup station handed
/// one guest in one step, under the id its device made (sent again, the same answer).
public struct PickupRedemption: Codable, Sendable, Hashable {
    public static let maxLines = 50

    public var id: PickupRedemptionID
    public var guestId: GuestID
    public var lines: [PickupLine]
    public var deviceId: String
    public var scannedAt: Date

    public init(id: PickupRedemptionID, guestId: GuestID, lines: [PickupLine], deviceId: String, scannedAt: Date) {
        self.id = id
        self.guestId = guestId
        self.lines = lines
        self.deviceId = deviceId
        self.scannedAt = scannedAt
    }
}

/// A line as the server keeps it: `over` is how many of it went beyond the ticket's entitlement
/// (two offline stations handing out the same single item: the later one's). Kept and counted
/// in the stock all the same; the organizer sees it.
public struct StoredPickupLine: Codable, Sendable, Hashable {
    public var itemId: PickupItemID
    public var itemName: String
    public var quantity: Int
    public var over: Int

    public init(itemId: PickupItemID, itemName: String, quantity: Int, over: Int) {
        self.itemId = itemId
        self.itemName = itemName
        self.quantity = quantity
        self.over = over
    }
}

/// A handing-out as the server keeps it.
public struct StoredPickupRedemption: Codable, Sendable, Hashable {
    public var id: PickupRedemptionID
    public var guestId: GuestID
    public var guestName: String
    public var lines: [StoredPickupLine]
    public var deviceId: String
    public var byName: String
    public var scannedAt: Date
    /// When the server received it.
    public var at: Date

    public init(
        id: PickupRedemptionID, guestId: GuestID, guestName: String, lines: [StoredPickupLine], deviceId: String,
        byName: String, scannedAt: Date, at: Date
    ) {
        self.id = id
        self.guestId = guestId
        self.guestName = guestName
        self.lines = lines
        self.deviceId = deviceId
        self.byName = byName
        self.scannedAt = scannedAt
        self.at = at
    }

    /// Some of it went beyond the ticket's entitlement.
    public var isOverRedemption: Bool { lines.contains { $0.over > 0 } }
}

/// One item's count: its stock, how many were handed out (over-redemptions included: they left
/// the table), how many of those were beyond an entitlement, and what is left.
public struct PickupStock: Codable, Sendable, Hashable {
    public var itemId: PickupItemID
    public var name: String
    public var stock: Int?
    public var redeemed: Int
    public var over: Int

    public init(itemId: PickupItemID, name: String, stock: Int?, redeemed: Int, over: Int) {
        self.itemId = itemId
        self.name = name
        self.stock = stock
        self.redeemed = redeemed
        self.over = over
    }

    /// Stock less what was handed out (below zero when more went out than was counted in).
    public var left: Int? { stock.map { $0 - redeemed } }
}

/// How many of an item one station (a device) handed out.
public struct PickupStationCount: Codable, Sendable, Hashable {
    public var deviceId: String
    public var itemId: PickupItemID
    public var redeemed: Int

    public init(deviceId: String, itemId: PickupItemID, redeemed: Int) {
        self.deviceId = deviceId
        self.itemId = itemId
        self.redeemed = redeemed
    }
}

/// How many of an item one guest collected, at every station.
public struct PickupCollected: Codable, Sendable, Hashable {
    public var guestId: GuestID
    public var itemId: PickupItemID
    public var quantity: Int

    public init(guestId: GuestID, itemId: PickupItemID, quantity: Int) {
        self.guestId = guestId
        self.itemId = itemId
        self.quantity = quantity
    }
}

/// `GET /v1/events/{eventId}/pickup-report`: what a pickup station pulls to decide offline (the
/// catalog, every guest's own entitlements, what each guest collected) and what the console
/// shows (stock per item and per station, the over-redemptions).
public struct PickupReport: Codable, Sendable, Hashable {
    public var catalog: PickupCatalog
    public var entitlements: [PickupGuestEntitlement]
    public var stock: [PickupStock]
    public var stations: [PickupStationCount]
    public var collected: [PickupCollected]
    /// Newest first, at most 100.
    public var overRedemptions: [StoredPickupRedemption]

    public init(
        catalog: PickupCatalog, entitlements: [PickupGuestEntitlement], stock: [PickupStock],
        stations: [PickupStationCount], collected: [PickupCollected], overRedemptions: [StoredPickupRedemption]
    ) {
        self.catalog = catalog
        self.entitlements = entitlements
        self.stock = stock
        self.stations = stations
        self.collected = collected
        self.overRedemptions = overRedemptions
    }

    /// `guestId`'s own entitlements, by item.
    public func entitlements(of guestId: GuestID) -> [PickupItemID: Int] {
        entitlements.filter { $0.guestId == guestId }.reduce(into: [:]) { $0[$1.itemId, default: 0] += $1.quantity }
    }

    /// What `guestId` collected (as of this report), by item.
    public func collected(by guestId: GuestID) -> [PickupItemID: Int] {
        collected.filter { $0.guestId == guestId }.reduce(into: [:]) { $0[$1.itemId, default: 0] += $1.quantity }
    }
}
