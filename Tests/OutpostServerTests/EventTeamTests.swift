import Foundation
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Per-event roles: check-in staff or support made one event's organizer, and no other's.
@Suite("Event teams")
struct EventTeamTests {
    static func staffPath(_ event: EventInfo, _ user: Session, role: String? = nil) -> String {
        API.assignStaff.path(event.id, user.user.id, query: [("role", role)])
    }

    @Test(
        "event-organizer-one-event: check-in staff made one event's organizer edit it, its access types and guests, and read its stats and staff; on another event they stay check-in staff (403), off its staff it is 404; the organisation's routes and the team stay the organizers'; the clone keeps the role; taking the role back ends it",
        arguments: StoreKind.allCases)
    func oneEvent(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let alex = world.staff1
            let spring = try await api.createEvent(world.organizer, name: "Spring Fair")
            let springType = try await api.createAccessType(world.organizer, event: spring)
            let gala = world.event
            let put = { (token: String, path: String) in try await api.request(.put, path, token: token) }
            // Only the organisation's organizer gives the role, and only to door roles.
            #expect(try await put(alex.accessToken, Self.staffPath(gala, alex, role: "organizer")).status == 403)
            #expect(
                try await put(world.support.accessToken, Self.staffPath(gala, alex, role: "organizer")).status == 403)
            #expect(
                try await put(world.otherOrganizer.accessToken, Self.staffPath(gala, alex, role: "organizer")).status
                    == 404)
            #expect(
                try await put(world.organizer.accessToken, Self.staffPath(gala, alex, role: "support")).status == 400)
            let mentor = try await api.createUser(world.organizer, email: "mo@acme.test", role: .mentor, name: "Mo")
            let refused = try await put(world.organizer.accessToken, Self.staffPath(gala, mentor, role: "organizer"))
            #expect(refused.status == 422 && refused.text.contains("Only check-in staff and support"))
            #expect(
                try await put(world.organizer.accessToken, Self.staffPath(gala, world.organizer, role: "organizer"))
                    .status == 422)
            // Before: check-in staff on the gala.
            let rename = { (token: String, event: EventInfo, name: String) in
                try await api.request(
                    .patch, API.updateEvent.path(event.id), token: token, json: UpdateEventRequest(name: name))
            }
            #expect(try await rename(alex.accessToken, gala, "Alex's gala").status == 403)
            #expect(
                try await put(world.organizer.accessToken, Self.staffPath(gala, alex, role: "organizer")).status == 204)

            // The gala is theirs to organize.
            let detail: EventDetail = try await api.request(.get, API.getEvent.path(gala.id), token: alex.accessToken)
                .decode()
            #expect(detail.role == .organizer)
            #expect(try await rename(alex.accessToken, gala, "Alex's gala").status == 200)
            let type = try await api.request(
                .post, API.createAccessType.path(gala.id), token: alex.accessToken,
                json: CreateAccessTypeRequest(name: "Press", walkInAllowed: false))
            #expect(type.status == 201, "\(type.text)")
            let guest = try await api.request(
                .post, API.createGuest.path(gala.id), token: alex.accessToken,
                json: CreateGuestRequest(
                    name: "Added by Alex", email: "added@example.org", accessTypeId: world.accessType.id, notes: nil))
            #expect(guest.status == 201, "\(guest.text)")
            let page: GuestPage = try await api.request(.get, API.listGuests.path(gala.id), token: alex.accessToken)
                .decode()
            #expect(page.total == world.guests.count + 1)
            #expect(try await api.request(.get, API.stats.path(gala.id), token: alex.accessToken).status == 200)
            let staff: UserList = try await api.request(.get, API.listStaff.path(gala.id), token: alex.accessToken)
                .decode()
            #expect(staff.users.first { $0.id == alex.user.id }?.eventRole == .organizer)
            #expect(staff.users.first { $0.id == world.staff2.user.id }.map { $0.eventRole == nil } == true)
            // Bea, on the same staff in her own role, is still check-in staff there.
            #expect(try await rename(world.staff2.accessToken, gala, "Bea's gala").status == 403)

            // Another event: not on its staff, it is not there; on it, they are check-in staff.
            #expect(try await api.request(.get, API.getEvent.path(spring.id), token: alex.accessToken).status == 404)
            #expect(try await rename(alex.accessToken, spring, "Alex's fair").status == 404)
            #expect(try await put(world.organizer.accessToken, Self.staffPath(spring, alex)).status == 204)
            let springDetail: EventDetail = try await api.request(
                .get, API.getEvent.path(spring.id), token: alex.accessToken
            ).decode()
            #expect(springDetail.role == .checkinStaff)
            #expect(try await rename(alex.accessToken, spring, "Alex's fair").status == 403)
            #expect(try await api.request(.get, API.listGuests.path(spring.id), token: alex.accessToken).status == 403)
            let springGuest = try await api.request(
                .post, API.createGuest.path(spring.id), token: alex.accessToken,
                json: CreateGuestRequest(name: "No", email: "no@example.org", accessTypeId: springType.id, notes: nil))
            #expect(springGuest.status == 403)
            // The counts of the events list: the gala's, not the fair's.
            let list: EventList = try await api.request(
                .get, API.listEvents.path(query: [("counts", "true")]), token: alex.accessToken
            ).decode()
            #expect(list.events.first { $0.id == gala.id }?.counts?.guests == world.guests.count + 1)
            #expect(list.events.contains { $0.id == spring.id && $0.counts == nil })

            // The organisation's routes and the team stay the organizers'.
            let newEvent = try await api.request(
                .post, API.createEvent.path(), token: alex.accessToken,
                json: CreateEventRequest(name: "Mine", startsAt: api.clock.now, endsAt: api.clock.now, timeZone: "UTC"))
            #expect(newEvent.status == 403)
            let clone = CloneEventRequest(name: "Gala II", startsAt: api.clock.now, endsAt: api.clock.now + 3600)
            #expect(
                try await api.request(.post, API.cloneEvent.path(gala.id), token: alex.accessToken, json: clone).status
                    == 403)
            #expect(try await put(alex.accessToken, Self.staffPath(gala, world.staff2)).status == 403)
            #expect(
                try await api.request(
                    .delete, API.unassignStaff.path(gala.id, world.staff2.user.id), token: alex.accessToken
                )
                .status == 403)
            #expect(try await api.request(.get, API.listUsers.path(), token: alex.accessToken).status == 403)
            #expect(try await api.request(.get, API.tenantSettings.path(), token: alex.accessToken).status == 403)

            // A clone keeps its team, roles included.
            let cloned: EventInfo = try await api.request(
                .post, API.cloneEvent.path(gala.id), token: world.organizer.accessToken, json: clone
            ).decode()
            let clonedDetail: EventDetail = try await api.request(
                .get, API.getEvent.path(cloned.id), token: alex.accessToken
            ).decode()
            #expect(clonedDetail.role == .organizer)

            // Put on again in their own role: the gala is a door again.
            #expect(try await put(world.organizer.accessToken, Self.staffPath(gala, alex)).status == 204)
            #expect(try await rename(alex.accessToken, gala, "Again").status == 403)
            let after: UserList = try await api.request(
                .get, API.listStaff.path(gala.id), token: world.organizer.accessToken
            )
            .decode()
            #expect(after.users.first { $0.id == alex.user.id }.map { $0.eventRole == nil } == true)
        }
    }

    @Test(
        "console-event-organizer: an organizer makes check-in staff one event's organizer from its page; in the console they then edit that event and act on its guests, but not the team, and another event of theirs stays read-only",
        arguments: StoreKind.allCases)
    func console(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let spring = try await api.createEvent(world.organizer, name: "Spring Fair")
            try await api.assign(world.organizer, staff: world.staff1, to: spring)
            let gala = world.event
            let organizer = try await ConsoleTests.signedIn(api)
            var page = try await organizer.get(ConsolePages.event.path(gala.id))
            #expect(page.text.contains("id=\"assign-role\""))
            #expect(
                page.text.contains("make this event&#39;s organizer")
                    || page.text.contains("make this event's organizer"))
            let made = try await organizer.post(
                ConsolePages.assignStaff.path(gala.id), [("userId", world.staff1.user.id.wire), ("role", "organizer")])
            #expect(made.headers[.location] == ConsolePages.event.path(gala.id, query: [("done", "staff")]))
            page = try await organizer.get(ConsolePages.event.path(gala.id))
            #expect(page.text.contains("<span class=\"staff-role\">organizer of this event</span>"))
            #expect(page.text.contains("back to their own role"))
            // A role the API does not give is refused with its sentence, nothing changed.
            let wrong = try await organizer.post(
                ConsolePages.assignStaff.path(gala.id), [("userId", world.staff2.user.id.wire), ("role", "support")])
            #expect(wrong.status == 422 || wrong.status == 400)

            let alex = try await ConsoleTests.signedIn(api, "alex@acme.test", password: "staff-password")
            page = try await alex.get(ConsolePages.event.path(gala.id))
            #expect(page.text.contains("id=\"new-access-type\""))
            #expect(!page.text.contains("id=\"assign-staff\""))
            #expect(!page.text.contains("take off"))
            page = try await alex.get(ConsolePages.guests.path(gala.id))
            #expect(page.text.contains("id=\"bulk-guests\""))
            page = try await alex.get(ConsolePages.events.path())
            #expect(page.text.contains("class=\"event-counts\">0 of \(world.guests.count)</td>"))
            // The fair, where Alex is check-in staff: nothing to edit.
            page = try await alex.get(ConsolePages.event.path(spring.id))
            #expect(page.status == 200)
            #expect(!page.text.contains("id=\"new-access-type\""))
            let edit = try await alex.post(
                ConsolePages.createAccessType.path(spring.id), [("name", "Sneaky")])
            #expect(edit.status == 403)
            let added = try await alex.post(ConsolePages.createAccessType.path(gala.id), [("name", "Crew")])
            #expect(added.status == 303, "\(added.text)")
            let detail: EventDetail = try await api.request(
                .get, API.getEvent.path(gala.id), token: world.organizer.accessToken
            ).decode()
            #expect(detail.accessTypes.map(\.name).contains("Crew"))
        }
    }
}
