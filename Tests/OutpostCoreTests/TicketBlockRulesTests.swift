import Foundation
import OutpostCore
import Testing

/// Who may name a ticket of a block, and when: a decision table over the namer, whether the
/// ticket is named, its status, the deadline and the organizer's door-naming setting.
@Suite("Ticket block rules")
struct TicketBlockRulesTests {
    static let deadline = Date(timeIntervalSince1970: 1_800_000_000)
    static let before = deadline.addingTimeInterval(-1)
    static let after = deadline

    struct Row: Sendable, CustomStringConvertible {
        var namer: TicketNamer
        var named: Bool
        var admissible = true
        var doorNaming = false
        var now: Date
        var expected: TicketNamingRefusal?

        var description: String { "\(namer) named:\(named) door:\(doorNaming) at:\(now.timeIntervalSince1970)" }
    }

    static let table: [Row] = [
        // The partner names and renames until the deadline, never at or after it.
        Row(namer: .partner, named: false, now: before, expected: nil),
        Row(namer: .partner, named: true, now: before, expected: nil),
        Row(namer: .partner, named: false, now: after, expected: .deadlinePassed(deadline)),
        Row(namer: .partner, named: true, now: after, expected: .deadlinePassed(deadline)),
        Row(namer: .partner, named: false, doorNaming: true, now: after, expected: .deadlinePassed(deadline)),
        // The organizer at any time.
        Row(namer: .organizer, named: true, now: after, expected: nil),
        Row(namer: .organizer, named: false, now: before, expected: nil),
        // The door: an unnamed ticket, only when allowed, before or after the deadline.
        Row(namer: .door, named: false, doorNaming: true, now: after, expected: nil),
        Row(namer: .door, named: false, doorNaming: true, now: before, expected: nil),
        Row(namer: .door, named: true, doorNaming: true, now: after, expected: .alreadyNamed),
        Row(namer: .door, named: false, doorNaming: false, now: after, expected: .noDoorNaming(partner: "Acme")),
        Row(namer: .door, named: true, doorNaming: false, now: after, expected: .noDoorNaming(partner: "Acme")),
        // A cancelled or revoked ticket is named by no one.
        Row(namer: .organizer, named: false, admissible: false, now: before, expected: .notAdmissible),
        Row(namer: .partner, named: false, admissible: false, now: before, expected: .notAdmissible),
        Row(namer: .door, named: false, admissible: false, doorNaming: true, now: before, expected: .notAdmissible),
    ]

    @Test("block-naming-rules: the decision table of who names a block's ticket when", arguments: table)
    func naming(row: Row) {
        #expect(
            TicketBlockRules.naming(
                by: row.namer, named: row.named, admissible: row.admissible, deadline: Self.deadline,
                doorNaming: row.doorNaming, partner: "Acme", now: row.now) == row.expected)
    }

    @Test("block-scope: the door card's scope names the partner's kind, name and the block's size")
    func scope() {
        #expect(TicketBlockRules.scope(kind: .sponsor, partner: "Acme", size: 20) == "Sponsor: Acme (block of 20)")
        #expect(
            TicketBlockRules.scope(kind: .agency, partner: "Talks Ltd", size: 3) == "Agency: Talks Ltd (block of 3)")
        #expect(TicketNamingRefusal.noDoorNaming(partner: "Acme").sentence.hasPrefix("Acme names its own tickets"))
    }
}
