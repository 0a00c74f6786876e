import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The coordinator's pages: contacts (add, assign a mentor, erase) and the activities report
/// with its filters, totals and the funder's CSV, through the API's routes.
@Suite("Console: the coordinator's pages")
struct ConsoleMentoringTests {
    @Test(
        "console-coordinator: a contact added (sealed fields kept sealed), a mentor assigned, the mentors' activities in the report by mentor, contact and period with their totals, the funder's CSV with the same filters, a contact erased; a door role cannot see them",
        arguments: StoreKind.allCases)
    func coordinator(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let mia = try await api.createUser(world.organizer, email: "mia@acme.test", role: .mentor, name: "Mia")
            let max = try await api.createUser(world.organizer, email: "max@acme.test", role: .mentor, name: "Max")
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.contacts.path())
            #expect(page.text.contains("No contacts yet") && page.text.contains("id=\"mentoring-nav\" aria-current"))
            page = try await browser.post(
                ConsolePages.createContact.path(),
                [
                    ("name", "Ingrid <b>Solberg</b>"), ("area", "Vardø"), ("address", ""), ("phone", "+47 915 55 012"),
                    ("healthNotes", ""),
                ])
            #expect(page.headers[.location] == ConsolePages.contacts.path(query: [("done", "contact")]))
            let ingrid = try #require(try await api.lab(world.organizer).contacts().first)
            #expect(ingrid.name == "Ingrid <b>Solberg</b>" && ingrid.sensitiveFields == ["phone"])
            page = try await browser.get(ConsolePages.contacts.path())
            #expect(page.text.contains("Ingrid &lt;b&gt;Solberg&lt;/b&gt;") && !page.text.contains("915 55"))
            // A refused contact keeps what was typed.
            page = try await browser.post(ConsolePages.createContact.path(), [("name", " "), ("area", "Kiberg")])
            #expect(page.status == 422 && page.text.contains("id=\"contact-area\" value=\"Kiberg\""))
            #expect(page.text.contains("id=\"contact-name-error\""))
            let other = try await api.lab(world.organizer).createContact(
                CreateContactRequest(name: "Olav", area: "Kiberg"))
            for (contact, mentor) in [(ingrid.id, mia.user.id), (other.id, max.user.id)] {
                page = try await browser.post(ConsolePages.assignMentor.path(contact), [("mentorId", mentor.wire)])
                #expect(
                    page.headers[.location] == ConsolePages.contacts.path(query: [("done", "assigned")]),
                    "\(page.status) \(page.text.suffix(300))")
            }
            #expect(try await api.lab(world.organizer).contacts().map(\.mentorIds) == [[mia.user.id], [max.user.id]])
            // The mentors' activities, from their phones.
            let writes: [(Session, ContactID, ActivityType, String, Int)] = [
                (mia, ingrid.id, .visit, "2026-11-05", 45), (mia, ingrid.id, .call, "2026-11-12", 15),
                (max, other.id, .outing, "2026-11-16", 120),
            ]
            for (mentor, contact, type, date, minutes) in writes {
                let write = ActivityWrite(
                    content: ActivityContent(
                        contactId: contact, type: type, date: date, durationMinutes: minutes, notes: "private"),
                    baseVersion: 0)
                #expect(try await api.lab(mentor).putActivity(.random(), write).status == 201)
            }
            page = try await browser.get(ConsolePages.activities.path())
            #expect(page.text.contains("<span id=\"activity-totals\">3 activities, 180 minutes</span>"))
            #expect(page.text.contains("<td>2026-11-16</td><td>Outing</td><td>120</td><td>Max</td><td>Olav</td>"))
            #expect(!page.text.contains("private"), "a mentor's notes stay theirs")
            page = try await browser.get(
                ConsolePages.activities.path(query: [("mentor", mia.user.id.wire), ("from", "2026-11-10")]))
            #expect(page.text.contains(">1 activity, 15 minutes<") && page.text.contains("<td>Call</td>"))
            let csv = try await browser.get(try #require(ConsoleGuestListTests.link("activities-csv", in: page.text)))
            let lines = csv.text.split(separator: "\r\n").map(String.init)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(
                lines == [
                    "Date,Activity,Minutes,Mentor,Contact,Area", "2026-11-12,call,15,Mia,\(ingrid.id.wire),Vardø",
                ])
            // Erased: gone from the contacts, its activities kept without the name.
            page = try await browser.post(ConsolePages.eraseContact.path(other.id), [])
            #expect(page.headers[.location] == ConsolePages.contacts.path(query: [("done", "erased")]))
            page = try await browser.get(ConsolePages.activities.path())
            #expect(page.text.contains("<td>Max</td><td>(erased)</td>") && !page.text.contains("Olav"))
            // A door role has no coordinator's pages.
            let door = try await ConsoleTests.signedIn(api, "alex@acme.test", password: "staff-password")
            #expect(try await door.get(ConsolePages.contacts.path()).status == 403)
            #expect(!(try await door.get(ConsolePages.events.path()).text.contains("mentoring-nav")))
        }
    }

    @Test(
        "console-contact-edit: a contact's page edits its name and area, changes a sealed field only when retyped and removes one when ticked, never showing one; it lists who revealed them, when; another tenant's contact is not found",
        arguments: StoreKind.allCases)
    func contactEdit(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let mia = try await api.createUser(world.organizer, email: "mia@acme.test", role: .mentor, name: "Mia")
            let lab = api.lab(world.organizer)
            let ingrid = try await lab.createContact(
                CreateContactRequest(name: "Ingrid", area: "Vardø", address: "Strandgata 1", phone: "+47 915 55 012"))
            try await lab.assignContact(ingrid.id, to: mia.user.id)
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.contact.path(ingrid.id))
            #expect(page.text.contains("id=\"reveals-empty\""))
            #expect(
                page.text.contains("id=\"contact-remove-phone\"") && !page.text.contains("contact-remove-healthNotes"))
            #expect(!page.text.contains("915 55") && !page.text.contains("Strandgata"))
            // Mia reveals them on her phone: the page lists it.
            let revealed = try await api.request(
                .post, API.revealContact.path(ingrid.id), token: mia.accessToken)
            #expect(revealed.status == 200)
            page = try await browser.get(ConsolePages.contact.path(ingrid.id))
            #expect(page.text.contains("<td>Mia</td>") && !page.text.contains("reveals-empty"))
            // A new phone typed, the address removed, the health notes left empty (none kept).
            var answer = try await browser.post(
                ConsolePages.updateContact.path(ingrid.id),
                [
                    ("name", "Ingrid Solberg"), ("area", "Kiberg"), ("address", ""), ("remove-address", "1"),
                    ("phone", "+47 915 55 099"), ("healthNotes", ""),
                ])
            #expect(
                answer.headers[.location] == ConsolePages.contact.path(ingrid.id, query: [("done", "contact-saved")]))
            let sealed: ContactSensitive = try await api.request(
                .post, API.revealContact.path(ingrid.id), token: world.organizer.accessToken
            ).decode()
            #expect(sealed.address == nil && sealed.phone == "+47 915 55 099" && sealed.healthNotes == nil)
            var contact = try #require(try await lab.contacts().first { $0.id == ingrid.id })
            #expect(
                contact.name == "Ingrid Solberg" && contact.area == "Kiberg" && contact.sensitiveFields == ["phone"])
            // Left empty, a kept field stays.
            answer = try await browser.post(
                ConsolePages.updateContact.path(ingrid.id),
                [("name", "Ingrid Solberg"), ("area", "Kiberg"), ("address", ""), ("phone", ""), ("healthNotes", "")])
            contact = try #require(try await lab.contacts().first { $0.id == ingrid.id })
            #expect(contact.sensitiveFields == ["phone"])
            // A refusal keeps what was typed.
            answer = try await browser.post(
                ConsolePages.updateContact.path(ingrid.id), [("name", " "), ("area", "Ekkerøy")])
            #expect(answer.status == 422 && answer.text.contains("id=\"contact-area\" value=\"Ekkerøy\""))
            let other = ConsoleBrowser(api)
            _ = try await other.signIn(email: "org@other.test", password: "organizer-pass")
            #expect(try await other.get(ConsolePages.contact.path(ingrid.id)).status == 404)
        }
    }
}
