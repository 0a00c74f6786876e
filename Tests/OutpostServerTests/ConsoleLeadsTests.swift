import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The console's booths and leads (EFx lead retrieval): the organizer adds a booth with its
/// exhibitors and questions; an exhibitor signs in to the console and sees their own booth's
/// leads only (another booth is the console's 404), names only while shared, as text.
@Suite("Console leads")
struct ConsoleLeadsTests {
    @Test(
        "console-leads: a booth added with exhibitors and questions, its leads for its exhibitor only (booth isolation), names only while shared, markup in a booth's name and notes is text, the CSV",
        arguments: StoreKind.allCases)
    func boothsAndLeads(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let ella = try await api.createUser(
                world.organizer, email: "ella@acme.test", role: .exhibitor, name: "Ella Exhibitor")
            let gus = try await api.createUser(world.organizer, email: "gus@acme.test", role: .exhibitor, name: "Gus")
            let browser = try await ConsoleTests.signedIn(api)
            #expect(try await browser.get("/admin/events/\(event.wire)").text.contains("id=\"booths-link\""))
            let hostile = "<img src=x onerror=alert(1)> Robotics"
            let added = try await browser.post(
                "/admin/events/\(event.wire)/booths",
                [
                    ("name", hostile), ("exhibitor-\(ella.user.id.wire)", "on"),
                    ("questions", "Budget this year?\nTeam size?"),
                ])
            #expect(added.status == 303, "\(added.text)")
            let gusBooth = try await browser.post(
                "/admin/events/\(event.wire)/booths", [("name", "Globex"), ("exhibitor-\(gus.user.id.wire)", "on")])
            #expect(gusBooth.status == 303)
            let booths = try await api.lab(world.organizer).call(API.booths, event, what: "booths").booths
            let booth = try #require(booths.first)
            #expect(booth.name == hostile && booth.exhibitors == [ella.user.id])
            #expect(
                booth.questions.map(\.key) == ["q1", "q2"]
                    && booth.questions.map(\.text) == ["Budget this year?", "Team size?"])
            // Ella's leads: one shared, one not.
            let sharer = world.guests[0]
            _ = try await api.lab(world.organizer).call(
                API.setContactConsent, event, sharer.id, json: ContactConsent(sharesContact: true), what: "agree")
            for (guest, notes) in [(sharer, "<b>hot</b> lead"), (world.guests[1], "later")] {
                _ = try await api.lab(ella).call(
                    API.writeLead, booth.id, .random(),
                    json: LeadWrite(
                        content: LeadContent(
                            guestId: guest.id, capturedAt: Date(timeIntervalSince1970: 1_797_081_000), deviceId: "d",
                            rating: 5, notes: notes, answers: ["q1": "50k"]),
                        baseVersion: 0), what: "lead")
            }
            // Ella in the console: her booth on the events page, its leads, no event.
            let ellaBrowser = try await ConsoleTests.signedIn(api, "ella@acme.test", password: "staff-password")
            let home = try await ellaBrowser.get("/admin/events")
            #expect(
                home.text.contains("Your booths") && home.text.contains("&lt;img src=x onerror=alert(1)&gt; Robotics"))
            #expect(!home.text.contains("<img src=x"))
            let leads = try await ellaBrowser.get("/admin/booths/\(booth.id.wire)/leads")
            #expect(leads.status == 200)
            #expect(leads.text.contains(sharer.name) && leads.text.contains(sharer.email))
            #expect(
                leads.text.contains("Attendee \(world.guests[1].id.wire)") && !leads.text.contains(world.guests[1].name)
            )
            #expect(
                leads.text.contains("&lt;b&gt;hot&lt;/b&gt; lead") && leads.text.contains("<th>Budget this year?</th>"))
            let csv = try await ellaBrowser.get("/admin/booths/\(booth.id.wire)/leads.csv")
            #expect(csv.status == 200 && csv.text.hasPrefix("captured_at,name,email,attendee_id"))
            // Gus's booth is not Ella's: the console's 404; nor is the organizer's booths page hers.
            let other = try #require(booths.last)
            #expect(try await ellaBrowser.get("/admin/booths/\(other.id.wire)/leads").status == 404)
            #expect(try await ellaBrowser.get("/admin/events/\(event.wire)/booths").status == 404)
            // The organizer's booths page counts the leads.
            let page = try await browser.get("/admin/events/\(event.wire)/booths")
            #expect(page.text.contains("<td>Ella Exhibitor</td><td>Budget this year? · Team size?</td><td>2</td>"))
        }
    }
}
