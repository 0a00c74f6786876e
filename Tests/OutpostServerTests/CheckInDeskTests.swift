import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The check-in desk: a check-in taken back through the API (kept whole, audited, carried to the
/// doors by the roster feed, at most once), and the console's check-in and undo forms, which are
/// the API's check-in with a device's idempotency.
@Suite("Check-in desk")
struct CheckInDeskTests {
    @Test(
        "checkin-undo: a check-in taken back is kept whole with who, when and why; the guest is not checked in (stats, list, roster feed) and can be checked in again; a repeat answers the same; no reason, a door role or another event's check-in is refused",
        arguments: StoreKind.allCases)
    func undo(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let guest = world.guests[0].id
            let scannedAt = api.clock.now
            let first: CheckInResponse = try await api.checkIn(
                world.staff1, event: event, guest: guest, deviceId: "door-a", scannedAt: scannedAt
            ).decode()
            let before = try await api.roster(world.staff1, event: world.event).last?.cursor
            api.clock.advance(by: 60)
            let lab = api.lab(world.organizer)
            let undone = try await lab.call(
                API.undoCheckIn, event, first.checkIn.id,
                json: UndoCheckInRequest(reason: "  scanned the wrong guest "),
                what: "undo")
            #expect(undone.checkIn == first.checkIn)
            #expect(undone.reason == "scanned the wrong guest" && undone.undoneByName == "Acme Organizer")
            #expect(undone.undoneAt == api.clock.now)
            // The guest is not checked in, for the list, the counts and the doors.
            let shown = try await lab.call(API.showGuest, event, guest, what: "guest")
            #expect(shown.checkIn == nil)
            let stats = try await lab.call(API.stats, event, what: "stats")
            #expect(stats.checkedIn == 0)
            let feed = try await api.roster(world.staff1, event: world.event, since: before).flatMap(\.guests)
            #expect(feed.map(\.id) == [guest] && feed[0].checkIn == nil)
            // Kept whole, and in the audit log with the reason (and only this guest's, filtered).
            #expect(try await api.store.undoneCheckIns(eventId: event, guestId: guest) == [undone])
            let history = try await lab.call(
                API.audit, event, query: [("guestId", guest.wire)], what: "audit")
            #expect(history.entries.map(\.kind) == [.checkedIn, .checkInUndone])
            #expect(history.entries.last?.method == "scanned the wrong guest")
            #expect(history.entries.last?.clientAt == first.checkIn.at)
            // A repeat (the form sent twice) answers as the first did and changes nothing more.
            api.clock.advance(by: 5)
            let again = try await lab.call(
                API.undoCheckIn, event, first.checkIn.id, json: UndoCheckInRequest(reason: "twice"), what: "undo")
            #expect(again == undone)
            // The door's retry of the first check-in replays its answer; it does not check in again.
            let retry = try await api.checkIn(
                world.staff1, event: event, guest: guest, deviceId: "door-a", scannedAt: scannedAt)
            #expect(retry.status == 201)
            #expect(try await lab.call(API.showGuest, event, guest, what: "guest").checkIn == nil)
            // A new scan is a new check-in.
            let second = try await api.checkIn(world.staff1, event: event, guest: guest, deviceId: "door-b")
            #expect(second.status == 201)
            let secondRecord: CheckInResponse = try second.decode()
            #expect(secondRecord.checkIn.id != first.checkIn.id)
            // Refusals.
            let path = API.undoCheckIn.path(event, secondRecord.checkIn.id)
            let blank = try await api.request(
                .post, path, token: world.organizer.accessToken, json: UndoCheckInRequest(reason: " "))
            #expect(blank.status == 422 && blank.text.contains("Say why"))
            let long = try await api.request(
                .post, path, token: world.organizer.accessToken,
                json: UndoCheckInRequest(reason: String(repeating: "x", count: 501)))
            #expect(long.status == 422)
            let door = try await api.request(
                .post, path, token: world.staff1.accessToken, json: UndoCheckInRequest(reason: "mine"))
            #expect(door.status == 403)
            let elsewhere = try await api.request(
                .post, API.undoCheckIn.path(world.otherEvent.id, secondRecord.checkIn.id),
                token: world.otherOrganizer.accessToken, json: UndoCheckInRequest(reason: "theirs"))
            #expect(elsewhere.status == 404)
            let otherTenant = try await api.request(
                .post, path, token: world.otherOrganizer.accessToken, json: UndoCheckInRequest(reason: "theirs"))
            #expect(otherTenant.status == 404)
            #expect(
                try await lab.call(API.showGuest, event, guest, what: "guest").checkIn?.id == secondRecord.checkIn.id)
            let unknown = try await api.request(
                .post, API.undoCheckIn.path(event, CheckInID.random()), token: world.organizer.accessToken,
                json: UndoCheckInRequest(reason: "none"))
            #expect(unknown.status == 404)
            // Support may take a check-in back too.
            let bySupport = try await api.request(
                .post, path, token: world.support.accessToken, json: UndoCheckInRequest(reason: "double scan"))
            #expect(bySupport.status == 200)
            #expect(try await api.store.undoneCheckIns(eventId: event, guestId: guest).count == 2)
        }
    }

    @Test(
        "console-check-in-desk: a guest is checked in from their page and from the list (back to the list's filters); the form sent twice checks in once; a second form says already; a cancelled guest is refused with the API's sentence; an old page is refused",
        arguments: StoreKind.allCases)
    func checkIn(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let guest = world.guests[0].id
            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get(ConsolePages.guest.path(event, guest))
            #expect(page.text.contains("id=\"check-in-button\"") && page.text.contains("Not checked in."))
            let scannedAt = try #require(Self.hidden("scannedAt", in: page.text))
            #expect(scannedAt == String(api.clock.now.millisecondsSince1970))
            let path = ConsolePages.checkInGuest.path(event, guest)
            let checked = try await browser.post(path, [("scannedAt", scannedAt)])
            #expect(checked.status == 303)
            #expect(
                checked.headers[.location] == ConsolePages.guest.path(event, guest, query: [("done", "checked-in")]))
            // The same form again (a double click, a reload): the same answer, one check-in.
            api.clock.advance(by: 2)
            let twice = try await browser.post(path, [("scannedAt", scannedAt)])
            #expect(twice.headers[.location] == checked.headers[.location])
            let counts = try await api.store.checkInCounts(eventId: event, guestId: guest)
            #expect(counts.checkIns == 1 && counts.events == 0)
            let shown = try await api.lab(world.organizer).call(API.showGuest, event, guest, what: "guest")
            #expect(shown.checkIn?.deviceId == ConsoleRoutes.deskDevice && shown.checkIn?.byName == "Acme Organizer")
            let audit = try await api.audit(world.organizer, event: world.event)
            #expect(audit.last?.kind == .checkedIn && audit.last?.method == "manual")
            // Another page's form: already checked in, as a door would hear it.
            let later = try await browser.post(path, [("scannedAt", String(api.clock.now.millisecondsSince1970))])
            #expect(later.headers[.location] == ConsolePages.guest.path(event, guest, query: [("done", "already")]))
            let after = try await browser.get(later.headers[.location] ?? "")
            #expect(after.text.contains("already checked in") && after.text.contains("id=\"undo-check-in\""))
            // From the list: back to its filters and page, nothing else of the form.
            let other = world.guests[1].id
            let list = try await browser.get(ConsolePages.guests.path(event, query: [("q", world.guests[1].name)]))
            let listField = try #require(Self.hidden("list", in: list.text))
            #expect(
                listField == "q="
                    + (world.guests[1].name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            let fromList = try await browser.post(
                ConsolePages.checkInGuest.path(event, other),
                [("scannedAt", String(api.clock.now.millisecondsSince1970)), ("list", "q=Ann&status=confirmed&evil=x")])
            #expect(
                fromList.headers[.location]
                    == ConsolePages.guests.path(
                        event, query: [("q", "Ann"), ("status", "confirmed"), ("done", "checked-in")]))
            let listed = try await browser.get(fromList.headers[.location] ?? "")
            #expect(listed.text.contains("Checked in."))
            // A cancelled guest: the API's refusal, on the console's page.
            let cancelled = world.guests[2].id
            _ = try await api.lab(world.organizer).call(
                API.updateGuest, event, cancelled, json: UpdateGuestRequest(status: .cancelled), what: "cancel")
            let refused = try await browser.post(
                ConsolePages.checkInGuest.path(event, cancelled),
                [("scannedAt", String(api.clock.now.millisecondsSince1970))])
            #expect(refused.status == 422 && refused.text.contains("cancelled or revoked"))
            #expect(try await browser.get(ConsolePages.guest.path(event, cancelled)).text.contains("doors refuse"))
            // A page left open for half a day is made again first.
            let stale = try await browser.post(
                ConsolePages.checkInGuest.path(event, cancelled),
                [("scannedAt", String(api.clock.now.addingTimeInterval(-13 * 3_600).millisecondsSince1970))])
            #expect(stale.status == 422 && stale.text.contains("too old"))
        }
    }

    @Test(
        "console-undo-check-in: the guest's page takes a check-in back with a reason and shows it in the history; no reason is the API's sentence; the guest can be checked in again",
        arguments: StoreKind.allCases)
    func undoFromConsole(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let guest = world.guests[0].id
            let record: CheckInResponse = try await api.checkIn(
                world.staff1, event: event, guest: guest, deviceId: "door-a"
            ).decode()
            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get(ConsolePages.guest.path(event, guest))
            #expect(page.text.contains("Checked in") && page.text.contains("door-a"))
            #expect(Self.hidden("checkInId", in: page.text) == record.checkIn.id.wire)
            let path = ConsolePages.undoCheckIn.path(event, guest)
            let blank = try await browser.post(path, [("checkInId", record.checkIn.id.wire), ("reason", "")])
            #expect(blank.status == 422 && blank.text.contains("Say why"))
            let undone = try await browser.post(
                path, [("checkInId", record.checkIn.id.wire), ("reason", "<b>wrong</b> guest")])
            #expect(undone.headers[.location] == ConsolePages.guest.path(event, guest, query: [("done", "undone")]))
            let after = try await browser.get(undone.headers[.location] ?? "")
            #expect(after.text.contains("id=\"check-in-button\"") && after.text.contains("id=\"guest-history\""))
            #expect(after.text.contains("<td>Check-in undone</td><td>Acme Organizer</td>"))
            #expect(after.text.contains("&lt;b&gt;wrong&lt;/b&gt; guest") && !after.text.contains("<b>wrong</b>"))
            #expect(
                try await api.store.undoneCheckIns(eventId: event, guestId: guest).map(\.checkIn) == [record.checkIn])
            let scannedAt = try #require(Self.hidden("scannedAt", in: after.text))
            let again = try await browser.post(ConsolePages.checkInGuest.path(event, guest), [("scannedAt", scannedAt)])
            #expect(again.headers[.location] == ConsolePages.guest.path(event, guest, query: [("done", "checked-in")]))
        }
    }

    /// The value of the first hidden field `name` of a page.
    static func hidden(_ name: String, in html: String) -> String? {
        attribute("name=\"\(name)\" value", in: html)
    }

    /// The value of the first `attribute="…"` of a page (entities of `&` and `=` undone).
    static func attribute(_ attribute: String, in html: String) -> String? {
        guard let start = html.range(of: attribute + "=\"") else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&")
            .replacingOccurrences(of: "&#61;", with: "=").replacingOccurrences(of: "&#x3D;", with: "=")
    }
}
