import Foundation
import Testing

@testable import OutpostCore

/// Product pickup's decision as a table (ticket status × what is asked × entitlement × what was
/// collected × the station's stock) and the server's reconciliation of offline double
/// redemptions, pure.
@Suite("Pickup rules")
struct PickupRulesTests {
    static let shirt = PickupItemID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    static let lunch = PickupItemID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a2")!)
    static let bag = PickupItemID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a3")!)
    static let names = [shirt: "T-shirt M", lunch: "Lunch day 1", bag: "Welcome bag"]

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var status: GuestStatus = .confirmed
        var request: [PickupItemID: Int]
        var entitled: [PickupItemID: Int] = [shirt: 1, lunch: 2]
        var collected: [PickupItemID: Int] = [:]
        var stock: [PickupItemID: Int] = [:]
        var expected: PickupDecision

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "one shirt", request: [shirt: 1], expected: .redeem([shirt: 1])),
        Row(
            name: "shirt and both lunches at once", request: [shirt: 1, lunch: 2],
            expected: .redeem([shirt: 1, lunch: 2])),
        Row(name: "zero quantities are not asked", request: [shirt: 1, bag: 0], expected: .redeem([shirt: 1])),
        Row(name: "nothing asked", request: [:], expected: .refuse(.nothingToCollect)),
        Row(name: "cancelled ticket", status: .cancelled, request: [shirt: 1], expected: .refuse(.notAdmissible)),
        Row(name: "revoked ticket", status: .revoked, request: [shirt: 1], expected: .refuse(.notAdmissible)),
        Row(name: "an item the ticket lacks", request: [bag: 1], expected: .refuse(.notEntitled(item: "Welcome bag"))),
        Row(
            name: "the shirt collected before", request: [shirt: 1], collected: [shirt: 1],
            expected: .refuse(.alreadyCollected(item: "T-shirt M", allowed: 1))),
        Row(
            name: "a second lunch of two", request: [lunch: 1], collected: [lunch: 1], expected: .redeem([lunch: 1])),
        Row(
            name: "two lunches after one", request: [lunch: 2], collected: [lunch: 1],
            expected: .refuse(.alreadyCollected(item: "Lunch day 1", allowed: 2))),
        Row(
            name: "out of stock", request: [shirt: 1], stock: [shirt: 0],
            expected: .refuse(.outOfStock(item: "T-shirt M", left: 0))),
        Row(
            name: "less stock than asked", request: [lunch: 2], stock: [lunch: 1],
            expected: .refuse(.outOfStock(item: "Lunch day 1", left: 1))),
        Row(
            name: "stock counted below zero shows none", request: [shirt: 1], stock: [shirt: -2],
            expected: .refuse(.outOfStock(item: "T-shirt M", left: 0))),
        Row(name: "the last one in stock", request: [shirt: 1], stock: [shirt: 1], expected: .redeem([shirt: 1])),
        Row(
            name: "one refused item refuses the whole step (names in order)", request: [shirt: 1, bag: 1],
            expected: .refuse(.notEntitled(item: "Welcome bag"))),
    ]

    @Test("pickup-rules: the decision table", arguments: rows)
    func decisionTable(_ row: Row) {
        let decision = PickupRules.decide(
            status: row.status, request: row.request, entitled: row.entitled, collected: row.collected,
            stock: row.stock, names: Self.names)
        #expect(decision == row.expected)
    }

    @Test("pickup-rules: a guest's import adds to the access type's allowance; what is left subtracts collections")
    func entitlementAndRemaining() {
        let entitled = PickupRules.entitlement(
            accessType: [Self.shirt: 1, Self.lunch: 1], guest: [Self.lunch: 1, Self.bag: 1])
        #expect(entitled == [Self.shirt: 1, Self.lunch: 2, Self.bag: 1])
        #expect(PickupRules.entitlement(accessType: [Self.shirt: 0], guest: [:]).isEmpty)
        let left = PickupRules.remaining(entitled: entitled, collected: [Self.shirt: 1, Self.lunch: 1, Self.bag: 3])
        #expect(left == [Self.lunch: 1])
    }

    @Test(
        "pickup-double-redemption: the first handings-out stand, what a later one adds past the entitlement is flagged",
        arguments: [
            (1, [1, 1], [0, 1]),  // two offline stations, one shirt
            (2, [1, 1, 1], [0, 0, 1]),
            (2, [3], [1]),  // one step asking for more than allowed
            (2, [1, 2], [0, 1]),
            (0, [1, 1], [1, 1]),  // a cancelled ticket allows nothing
            (1, [0, 1], [0, 0]),
            (3, [], []),
        ] as [(Int, [Int], [Int])])
    func overRedemption(_ allowed: Int, _ quantities: [Int], _ expected: [Int]) {
        #expect(PickupRules.overRedeemed(allowed: allowed, quantities: quantities) == expected)
    }

    @Test("pickup-rules: every refusal says why in one sentence")
    func sentences() {
        #expect(
            PickupRefusal.alreadyCollected(item: "T-shirt M", allowed: 1).sentence == "T-shirt M was already collected."
        )
        #expect(
            PickupRefusal.alreadyCollected(item: "Lunch", allowed: 2).sentence
                == "All 2 of Lunch were already collected.")
        #expect(PickupRefusal.outOfStock(item: "Bag", left: 0).sentence == "Bag is out of stock.")
        #expect(PickupRefusal.outOfStock(item: "Bag", left: 2).sentence == "Only 2 of Bag left.")
        #expect(PickupRefusal.notEntitled(item: "Bag").sentence == "This ticket does not include Bag.")
    }
}
