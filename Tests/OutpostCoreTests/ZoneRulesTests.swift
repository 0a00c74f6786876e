import Foundation
import Testing

@testable import OutpostCore

/// Zone access control's decision as a table: access type (its access to the zone, or none) ×
/// the time against the windows × the station's direction × whether the guest is inside or
/// entered before × the zone's occupancy, each row with its expected outcome.
@Suite("Zone rules")
struct ZoneRulesTests {
    static let nine = Date(timeIntervalSince1970: 1_797_066_000)  // 2026-12-12 09:00 UTC
    static func at(_ hours: Double) -> Date { nine.addingTimeInterval(hours * 3600) }
    /// Workshop A: 14:00–16:00 and 17:00–18:00 (hours after nine: 5–7, 8–9).
    static let workshop = ZoneAccess(
        windows: [ZoneWindow(opens: at(5), closes: at(7)), ZoneWindow(opens: at(8), closes: at(9))], reEntry: false)
    static let lounge = ZoneAccess(windows: [], reEntry: true)

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var status: GuestStatus = .confirmed
        var access: ZoneAccess?
        var presence: ZonePresence = .never
        var direction: ZoneDirection = .entry
        var now: Date = ZoneRulesTests.at(5.5)
        var occupancy = 0
        var capacity: Int? = nil
        var expected: ZoneDecision

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        // Access type × zone.
        Row(name: "VIP in the lounge", access: lounge, expected: .enter),
        Row(name: "general ticket at the lounge", access: nil, expected: .refuse(.notValidForZone)),
        Row(name: "cancelled ticket", status: .cancelled, access: lounge, expected: .refuse(.notAdmissible)),
        Row(name: "revoked ticket", status: .revoked, access: lounge, expected: .refuse(.notAdmissible)),
        // Time windows.
        Row(name: "workshop before it opens", access: workshop, now: at(4), expected: .refuse(.notYetOpen(at(5)))),
        Row(name: "workshop at the opening instant", access: workshop, now: at(5), expected: .enter),
        Row(
            name: "workshop at its closing instant", access: workshop, now: at(7), expected: .refuse(.notYetOpen(at(8)))
        ),
        Row(name: "workshop in its second window", access: workshop, now: at(8.5), expected: .enter),
        Row(name: "workshop after the last window", access: workshop, now: at(9), expected: .refuse(.closed(at(9)))),
        // Re-entry.
        Row(
            name: "workshop again after leaving (no re-entry)", access: workshop,
            presence: ZonePresence(inside: false, enteredBefore: true), expected: .refuse(.noReEntry)),
        Row(
            name: "lounge again after leaving (re-entry)", access: lounge,
            presence: ZonePresence(inside: false, enteredBefore: true), expected: .enter),
        Row(
            name: "inside already, entry station, no re-entry", access: workshop,
            presence: ZonePresence(inside: true, enteredBefore: true), expected: .refuse(.noReEntry)),
        Row(
            name: "inside already, entry station, re-entry (a missed exit)", access: lounge,
            presence: ZonePresence(inside: true, enteredBefore: true), expected: .enter),
        // Direction.
        Row(
            name: "exit station, inside", access: workshop, presence: ZonePresence(inside: true, enteredBefore: true),
            direction: .exit, expected: .leave),
        Row(name: "exit station, never entered (an entry not synced)", access: nil, direction: .exit, expected: .leave),
        Row(
            name: "exit station, cancelled ticket leaves too", status: .cancelled, access: lounge, direction: .exit,
            expected: .leave),
        Row(name: "exit station, after hours", access: workshop, direction: .exit, now: at(10), expected: .leave),
        Row(
            name: "both ways, inside: out", access: workshop, presence: ZonePresence(inside: true, enteredBefore: true),
            direction: .both, expected: .leave),
        Row(name: "both ways, outside: in", access: workshop, direction: .both, expected: .enter),
        Row(
            name: "both ways, outside, no re-entry", access: workshop,
            presence: ZonePresence(inside: false, enteredBefore: true), direction: .both, expected: .refuse(.noReEntry)),
        Row(name: "both ways, outside, not valid", access: nil, direction: .both, expected: .refuse(.notValidForZone)),
        // Capacity.
        Row(name: "room left", access: lounge, occupancy: 49, capacity: 50, expected: .enter),
        Row(name: "full", access: lounge, occupancy: 50, capacity: 50, expected: .refuse(.full(capacity: 50))),
        Row(
            name: "over full (offline stations)", access: lounge, occupancy: 53, capacity: 50,
            expected: .refuse(.full(capacity: 50))),
        Row(
            name: "full, but leaving", access: lounge, presence: ZonePresence(inside: true, enteredBefore: true),
            direction: .exit, occupancy: 50, capacity: 50, expected: .leave),
        Row(name: "no capacity", access: lounge, occupancy: 10_000, expected: .enter),
        // The order of the reasons: validity before time before re-entry before capacity.
        Row(name: "not valid and full", access: nil, occupancy: 50, capacity: 50, expected: .refuse(.notValidForZone)),
        Row(
            name: "too early and full", access: workshop, now: at(4), occupancy: 50, capacity: 50,
            expected: .refuse(.notYetOpen(at(5)))),
        Row(
            name: "no re-entry and full", access: workshop, presence: ZonePresence(inside: false, enteredBefore: true),
            occupancy: 50, capacity: 50, expected: .refuse(.noReEntry)),
    ]

    @Test("zone-rules-decision-table: access type × zone × time × direction × inside-or-not", arguments: rows)
    func decisionTable(row: Row) {
        #expect(
            ZoneRules.decide(
                status: row.status, access: row.access, presence: row.presence, direction: row.direction, now: row.now,
                occupancy: row.occupancy, capacity: row.capacity) == row.expected)
    }

    @Test("zone-refusal-sentences: the reason in one sentence, times in the event's time zone")
    func sentences() throws {
        let oslo = try #require(TimeZone(identifier: "Europe/Oslo"))
        #expect(
            ZoneRefusal.notYetOpen(Self.at(5)).sentence(zone: "Workshop A", timeZone: oslo)
                == "Workshop A opens at 15:00.")
        #expect(ZoneRefusal.notValidForZone.sentence(zone: "VIP lounge", timeZone: oslo) == "Not valid for VIP lounge.")
        #expect(
            ZoneRefusal.noReEntry.sentence(zone: "Workshop A", timeZone: oslo)
                == "Already inside Workshop A once: no re-entry.")
        #expect(ZoneRefusal.closed(Self.at(9)).sentence(zone: "Hall", timeZone: .gmt) == "Hall closed at 18:00.")
    }
}
