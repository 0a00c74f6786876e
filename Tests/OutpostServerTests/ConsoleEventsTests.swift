import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Events as an organizer runs a season of them: the list with its counts, upcoming apart from
/// past; an event cloned with its set-up and none of its guests; new events in the tenant's
/// time zone (the settings page) or the browser's.
@Suite("Console: events and settings")
struct ConsoleEventsTests {
    @Test(
        "event-clone: a clone has the original's modules, access types (new ids, same walk-in places), staff and badge layout, its own name, times and zone, and no guests; a door role, another tenant, a bad zone or backwards times are refused",
        arguments: StoreKind.allCases)
    func clone(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let organizer = api.lab(world.organizer)
            let event = world.event.id
            let vip = try await organizer.createAccessType(
                event: event, CreateAccessTypeRequest(name: "VIP", walkInAllowed: true, walkInCapacity: 5))
            let layout = BadgeLayout(
                label: .label62x100, secondLine: .email, band: false, qr: true, printOnCheckIn: true)
            _ = try await organizer.setBadgeLayout(event: event, layout)
            let starts = api.clock.now.addingTimeInterval(30 * 86_400)
            let request = CloneEventRequest(
                name: "Gala 2027", startsAt: starts, endsAt: starts + 3_600, timeZone: "America/New_York")
            let clone = try await organizer.call(API.cloneEvent, event, json: request, what: "clone")
            #expect(clone.id != event && clone.name == "Gala 2027" && clone.timeZone == "America/New_York")
            #expect(clone.startsAt == request.startsAt && clone.endsAt == request.endsAt)
            #expect(clone.modules == world.event.modules)
            let detail = try await organizer.call(API.getEvent, clone.id, what: "event")
            #expect(detail.accessTypes.map(\.name) == ["General", "VIP"])
            #expect(detail.accessTypes.map(\.walkInCapacity) == [nil, 5])
            #expect(Set(detail.accessTypes.map(\.id)).isDisjoint(with: [world.accessType.id, vip.id]))
            let staff = try await organizer.call(API.listStaff, clone.id, what: "staff")
            #expect(Set(staff.users.map(\.id)) == [world.staff1.user.id, world.staff2.user.id])
            #expect(try await organizer.call(API.badgeLayout, clone.id, what: "layout") == layout)
            let guests = try await organizer.call(API.listGuests, clone.id, what: "guests")
            #expect(guests.total == 0)
            // The staff see it as they see the original.
            #expect(try await api.lab(world.staff1).events().contains { $0.id == clone.id })
            // The original is as it was.
            #expect(try await organizer.call(API.listGuests, event, what: "guests").total == 3)
            // Without a zone, the original's.
            let same = try await organizer.call(
                API.cloneEvent, event, json: CloneEventRequest(name: "Gala again", startsAt: starts, endsAt: starts),
                what: "clone")
            #expect(same.timeZone == world.event.timeZone)
            // Refusals.
            let path = API.cloneEvent.path(event)
            let door = try await api.request(.post, path, token: world.staff1.accessToken, json: request)
            #expect(door.status == 403)
            let stranger = try await api.request(.post, path, token: world.otherOrganizer.accessToken, json: request)
            #expect(stranger.status == 404)
            var bad = request
            bad.timeZone = "Mars/Olympus"
            let zone = try await api.request(.post, path, token: world.organizer.accessToken, json: bad)
            #expect(zone.status == 422 && zone.text.contains("time zone"))
            bad = request
            bad.endsAt = request.startsAt - 1
            #expect(try await api.request(.post, path, token: world.organizer.accessToken, json: bad).status == 422)
            bad = request
            bad.name = "  "
            #expect(try await api.request(.post, path, token: world.organizer.accessToken, json: bad).status == 422)
            #expect(try await organizer.events().count == 3, "nothing refused was made")
        }
    }

    @Test(
        "events-list-counts: with counts=true an organizer's list counts each event's confirmed guests and check-ins; a door role's list has none",
        arguments: StoreKind.allCases)
    func listCounts(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: world.guests[0].id)
            _ = try await api.lab(world.organizer).call(
                API.updateGuest, world.event.id, world.guests[2].id, json: UpdateGuestRequest(status: .cancelled),
                what: "cancel")
            let empty = try await api.createEvent(world.organizer, name: "Empty")
            let counted = try await api.lab(world.organizer).call(
                API.listEvents, query: [("counts", "true")], what: "events")
            #expect(counted.events.first { $0.id == world.event.id }?.counts == EventCounts(guests: 2, checkedIn: 1))
            #expect(counted.events.first { $0.id == empty.id }?.counts == EventCounts(guests: 0, checkedIn: 0))
            let plain = try await api.lab(world.organizer).call(API.listEvents, what: "events")
            #expect(plain.events.allSatisfy { $0.counts == nil })
            // schemathesis: a value that is neither is refused.
            let garbled = try await api.lab(world.organizer).request(API.listEvents.line(query: [("counts", "AAA")]))
            #expect(garbled.status == 400)
            let door = try await api.lab(world.staff1).call(API.listEvents, query: [("counts", "true")], what: "events")
            #expect(!door.events.isEmpty && door.events.allSatisfy { $0.counts == nil })
        }
    }

    @Test(
        "console-events-list: upcoming and running events first with their counts, past ones apart (latest first); a new event starts in the tenant's zone, or the browser's when it has none",
        arguments: StoreKind.allCases)
    func eventsPage(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: world.guests[0].id)
            let lastYear = try await api.createEvent(
                world.organizer, name: "Gala 2025", startsAt: api.clock.now.addingTimeInterval(-365 * 86_400))
            let lastMonth = try await api.createEvent(
                world.organizer, name: "Gala October", startsAt: api.clock.now.addingTimeInterval(-30 * 86_400))
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.events.path())
            let text = page.text
            let upcoming = try #require(text.range(of: "id=\"events\""))
            let past = try #require(text.range(of: "id=\"past-events\""))
            let gala = try #require(text.range(of: ">\(world.event.name)</a>"))
            let october = try #require(text.range(of: ">\(lastMonth.name)</a>"))
            let older = try #require(text.range(of: ">\(lastYear.name)</a>"))
            #expect(upcoming.lowerBound < gala.lowerBound && gala.lowerBound < past.lowerBound)
            #expect(past.lowerBound < october.lowerBound && october.lowerBound < older.lowerBound, "latest first")
            #expect(text.contains("<td class=\"event-counts\">1 of 3</td>"))
            // No tenant zone: the browser's (events.js), the server's without a script.
            #expect(text.contains("data-browser-zone=\"true\"") && text.contains("/admin/static/events.js"))
            let script = try await browser.get(ConsolePages.eventsScript.path())
            #expect(script.status == 200 && script.text.contains("resolvedOptions().timeZone"))
            // With one, that.
            let saved = try await browser.post(
                ConsolePages.saveSettings.path(), [("offlineUnlockHours", "48"), ("timeZone", "America/New_York")])
            #expect(saved.headers[.location] == ConsolePages.settings.path(query: [("done", "settings")]))
            page = try await browser.get(ConsolePages.events.path())
            #expect(page.text.contains("id=\"event-zone\" value=\"America/New_York\""))
            #expect(!page.text.contains("data-browser-zone"))
            // A door role sees its events, no counts and no form.
            let door = try await ConsoleTests.signedIn(api, "alex@acme.test", password: "staff-password")
            page = try await door.get(ConsolePages.events.path())
            #expect(page.text.contains(world.event.name) && !page.text.contains("event-counts"))
            #expect(!page.text.contains("new-event"))
        }
    }

    @Test(
        "console-settings: an organizer sets the offline unlock window and new events' zone; a bad zone, a window out of range or not a number is refused in words and changes nothing; support cannot see the page",
        arguments: StoreKind.allCases)
    func settingsPage(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.settings.path())
            #expect(page.status == 200 && page.text.contains("value=\"72\""))
            #expect(page.text.contains("id=\"settings-nav\" aria-current=\"page\""))
            let path = ConsolePages.saveSettings.path()
            let zone = try await browser.post(path, [("offlineUnlockHours", "24"), ("timeZone", "Mars/Olympus")])
            #expect(zone.status == 422 && zone.text.contains("IANA time zone"))
            let range = try await browser.post(path, [("offlineUnlockHours", "0"), ("timeZone", "")])
            #expect(range.status == 422 && range.text.contains("between 1 and 720"))
            let words = try await browser.post(path, [("offlineUnlockHours", "a day"), ("timeZone", "")])
            #expect(words.status == 422 && words.text.contains("whole number of hours"))
            #expect(try await api.store.tenantSettings(world.organizer.user.tenantId) == TenantSettings())
            let saved = try await browser.post(path, [("offlineUnlockHours", "24"), ("timeZone", "Europe/Oslo")])
            #expect(saved.status == 303)
            page = try await browser.get(saved.headers[.location] ?? "")
            #expect(page.text.contains("value=\"24\"") && page.text.contains("value=\"Europe/Oslo\""))
            #expect(
                try await api.store.tenantSettings(world.organizer.user.tenantId)
                    == TenantSettings(offlineUnlockHours: 24, timeZone: "Europe/Oslo"))
            // Emptied: no zone.
            _ = try await browser.post(path, [("offlineUnlockHours", "24"), ("timeZone", " ")])
            #expect(try await api.store.tenantSettings(world.organizer.user.tenantId).timeZone == nil)
            let support = try await ConsoleTests.signedIn(api, "support@acme.test", password: "staff-password")
            #expect(try await support.get(ConsolePages.settings.path()).status == 403)
            #expect(!(try await support.get(ConsolePages.events.path()).text.contains("settings-nav")))
        }
    }

    @Test(
        "console-event-clone: the event page's clone form makes the new event and opens it, with the original's access types and staff",
        arguments: StoreKind.allCases)
    func cloneFromConsole(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get(ConsolePages.event.path(world.event.id))
            #expect(page.text.contains("id=\"clone-name\" value=\"\(world.event.name) (copy)\""))
            let answer = try await browser.post(
                ConsolePages.cloneEvent.path(world.event.id),
                [
                    ("name", "Gala 2027"), ("startsAt", "2027-06-01T18:00"), ("endsAt", "2027-06-01T23:00"),
                    ("timeZone", "Europe/Oslo"),
                ])
            #expect(answer.status == 303)
            let location = try #require(answer.headers[.location])
            #expect(location.hasSuffix("?done=cloned") && !location.contains(world.event.id.wire))
            let opened = try await browser.get(location)
            #expect(opened.text.contains("Gala 2027") && opened.text.contains("2027-06-01 18:00"))
            #expect(opened.text.contains("<ul id=\"access-types\">\n<li>General"))
            #expect(
                opened.text.contains("<span class=\"staff-name\">Alex</span>")
                    && opened.text.contains("<span class=\"staff-name\">Bea</span>"))
            #expect(opened.text.contains("0 guests, 0 checked in"))
            let refused = try await browser.post(
                ConsolePages.cloneEvent.path(world.event.id),
                [
                    ("name", "Backwards"), ("startsAt", "2027-06-01T18:00"), ("endsAt", "2027-06-01T17:00"),
                    ("timeZone", "Europe/Oslo"),
                ])
            #expect(refused.status == 422 && refused.text.contains("must not be before"))
        }
    }
}

/// A refused form comes back as it was typed, the sentence beside the field it is about.
@Suite("Console: refused forms keep their values")
struct ConsoleFormDraftTests {
    @Test(
        "console-form-keeps-values: a refused new event, user, access type, clone or settings form is its page again with what was typed (no password), the reason beside its field (marked invalid for a screen reader) or above the form, and 422",
        arguments: StoreKind.allCases)
    func keepsValues(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await ConsoleTests.signedIn(api)
            try await browser.get(ConsolePages.events.path())
            // A new event that ends before it starts: the API's sentence beside "Ends".
            var page = try await browser.post(
                ConsolePages.createEvent.path(),
                [
                    ("name", "Spring <b>Fair</b>"), ("startsAt", "2027-04-10T10:00"), ("endsAt", "2027-04-10T09:00"),
                    ("timeZone", "Europe/Oslo"),
                ])
            #expect(page.status == 422)
            #expect(page.text.contains("id=\"event-name\" value=\"Spring &lt;b&gt;Fair&lt;/b&gt;\""))
            #expect(page.text.contains("id=\"event-ends\" value=\"2027-04-10T09:00\" required aria-invalid=\"true\""))
            #expect(
                page.text.contains(
                    "<span class=\"field-error\" id=\"event-ends-error\">The end must not be before the start.</span>"))
            #expect(!page.text.contains("id=\"event-name-error\""))
            // The form's own check: a zone that is none, beside "Time zone".
            page = try await browser.post(
                ConsolePages.createEvent.path(),
                [
                    ("name", "Spring Fair"), ("startsAt", "2027-04-10T10:00"), ("endsAt", "2027-04-10T18:00"),
                    ("timeZone", "Mars/Olympus"),
                ])
            #expect(page.status == 422 && page.text.contains("id=\"event-zone-error\""))
            #expect(page.text.contains("value=\"Mars/Olympus\"") && !page.text.contains("data-browser-zone"))
            #expect(try await api.lab(world.organizer).events().count == 1, "nothing was made")
            // A user whose e-mail is taken: beside "E-mail", the role kept, the password not sent back.
            page = try await browser.post(
                ConsolePages.createUser.path(),
                [
                    ("name", "Alex Again"), ("email", "alex@acme.test"), ("role", "support"),
                    ("password", "a-secret-password"),
                ])
            #expect(page.status == 422 && page.text.contains("id=\"user-email-error\">A user with this e-mail"))
            #expect(
                page.text.contains("value=\"Alex Again\"") && page.text.contains("<option value=\"support\" selected>"))
            #expect(!page.text.contains("a-secret-password"))
            // A short password: beside "Password".
            page = try await browser.post(
                ConsolePages.createUser.path(),
                [("name", "Nina"), ("email", "nina@acme.test"), ("role", "support"), ("password", "short")])
            #expect(page.status == 422 && page.text.contains("id=\"user-password-error\""))
            // An access type with places that are not a number.
            let event = world.event.id
            page = try await browser.post(
                ConsolePages.createAccessType.path(event),
                [("name", "Balcony"), ("walkInAllowed", "true"), ("walkInCapacity", "lots")])
            #expect(page.status == 422 && page.text.contains("id=\"access-type-capacity-error\""))
            #expect(page.text.contains("id=\"access-type-name\" value=\"Balcony\""))
            #expect(page.text.contains("id=\"access-type-walkin\" checked"))
            // A clone that ends before it starts: the clone's form, not the edit form, shows it.
            page = try await browser.post(
                ConsolePages.cloneEvent.path(event),
                [
                    ("name", "Gala 2027"), ("startsAt", "2027-06-01T18:00"), ("endsAt", "2027-06-01T17:00"),
                    ("timeZone", "Europe/Oslo"),
                ])
            #expect(page.status == 422 && page.text.contains("id=\"clone-ends-error\""))
            #expect(page.text.contains("id=\"clone-name\" value=\"Gala 2027\""))
            #expect(
                page.text.contains("id=\"event-name\" value=\"\(world.event.name)\"")
                    && !page.text.contains("event-ends-error"))
            // Settings.
            page = try await browser.post(
                ConsolePages.saveSettings.path(), [("offlineUnlockHours", "a day"), ("timeZone", "Europe/Oslo")])
            #expect(page.status == 422 && page.text.contains("id=\"offline-unlock-error\""))
            #expect(page.text.contains("id=\"tenant-zone\" value=\"Europe/Oslo\""))
        }
    }
}
