import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The attendee's own consent link (EFx lead retrieval): the ticket mail carries it when the
/// server knows its public address; the page it opens needs no account, changes that one
/// guest's consent only (an altered link is not found), and every lead follows at once.
@Suite("Attendee consent")
struct AttendeeConsentTests {
    @Test(
        "lead-consent-link: the ticket mail's link opens the attendee's page; sharing there shows their name on a booth's lead, withdrawing hides it; an altered link is not found; names are text",
        arguments: StoreKind.allCases)
    func consentLink(kind: StoreKind) async throws {
        try await withMailTestServer(kind, configure: { $0.publicURL = URL(string: "https://expo.example.org/") }) {
            api, sink in
            let world = try await World.make(api)
            let guest = try await api.createGuest(
                world.organizer, event: world.event, accessType: world.accessType, name: "<b>Vera</b>",
                email: "vera@example.org")
            let ella = try await api.createUser(
                world.organizer, email: "ella@acme.test", role: .exhibitor, name: "Ella")
            let booth = Booth(id: .random(), name: "Acme Robotics", exhibitors: [ella.user.id])
            _ = try await api.lab(world.organizer).call(
                API.setBooths, world.event.id, json: BoothList(booths: [booth]), what: "booths")
            _ = try await api.lab(ella).call(
                API.writeLead, booth.id, .random(),
                json: LeadWrite(
                    content: LeadContent(guestId: guest.id, capturedAt: Date(), deviceId: "d"), baseVersion: 0),
                what: "lead")
            // The ticket mail carries the link.
            let browser = try await ConsoleTests.signedIn(api)
            try await browser.get("/admin/events/\(world.event.id.wire)")
            _ = try await browser.post("/admin/events/\(world.event.id.wire)/ticket-mails", [])
            _ = await api.sendQueuedMail()
            let mail = try #require(sink.messages().first { $0.to == guest.email })
            let line = try #require(
                mail.body.split(separator: "\n").first { $0.hasPrefix("https://expo.example.org/attendee/contact/") })
            let path = String(line.dropFirst("https://expo.example.org".count)).trimmingCharacters(in: .whitespaces)
            // The page, without an account.
            let attendee = ConsoleBrowser(api)
            var page = try await attendee.get(path)
            #expect(page.status == 200)
            #expect(page.text.contains("Hello &lt;b&gt;Vera&lt;/b&gt;") && !page.text.contains("<b>Vera"))
            #expect(page.text.contains("You do not share your name"))
            page = try await attendee.post(path, [("share", "yes")], withToken: false)
            #expect(page.status == 200 && page.text.contains("Saved.") && page.text.contains("You share your name"))
            var leads = try await api.lab(ella).call(API.leads, booth.id, what: "leads").leads
            #expect(leads.first?.contact == SharedContact(name: guest.name, email: guest.email))
            _ = try await attendee.post(path, [("share", "no")], withToken: false)
            leads = try await api.lab(ella).call(API.leads, booth.id, what: "leads").leads
            #expect(leads.first?.contact == nil)
            // An altered link (another guest's id under this MAC) is not found; so is nonsense.
            let parts = path.split(separator: "/").last!.split(separator: ".")
            let other = Base64URL.encode(Array(world.guests[0].id.uuid.bytes))
            let forged = "/attendee/contact/v1.\(other).\(parts[2])"
            #expect(try await attendee.get(forged).status == 404)
            #expect(try await attendee.post(forged, [("share", "yes")], withToken: false).status == 404)
            #expect(try await attendee.get("/attendee/contact/nonsense").status == 404)
            let untouched = try await api.store.database.read { connection in
                try await connection.queryOne(
                    "SELECT 1 FROM guest_contact_consent WHERE guest_id = ?", [.id(world.guests[0].id)])
            }
            #expect(untouched == nil, "the forged link changed nothing")
            #expect(try await attendee.post(path, [("share", "maybe")], withToken: false).status == 400)
        }
    }
}
