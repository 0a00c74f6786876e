import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The console's records: a guest's page (edit, cancel), the audit log with its
/// filters, and the CSV downloads (check-ins and audit), formula-safe, on both stores.
@Suite("Console records: guests, audit, exports")
struct ConsoleRecordsTests {
    @Test(
        "console-guest-edit: an organizer edits a guest (name, e-mail, access type, notes) and cancels the registration through the API; support reads the page without forms; staff cannot change a guest",
        arguments: StoreKind.allCases)
    func editGuest(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let vip = try await api.createAccessType(world.organizer, event: world.event, name: "VIP")
            let guest = world.guests[0]
            let browser = try await ConsoleTests.signedIn(api)
            let list = try await browser.get("/admin/events/\(id)/guests")
            #expect(list.text.contains("href=\"/admin/events/\(id)/guests/\(guest.id.wire)\""))
            let page = try await browser.get("/admin/events/\(id)/guests/\(guest.id.wire)")
            #expect(page.status == 200 && page.text.contains(guest.code) && page.text.contains("id=\"edit-guest\""))
            let saved = try await browser.post(
                "/admin/events/\(id)/guests/\(guest.id.wire)",
                [
                    ("name", "Grace <b>Hopper</b>"), ("email", "grace@example.org"), ("accessTypeId", vip.id.wire),
                    ("status", "confirmed"), ("notes", "=1+2 wheelchair"),
                ])
            #expect(saved.status == 303 && saved.headers[.location]?.hasSuffix("?done=guest") == true, "\(saved.text)")
            var stored: GuestInfo = try await api.request(
                .get, "/v1/events/\(id)/guests/\(guest.id.wire)", token: world.organizer.accessToken
            ).decode()
            #expect(stored.name == "Grace <b>Hopper</b>" && stored.email == "grace@example.org")
            #expect(stored.accessTypeId == vip.id && stored.notes == "=1+2 wheelchair" && stored.status == .confirmed)
            let shown = try await browser.get("/admin/events/\(id)/guests/\(guest.id.wire)?done=guest")
            #expect(shown.text.contains("Grace &lt;b&gt;Hopper&lt;/b&gt;") && !shown.text.contains("<b>Hopper"))
            // A bad e-mail is the API's sentence; nothing changes.
            let refused = try await browser.post(
                "/admin/events/\(id)/guests/\(guest.id.wire)",
                [("name", "X"), ("email", "not an address"), ("accessTypeId", vip.id.wire), ("status", "confirmed")])
            #expect(refused.status == 422 && refused.text.contains("e-mail"), "\(refused.text)")
            // Cancel: the guest stays, cancelled, and the door refuses them.
            let cancelled = try await browser.post("/admin/events/\(id)/guests/\(guest.id.wire)/cancel", [])
            #expect(cancelled.headers[.location]?.hasSuffix("?done=cancelled") == true)
            stored = try await api.request(
                .get, "/v1/events/\(id)/guests/\(guest.id.wire)", token: world.organizer.accessToken
            ).decode()
            #expect(stored.status == .cancelled && stored.name == "Grace <b>Hopper</b>")
            #expect(try await api.checkIn(world.staff1, event: world.event.id, guest: guest.id).status == 409)
            let after = try await browser.get("/admin/events/\(id)/guests/\(guest.id.wire)")
            #expect(!after.text.contains("id=\"cancel-guest\""), "nothing left to cancel")
            // Support reads; staff are refused by the API.
            let support = try await ConsoleTests.signedIn(api, "support@acme.test", password: "staff-password")
            let read = try await support.get("/admin/events/\(id)/guests/\(guest.id.wire)")
            #expect(read.status == 200 && !read.text.contains("id=\"edit-guest\""))
            let staff = try await ConsoleTests.signedIn(api, "alex@acme.test", password: "staff-password")
            #expect(try await staff.get("/admin/events/\(id)/guests/\(guest.id.wire)").status == 403)
            try await staff.get("/admin/events")
            let denied = try await staff.post(
                "/admin/events/\(id)/guests/\(world.guests[1].id.wire)/cancel", [])
            #expect(denied.status == 403)
            let untouched: GuestInfo = try await api.request(
                .get, "/v1/events/\(id)/guests/\(world.guests[1].id.wire)", token: world.organizer.accessToken
            ).decode()
            #expect(untouched.status == .confirmed)
        }
    }

    @Test(
        "console-audit-log: the audit with names, filtered by what, device and user, paged by cursor; the API filters the same and refuses an unknown kind",
        arguments: StoreKind.allCases)
    func auditLog(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            _ = try await api.checkIn(
                world.staff1, event: world.event.id, guest: world.guests[0].id, deviceId: "door-a")
            api.clock.advance(by: 60)
            _ = try await api.checkIn(
                world.staff2, event: world.event.id, guest: world.guests[0].id, deviceId: "door-b")
            _ = try await api.checkIn(
                world.staff2, event: world.event.id, guest: world.guests[1].id, deviceId: "door-b")
            let browser = try await ConsoleTests.signedIn(api)
            let all = try await browser.get("/admin/events/\(id)/audit")
            #expect(all.status == 200)
            #expect(all.text.components(separatedBy: "<td>Checked in</td>").count - 1 == 2)
            #expect(
                all.text.contains(
                    "<td>Scanned again, already in</td><td>\(world.guests[0].name)</td><td>Bea</td><td>door-b</td>"))
            let byDevice = try await browser.get("/admin/events/\(id)/audit?deviceId=door-a")
            #expect(byDevice.text.contains("door-a") && !byDevice.text.contains("<td>door-b</td>"))
            let byKind = try await browser.get("/admin/events/\(id)/audit?kind=already_checked_in")
            #expect(
                !byKind.text.contains("<td>Checked in</td>")
                    && byKind.text.contains("<td>Scanned again, already in</td>"))
            let byUser = try await browser.get("/admin/events/\(id)/audit?userId=\(world.staff1.user.id.wire)")
            #expect(byUser.text.contains("<td>Alex</td>") && !byUser.text.contains("<td>Bea</td>"))
            #expect(
                byUser.text.contains("audit.csv?userId=\(world.staff1.user.id.wire)"), "the download keeps the filter")
            // The API: filters within keyset pages.
            let first: AuditPage = try await api.request(
                .get, "/v1/events/\(id)/audit?deviceId=door-b&limit=1", token: world.support.accessToken
            ).decode()
            #expect(first.entries.count == 1 && first.hasMore && first.entries[0].userName == "Bea")
            let second: AuditPage = try await api.request(
                .get, "/v1/events/\(id)/audit?deviceId=door-b&limit=1&since=\(first.cursor)",
                token: world.support.accessToken
            ).decode()
            #expect(second.entries.map(\.guestName) == [world.guests[1].name] && !second.hasMore)
            let bad = try await api.request(
                .get, "/v1/events/\(id)/audit?kind=deleted", token: world.organizer.accessToken)
            #expect(bad.status == 400 && bad.text.contains("checked_in"))
        }
    }

    @Test(
        "console-export-csv: the check-ins and the audit as CSV downloads (RFC 4180, the event's clock with its offset); a guest named like a formula or markup is text in the sheet",
        arguments: StoreKind.allCases)
    func exports(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let id = world.event.id.wire
            let formula = try await api.createGuest(
                world.organizer, event: world.event, accessType: world.accessType,
                name: "=HYPERLINK(\"http://evil.test\",\"click\")")
            let hostile = try await api.createGuest(
                world.organizer, event: world.event, accessType: world.accessType, name: "<img src=x onerror=alert(1)>")
            let firstAt = api.clock.now
            _ = try await api.checkIn(
                world.staff1, event: world.event.id, guest: formula.id, deviceId: "door-a", note: "@SUM(1)")
            api.clock.advance(by: 1)
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: hostile.id, deviceId: "door-a")
            let browser = try await ConsoleTests.signedIn(api)
            let csv = try await browser.get("/admin/events/\(id)/checkins.csv")
            #expect(csv.status == 200 && csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"checkins.csv\"")
            let lines = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.count == 3)
            #expect(lines[0] == "checked_in_at,guest,email,code,access_type,status,by,device,method,note")
            #expect(lines[1].contains(",\"'=HYPERLINK(\"\"http://evil.test\"\",\"\"click\"\")\","), "\(lines[1])")
            #expect(lines[1].hasSuffix(",'@SUM(1)"), "the note too")
            #expect(lines[2].contains(",<img src=x onerror=alert(1)>,"), "text, as it is")
            #expect(lines[1].hasPrefix(ExportRoutes.timestamp(firstAt, world.event.timeZone) + ","))
            #expect(
                ExportRoutes.timestamp(Date(millisecondsSince1970: 1_796_000_000_000), "Europe/Oslo")
                    == "2026-11-30T01:53:20+01:00")
            // The audit, filtered as the page was.
            let audit = try await browser.get("/admin/events/\(id)/audit.csv?kind=checked_in&deviceId=door-a")
            let rows = audit.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(rows.first == ExportRoutes.auditHeader.joined(separator: ","))
            #expect(rows.count == 3 && rows.dropFirst().allSatisfy { $0.contains(",checked_in,") })
            #expect(rows[1].contains("'=HYPERLINK"))
            // Staff may not export.
            #expect(
                try await api.request(.get, "/v1/events/\(id)/checkins.csv", token: world.staff1.accessToken).status
                    == 403)
        }
    }
}
