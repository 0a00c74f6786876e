import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The pickup station (inside the EFx tab): each item with what this station counts left, the
/// scanned guest with what they may still collect, and the last answer in green or red.
package struct PickupStationScreen: ScreenModel, Sendable {
    /// An item and its count on this station (nil: no stock limit).
    package struct Stock: Sendable, Hashable {
        package var item: PickupItem
        package var left: Int?
    }

    /// An item the guest may still collect, and how many.
    package struct Entitled: Sendable, Hashable {
        package var item: PickupItem
        package var count: Int
    }

    package var stock: [Stock]
    package var guest: PickupState.Guest?
    /// What the guest may still collect, in the catalog's order.
    package var remaining: [Entitled]
    package var last: PickupState.Result?

    package var identifier: String { UIIdentifier.pickupStation }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.pickupStation, "Pickup station")]
        for entry in stock {
            let left = entry.left.map { "\($0) left" } ?? "no stock limit"
            elements.append(
                UIElement(
                    UIIdentifier.pickupStock, "\(entry.item.name): \(left)",
                    ["itemId": entry.item.id.wire, "left": entry.left.map(String.init) ?? ""]))
        }
        if let guest {
            let summary = remaining.isEmpty ? "nothing left to collect" : "may collect \(remaining.count) item(s)"
            elements.append(
                UIElement(UIIdentifier.pickupGuest, "\(guest.name): \(summary)", ["guestId": guest.id.wire]))
            for (index, entry) in remaining.enumerated() {
                elements.append(
                    UIElement(
                        UIIdentifier.pickupEntitlement, "\(index + 1). \(entry.item.name) × \(entry.count)",
                        ["itemId": entry.item.id.wire, "count": String(entry.count), "key": String(index + 1)]))
            }
        }
        if let last {
            elements.append(
                UIElement(UIIdentifier.pickupResult, last.sentence, ["result": last.handedOut ? "green" : "red"]))
        }
        return elements
    }
}
