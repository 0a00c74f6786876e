import Foundation

/// Why a pickup station would not hand something out: shown on the station in one sentence.
public enum PickupRefusal: Sendable, Hashable {
    /// The ticket is cancelled or revoked.
    case notAdmissible
    /// Nothing was chosen (or the guest has nothing left to collect).
    case nothingToCollect
    /// The guest may not collect this item (their access type or import does not grant it).
    case notEntitled(item: String)
    /// The guest already collected all they may of this item (`allowed` in all).
    case alreadyCollected(item: String, allowed: Int)
    /// The station's count of the item's stock is below what was asked for.
    case outOfStock(item: String, left: Int)

    public var sentence: String {
        switch self {
        case .notAdmissible: "Nothing to collect: the ticket is cancelled or revoked."
        case .nothingToCollect: "Nothing left to collect on this ticket."
        case .notEntitled(let item): "This ticket does not include \(item)."
        case .alreadyCollected(let item, let allowed):
            allowed == 1 ? "\(item) was already collected." : "All \(allowed) of \(item) were already collected."
        case .outOfStock(let item, let left): left == 0 ? "\(item) is out of stock." : "Only \(left) of \(item) left."
        }
    }
}

/// A pickup station's decision for one request, before anything is written.
public enum PickupDecision: Sendable, Hashable {
    /// Hand these out (item and quantity, in the order asked).
    case redeem([PickupItemID: Int])
    case refuse(PickupRefusal)
}

/// Product pickup, shared by the pickup station (deciding offline from the synced items,
/// entitlements and counts) and the server (which keeps every handing-out and flags what went
/// beyond a ticket's entitlement). Pure.
public enum PickupRules {
    /// What a guest may collect in all: their access type's allowance plus what was imported for
    /// them (a guest entitlement adds to the access type's, it never takes away).
    public static func entitlement(
        accessType: [PickupItemID: Int], guest: [PickupItemID: Int]
    ) -> [PickupItemID: Int] {
        accessType.merging(guest, uniquingKeysWith: +).filter { $0.value > 0 }
    }

    /// What is left to collect: the entitlement less what was collected (items with none left
    /// are absent).
    public static func remaining(
        entitled: [PickupItemID: Int], collected: [PickupItemID: Int]
    ) -> [PickupItemID: Int] {
        var left: [PickupItemID: Int] = [:]
        for (item, allowed) in entitled where allowed - (collected[item] ?? 0) > 0 {
            left[item] = allowed - (collected[item] ?? 0)
        }
        return left
    }

    /// Decides a request at a pickup station.
    /// - Parameters:
    ///   - status: the guest's ticket status.
    ///   - request: the items and quantities asked for (zero quantities are ignored).
    ///   - entitled: what the ticket allows in all; `collected`: what the station knows was
    ///     collected on it (at every station, as last synced, and here since).
    ///   - stock: what the station counts as left of each item; an item absent has no limit.
    ///   - names: the items' names, for the sentence.
    public static func decide(
        status: GuestStatus, request: [PickupItemID: Int], entitled: [PickupItemID: Int],
        collected: [PickupItemID: Int], stock: [PickupItemID: Int], names: [PickupItemID: String]
    ) -> PickupDecision {
        guard status.isAdmissible else { return .refuse(.notAdmissible) }
        let asked = request.filter { $0.value > 0 }
        guard !asked.isEmpty else { return .refuse(.nothingToCollect) }
        // In a stable order, so the same request names the same item in its refusal everywhere.
        for (item, quantity) in asked.sorted(by: { (names[$0.key] ?? "", $0.key) < (names[$1.key] ?? "", $1.key) }) {
            let name = names[item] ?? "this item"
            let allowed = entitled[item] ?? 0
            guard allowed > 0 else { return .refuse(.notEntitled(item: name)) }
            guard (collected[item] ?? 0) + quantity <= allowed else {
                return .refuse(.alreadyCollected(item: name, allowed: allowed))
            }
            if let left = stock[item], left < quantity { return .refuse(.outOfStock(item: name, left: max(0, left))) }
        }
        return .redeem(asked)
    }

    /// The server's reconciliation of one guest's handings-out of one item, in scan order: how
    /// many of each went beyond the entitlement (`allowed`; a cancelled ticket allows none).
    /// The first ones stand; what a later one adds past the entitlement is its over-redemption.
    public static func overRedeemed(allowed: Int, quantities: [Int]) -> [Int] {
        var total = 0
        return quantities.map { quantity in
            let before = total
            total += quantity
            return max(0, total - max(allowed, before))
        }
    }
}
