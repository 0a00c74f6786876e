import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Badges on the server: the event's layout (everyone who works the event reads it, organizers
/// set it) and the prints devices report, each stored once under its id, a reprint only with a
/// reason, each audited.
@Suite("Badge layouts and prints")
struct BadgeContractTests {
    static func record(
        _ guest: GuestID, reprint: Bool = false, reason: String? = nil, id: BadgePrintID = .random()
    ) -> BadgePrintRecord {
        BadgePrintRecord(
            id: id, guestId: guest, reprint: reprint, reason: reason, deviceId: "door-1",
            printedAt: Date(millisecondsSince1970: 1_795_000_000_000))
    }

    @Test(
        "badge-layout-roles: an event's layout is the standard one until set; staff read it, only organizers set it; a layout that is not one is refused",
        arguments: StoreKind.allCases)
    func layoutRoles(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let staff = api.lab(world.staff1)
            #expect(try await staff.call(API.badgeLayout, event, what: "layout") == .standard)
            let wanted = BadgeLayout(
                label: .label62x100, secondLine: .email, band: false, qr: true, printOnCheckIn: true)
            let refused = try await staff.request(API.setBadgeLayout.line(event), json: wanted)
            #expect(refused.status == 403)
            #expect(try await api.lab(world.organizer).setBadgeLayout(event: event, wanted) == wanted)
            #expect(try await staff.call(API.badgeLayout, event, what: "layout") == wanted)
            let bad = try await api.lab(world.organizer).request(
                API.setBadgeLayout.line(event), json: ["label": "A0", "secondLine": "none"])
            #expect(bad.status == 400 || bad.status == 422)
            #expect(try await staff.call(API.badgeLayout, event, what: "layout") == wanted, "unchanged")
        }
    }

    @Test(
        "badge-print-record: a print is stored once under its id (sent again, the same answer; another body under it 409); a reprint needs a reason and a first print has none; another event's guest is refused; the list counts prints and reprints for organizers and support, not door staff; each print is audited",
        arguments: StoreKind.allCases)
    func printRecord(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let alex = api.lab(world.staff1)
            let guest = world.guests[0].id
            let first = Self.record(guest)
            let stored = try await alex.recordBadgePrint(event: event, first)
            #expect(stored.status == 201)
            let again = try await alex.recordBadgePrint(event: event, first)
            #expect(again.status == 201 && again.body == stored.body, "the same answer")
            var other = first
            other.deviceId = "door-2"
            #expect(try await alex.recordBadgePrint(event: event, other).status == 409)
            #expect(try await alex.recordBadgePrint(event: event, Self.record(guest, reprint: true)).status == 422)
            #expect(
                try await alex.recordBadgePrint(event: event, Self.record(guest, reprint: true, reason: "  ")).status
                    == 422)
            #expect(try await alex.recordBadgePrint(event: event, Self.record(guest, reason: "why")).status == 422)
            #expect(
                try await alex.recordBadgePrint(event: event, Self.record(world.otherGuest.id)).status == 422,
                "another tenant's guest")
            let reprint = Self.record(guest, reprint: true, reason: "name misspelt")
            #expect(try await alex.recordBadgePrint(event: event, reprint).status == 201)
            #expect(try await alex.request(API.listBadgePrints.line(event)).status == 403)
            let list = try await api.lab(world.organizer).badgePrints(event: event)
            #expect(list.printed == 1 && list.reprinted == 1)
            #expect(Set(list.prints.map(\.record.id)) == [first.id, reprint.id])
            #expect(list.prints.allSatisfy { $0.byName == "Alex" && $0.guestName == world.guests[0].name })
            let audit = try await api.audit(world.organizer, event: world.event).filter {
                $0.kind == .badgePrinted || $0.kind == .badgeReprinted
            }
            #expect(audit.map(\.kind) == [.badgePrinted, .badgeReprinted])
            #expect(audit.map(\.method) == ["badge", "name misspelt"])
            #expect(audit.allSatisfy { $0.deviceId == "door-1" && $0.guestId == guest })
        }
    }
}
