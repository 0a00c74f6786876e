import Foundation
import HTTPTypes
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The console's walk-ins: the organizer sets an access type's walk-in places, then sees the
/// places, the end-of-shift summary by device with its CSV, and everyone added at the door with
/// who, what they paid, and the possible duplicates flagged.
@Suite("Console walk-ins")
struct ConsoleWalkInTests {
    @Test(
        "console-walkins: an access type made with walk-in places; the walk-ins page lists who added whom on which device, what was paid, a possible duplicate and the places; the CSV is the API's; staff are refused",
        arguments: StoreKind.allCases)
    func walkInsPage(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let browser = try await ConsoleTests.signedIn(api)
            let form = try await browser.get("/admin/events/\(id)")
            #expect(form.text.contains("id=\"access-type-capacity\""))
            let bad = try await browser.post(
                "/admin/events/\(id)/access-types",
                [("name", "Door"), ("walkInAllowed", "true"), ("walkInCapacity", "ten")])
            #expect(bad.status == 422 && bad.text.contains("The walk-in places must be a whole number"), "\(bad.text)")
            let made = try await browser.post(
                "/admin/events/\(id)/access-types",
                [("name", "Door"), ("walkInAllowed", "true"), ("walkInCapacity", "30")])
            #expect(made.status == 303, "\(made.text)")
            let event = try await browser.get("/admin/events/\(id)")
            #expect(event.text.contains("30 walk-in places") && event.text.contains("id=\"walkins-link\""))
            let door = try #require(
                try await api.lab(world.organizer).rosterPage(event: world.event.id, limit: 1).accessTypes.first {
                    $0.name == "Door"
                })
            #expect(door.walkInCapacity == 30)
            let lab = api.lab(world.staff1)
            let lease = try OutpostJSON.decode(
                WalkInLease.self,
                from: try await lab.leaseWalkIns(
                    event: world.event.id, WalkInLeaseRequest(deviceId: "door-a", accessTypeId: door.id)
                ).body)
            let first = WalkInRequest(
                guestId: .random(), deviceId: "door-a", accessTypeId: door.id, name: "Ana <i>Ruiz</i>",
                email: "ana@example.org", payment: WalkInPayment(amountMinor: 1_250, currency: "EUR", method: .card),
                addedAt: api.clock.now, slot: WalkInSlot(leaseId: lease.id, slot: 1))
            let second = WalkInRequest(
                guestId: .random(), deviceId: "door-b", accessTypeId: world.accessType.id, name: "A. Ruiz",
                email: "ANA@example.org", payment: nil, addedAt: api.clock.now.addingTimeInterval(60), slot: nil)
            #expect(try await lab.addWalkIn(event: world.event.id, first).status == 201)
            #expect(try await lab.addWalkIn(event: world.event.id, second).status == 201)
            let page = try await browser.get("/admin/events/\(id)/walkins")
            #expect(page.status == 200)
            #expect(page.text.contains("Ana &lt;i&gt;Ruiz&lt;/i&gt;") && !page.text.contains("<i>Ruiz"), "escaped")
            #expect(
                page.text.contains("12.50 EUR (card)") && page.text.contains("door-a") && page.text.contains("Alex"))
            #expect(
                page.text.contains(
                    "possible duplicate of <a href=\"/admin/events/\(id)/guests/\(first.guestId.wire)\">Ana &lt;i&gt;Ruiz&lt;/i&gt;</a>"
                ), "\(page.text)")
            #expect(
                page.text.contains("<td>Door</td><td>30</td><td>1</td><td>\(lease.granted)</td><td>1</td><td>0</td>"))
            let csv = try await browser.get("/admin/events/\(id)/walkins.csv")
            let apiCSV = try await api.lab(world.organizer).expect(
                API.exportWalkInSummary.line(world.event.id), what: "the CSV")
            #expect(csv.status == 200 && csv.text == String(decoding: apiCSV.body, as: UTF8.self))
            #expect(csv.text.contains("door-a,1,card,EUR,1,12.50"))
            let staff = try await ConsoleTests.signedIn(api, "alex@acme.test", password: "staff-password")
            #expect(try await staff.get("/admin/events/\(id)/walkins").status == 403)
        }
    }
}
