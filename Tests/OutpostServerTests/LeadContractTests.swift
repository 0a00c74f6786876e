import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Lead retrieval on the server: booths with their questions and exhibitors (set by the
/// organizer), leads written over their version (a correction keeps the original, a stale edit
/// is a conflict), the attendee's contact details only while they share them, booth and tenant
/// isolation, and a formula-safe CSV.
@Suite("Lead retrieval")
struct LeadContractTests {
    struct Expo {
        var world: World
        var acme: Booth
        var globex: Booth
        var ella: Session
        var gus: Session
    }

    /// The world's event with two booths: Acme Robotics (Ella, one question) and Globex (Gus).
    static func expo(_ api: TestAPI) async throws -> Expo {
        let world = try await World.make(api)
        let ella = try await api.createUser(
            world.organizer, email: "ella@acme-robotics.test", role: .exhibitor, name: "Ella Exhibitor")
        let gus = try await api.createUser(world.organizer, email: "gus@globex.test", role: .exhibitor, name: "Gus")
        let acme = Booth(
            id: .random(), name: "Acme Robotics", questions: [BoothQuestion(key: "budget", text: "Budget this year?")],
            exhibitors: [ella.user.id])
        let globex = Booth(id: .random(), name: "Globex", exhibitors: [gus.user.id])
        let saved = try await api.lab(world.organizer).call(
            API.setBooths, world.event.id, json: BoothList(booths: [acme, globex]), what: "booths")
        #expect(saved.booths == [acme, globex])
        return Expo(world: world, acme: acme, globex: globex, ella: ella, gus: gus)
    }

    static func write(
        _ guest: GuestID, base: Int = 0, rating: Int = 0, notes: String = "", budget: String? = nil
    )
        -> LeadWrite
    {
        LeadWrite(
            content: LeadContent(
                guestId: guest, capturedAt: Date(millisecondsSince1970: 1_797_070_000_000), deviceId: "ella-phone",
                rating: rating, notes: notes, answers: budget.map { ["budget": $0] } ?? [:]),
            baseVersion: base)
    }

    @Test(
        "lead-consent: without consent a lead holds only the ticket's opaque id; once the attendee agrees it shows their name and e-mail, and not after they withdraw; consent given at import counts",
        arguments: StoreKind.allCases)
    func consent(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let expo = try await Self.expo(api)
            let event = expo.world.event.id
            let guest = expo.world.guests[0]
            let ella = api.lab(expo.ella)
            let lead = LeadID.random()
            let created = try await ella.call(
                API.writeLead, expo.acme.id, lead, json: Self.write(guest.id), what: "lead")
            #expect(created.contact == nil && created.content.guestId == guest.id && created.version == 1)
            let organizer = api.lab(expo.world.organizer)
            _ = try await organizer.call(
                API.setContactConsent, event, guest.id, json: ContactConsent(sharesContact: true), what: "agree")
            let listed = try await ella.call(API.leads, expo.acme.id, what: "leads").leads
            #expect(listed.first?.contact == SharedContact(name: guest.name, email: guest.email))
            _ = try await organizer.call(
                API.setContactConsent, event, guest.id, json: ContactConsent(sharesContact: false), what: "withdraw")
            #expect(try await ella.call(API.leads, expo.acme.id, what: "leads").leads.first?.contact == nil)
            // Consent given at registration: the guest import's shares_contact column.
            let imported = try await organizer.importGuests(
                event: event,
                csv: "name,email,access_type,shares_contact\nSam Sharer,sam@example.org,General,yes\n"
                    + "Ned,ned@example.org,General,maybe\n")
            #expect(imported.imported == 1 && imported.errors.map(\.line) == [3])
            let sam = try #require(
                try await api.roster(expo.world.organizer, event: expo.world.event).flatMap(\.guests).first {
                    $0.email == "sam@example.org"
                })
            let samLead = try await ella.call(
                API.writeLead, expo.acme.id, .random(), json: Self.write(sam.id), what: "sam")
            #expect(samLead.contact == SharedContact(name: "Sam Sharer", email: "sam@example.org"))
            // Only the organizer records consent (the exhibitor is not on the event's staff: not
            // found); another event's guest is not found.
            #expect(
                try await ella.request(
                    API.setContactConsent.line(event, guest.id), json: ContactConsent(sharesContact: true)
                ).status == 404)
            #expect(
                try await organizer.request(
                    API.setContactConsent.line(event, expo.world.otherGuest.id),
                    json: ContactConsent(sharesContact: true)
                ).status == 404)
        }
    }

    @Test(
        "lead-booth-isolation: an exhibitor reaches only their booth's leads (another booth, another tenant: 404) and nothing else of the event",
        arguments: StoreKind.allCases)
    func isolation(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let expo = try await Self.expo(api)
            let event = expo.world.event.id
            let gus = api.lab(expo.gus)
            let ella = api.lab(expo.ella)
            let lead = LeadID.random()
            _ = try await ella.call(
                API.writeLead, expo.acme.id, lead, json: Self.write(expo.world.guests[0].id), what: "lead")
            #expect(try await gus.request(API.leads.line(expo.acme.id)).status == 404)
            #expect(try await gus.request(API.exportLeads.line(expo.acme.id)).status == 404)
            #expect(
                try await gus.request(
                    API.writeLead.line(expo.acme.id, .random()), json: Self.write(expo.world.guests[1].id)
                )
                .status == 404)
            // Gus's own booth: his leads only.
            #expect(try await gus.call(API.leads, expo.globex.id, what: "leads").leads.isEmpty)
            // Nothing of the event but the booths: no roster, no events, no check-in, no booth list.
            #expect(try await ella.request(API.roster.line(event)).status == 404)
            #expect(try await ella.call(API.listEvents, what: "events").events.isEmpty)
            // An event they are not on the staff of is not found, as for check-in staff.
            #expect(try await ella.request(API.booths.line(event)).status == 404)
            // Nor can the organizer put an exhibitor on the event's staff (the roster would follow).
            #expect(
                try await api.lab(expo.world.organizer).request(API.assignStaff.line(event, expo.ella.user.id)).status
                    == 422)
            #expect(try await ella.request(API.roster.line(event)).status == 404)
            let mine = try await ella.call(API.myBooths, what: "my booths").booths
            #expect(mine.map(\.booth.name) == ["Acme Robotics"] && mine.first?.event.id == event)
            // Another tenant's organizer: the booth is not found.
            #expect(try await api.lab(expo.world.otherOrganizer).request(API.leads.line(expo.acme.id)).status == 404)
            // A lead for a ticket of another event is refused.
            #expect(
                try await ella.request(
                    API.writeLead.line(expo.acme.id, .random()), json: Self.write(expo.world.otherGuest.id)
                ).status == 422)
        }
    }

    @Test(
        "lead-versions: a lead is captured once (a resend answers the same), edited over its version, a stale edit is a conflict with the current lead, and every version is kept",
        arguments: StoreKind.allCases)
    func versions(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let expo = try await Self.expo(api)
            let guest = expo.world.guests[0].id
            let ella = api.lab(expo.ella)
            let lead = LeadID.random()
            let first = Self.write(guest, rating: 3, notes: "Wants a demo")
            let created = try await ella.request(API.writeLead.line(expo.acme.id, lead), json: first)
            #expect(created.status == 201)
            let resent = try await ella.request(API.writeLead.line(expo.acme.id, lead), json: first)
            #expect(resent.status == 200)
            #expect(try OutpostJSON.decode(Lead.self, from: resent.body).version == 1)
            let edited = try await ella.call(
                API.writeLead, expo.acme.id, lead, json: Self.write(guest, base: 1, rating: 5, budget: "50k"),
                what: "edit")
            #expect(edited.version == 2 && edited.content.rating == 5 && edited.content.answers == ["budget": "50k"])
            // A second device still on version 1.
            let stale = try await ella.request(
                API.writeLead.line(expo.acme.id, lead), json: Self.write(guest, base: 1, notes: "Other notes"))
            #expect(stale.status == 409)
            #expect(try OutpostJSON.decode(LeadConflict.self, from: stale.body).current == edited)
            // The original is kept beside the correction.
            let versions = try await api.store.database.read { connection in
                try await connection.query(
                    "SELECT version, content FROM lead_versions WHERE lead_id = ? ORDER BY version", [.id(lead)])
            }
            #expect(versions.count == 2)
            #expect(try versions.first?.text("content").contains("Wants a demo") == true)
            // Bad writes: an unknown question, a rating of 6, another attendee under the same id.
            #expect(
                try await ella.request(
                    API.writeLead.line(expo.acme.id, .random()),
                    json: LeadWrite(
                        content: LeadContent(
                            guestId: guest, capturedAt: Date(), deviceId: "d", answers: ["colour": "red"]),
                        baseVersion: 0)
                ).status == 422)
            #expect(
                try await ella.request(API.writeLead.line(expo.acme.id, .random()), json: Self.write(guest, rating: 6))
                    .status == 422)
            #expect(
                try await ella.request(
                    API.writeLead.line(expo.acme.id, lead), json: Self.write(expo.world.guests[1].id, base: 2)
                ).status == 409)
        }
    }

    @Test(
        "lead-csv-formula-safe: the booth's CSV has a column per question, contact details only while shared, and no field a spreadsheet runs as a formula",
        arguments: StoreKind.allCases)
    func csv(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let expo = try await Self.expo(api)
            let event = expo.world.event.id
            let organizer = api.lab(expo.world.organizer)
            let sharer = try await api.createGuest(
                expo.world.organizer, event: expo.world.event, accessType: expo.world.accessType,
                name: "=HYPERLINK(\"http://evil.test\")", email: "sharer@example.org")
            _ = try await organizer.call(
                API.setContactConsent, event, sharer.id, json: ContactConsent(sharesContact: true), what: "agree")
            let ella = api.lab(expo.ella)
            _ = try await ella.call(
                API.writeLead, expo.acme.id, .random(),
                json: Self.write(sharer.id, rating: 4, notes: "+1 555 0100", budget: "@SUM(A1:A9)"), what: "sharer")
            _ = try await ella.call(
                API.writeLead, expo.acme.id, .random(), json: Self.write(expo.world.guests[0].id), what: "private")
            let answer = try await ella.request(API.exportLeads.line(expo.acme.id))
            #expect(answer.status == 200)
            let text = String(decoding: answer.body, as: UTF8.self)
            let lines = text.split(separator: "\r\n").map(String.init)
            #expect(
                lines.first == "captured_at,name,email,attendee_id,rating,notes,Budget this year?,captured_by,version")
            #expect(
                text.contains(
                    "\"'=HYPERLINK(\"\"http://evil.test\"\")\",sharer@example.org,,4,'+1 555 0100,'@SUM(A1:A9)"))
            #expect(text.contains(",,,\(expo.world.guests[0].id.wire),,,,Ella Exhibitor,1"), "no details unshared")
            #expect(!text.contains(expo.world.guests[0].email))
        }
    }
}
