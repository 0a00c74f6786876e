import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Check-ins on events the caller cannot see are visible to the caller's own
/// organizer, and to no one in the other tenant.
@Suite("Refused attempts")
struct RefusedAttemptTests {
    @Test(
        "refused-attempts-visible: a check-in on another tenant's event, an unassigned event or no event is listed for the caller's organizer and never for the other tenant",
        arguments: StoreKind.allCases)
    func refusedAttemptsVisible(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let unassigned = try await api.createEvent(world.organizer, name: "Staff party")
            let nowhere = EventID(UUID())
            for (index, event) in [world.otherEvent.id, unassigned.id, nowhere].enumerated() {
                let response = try await api.checkIn(
                    world.staff1, event: event, guest: world.otherGuest.id, deviceId: "door-\(index)")
                #expect(response.status == 404 && response.errorCode == "not_found")
            }
            let page: AuditPage = try await api.request(
                .get, "/v1/audit/refused", token: world.organizer.accessToken
            ).decode()
            #expect(page.entries.map(\.eventId) == [world.otherEvent.id, unassigned.id, nowhere])
            #expect(page.entries.allSatisfy { $0.userId == world.staff1.user.id && $0.guestId == world.otherGuest.id })
            #expect(page.entries.allSatisfy { $0.kind == .rejectedNotFound })
            #expect(page.entries.map(\.deviceId) == ["door-0", "door-1", "door-2"])
            // Paging.
            let first: AuditPage = try await api.request(
                .get, "/v1/audit/refused?limit=2", token: world.support.accessToken
            ).decode()
            #expect(first.entries.count == 2 && first.hasMore)
            let rest: AuditPage = try await api.request(
                .get, "/v1/audit/refused?since=\(first.cursor)", token: world.support.accessToken
            ).decode()
            #expect(rest.entries.map(\.eventId) == [nowhere] && !rest.hasMore)
            // The other tenant learns nothing: not in its list, not in its event's log.
            let theirs: AuditPage = try await api.request(
                .get, "/v1/audit/refused", token: world.otherOrganizer.accessToken
            ).decode()
            #expect(theirs.entries.isEmpty)
            #expect(try await api.audit(world.otherOrganizer, event: world.otherEvent).isEmpty)
            // Door staff do not read it.
            #expect(try await api.request(.get, "/v1/audit/refused", token: world.staff1.accessToken).status == 403)
        }
    }
}
