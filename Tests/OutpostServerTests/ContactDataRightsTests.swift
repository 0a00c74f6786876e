import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// A coordinator edits and erases contacts (their sealed fields and reveals
/// with them; the activities' counts stay; the audit says who did what), and reads activities
/// filtered, in pages, and as a CSV for a funder's report. Both stores.
@Suite("Peer mentors: contacts' data rights and activity reports")
struct ContactDataRightsTests {
    typealias MentorWorld = MentoringContractTests.MentorWorld

    static func write(
        _ api: TestAPI, _ session: Session, contact: ContactID, date: String, minutes: Int = 60,
        notes: String = ""
    ) async throws -> Activity {
        let answer = try await api.request(
            .put, "/v1/activities/\(UUID().lowercasedString)", token: session.accessToken,
            json: ActivityWrite(
                content: ActivityContent(
                    contactId: contact, type: .visit, date: date, durationMinutes: minutes, notes: notes),
                baseVersion: 0))
        #expect(answer.status == 201, "\(answer.text)")
        return try answer.decode(Activity.self)
    }

    @Test(
        "pm-contact-edit-erase: a coordinator edits a contact's details and sealed fields, then erases it: its name, area, sealed fields, reveals, assignments and visit notes go, its activities stay counted, and the audit says who did which",
        arguments: StoreKind.allCases)
    func editAndErase(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await MentorWorld.make(api)
            let organizer = world.world.organizer
            let id = world.contact1.id
            // Edit: the name, and the phone replaced; the health notes removed.
            let edited = try await api.request(
                .patch, "/v1/contacts/\(id)", token: organizer.accessToken,
                json: UpdateContactRequest(name: "Ingrid Solberg-Berg", phone: "+47 900 00 000", healthNotes: ""))
            #expect(edited.status == 200, "\(edited.text)")
            let contact = try edited.decode(Contact.self)
            #expect(contact.name == "Ingrid Solberg-Berg" && contact.sensitiveFields == ["address", "phone"])
            let revealed: ContactSensitive = try await api.request(
                .post, "/v1/contacts/\(id)/reveal", token: world.mentor1.accessToken
            ).decode()
            #expect(
                revealed == ContactSensitive(address: MentoringContractTests.secrets.address, phone: "+47 900 00 000"))
            // Only a coordinator edits or erases; an unknown contact is 404.
            #expect(
                try await api.request(
                    .patch, "/v1/contacts/\(id)", token: world.mentor1.accessToken,
                    json: UpdateContactRequest(name: "X")
                ).status == 403)
            #expect(
                try await api.request(.delete, "/v1/contacts/\(id)", token: world.mentor1.accessToken).status == 403)
            #expect(
                try await api.request(.delete, "/v1/contacts/\(UUID().lowercasedString)", token: organizer.accessToken)
                    .status == 404)
            #expect(
                try await api.request(
                    .patch, "/v1/contacts/\(id)", token: organizer.accessToken, json: UpdateContactRequest(name: "  ")
                ).status == 422)
            // Two visits with notes, one deleted later; then the erasure.
            let first = try await Self.write(
                api, world.mentor1, contact: id, date: "2026-11-10", notes: "Ingrid talked about her sister in Vadsø")
            let second = try await Self.write(api, world.mentor1, contact: id, date: "2026-11-12", minutes: 90)
            _ = second
            #expect(try await api.request(.delete, "/v1/contacts/\(id)", token: organizer.accessToken).status == 204)
            // Gone from every list, for mentors and the coordinator; no reveal, no new visit.
            #expect(try await api.lab(world.mentor1).contacts().isEmpty)
            #expect(try await api.lab(organizer).contacts().map(\.id) == [world.contact2.id])
            #expect(
                try await api.request(.post, "/v1/contacts/\(id)/reveal", token: organizer.accessToken).status == 404)
            let late = try await api.request(
                .put, "/v1/activities/\(UUID().lowercasedString)", token: world.mentor1.accessToken,
                json: ActivityWrite(
                    content: ActivityContent(
                        contactId: id, type: .visit, date: "2026-11-13", durationMinutes: 30, notes: ""),
                    baseVersion: 0))
            #expect(late.status == 404)
            #expect(try await api.request(.delete, "/v1/contacts/\(id)", token: organizer.accessToken).status == 404)
            // The activities stay, counted, without their notes (a new version, so devices take it).
            let activities: ActivityList = try await api.request(
                .get, "/v1/activities?contact=\(id)", token: organizer.accessToken
            ).decode()
            #expect(activities.activities.count == 2 && activities.activities.allSatisfy { $0.notes.isEmpty })
            #expect(activities.activities.first { $0.id == first.id }?.version == 2)
            // Nothing of the person is left anywhere in the store.
            let dump = try await MentoringContractTests.dump(
                api.store, tables: ["contacts", "activities", "contact_reveals", "contact_changes", "contact_mentors"])
            for personal in [
                "Ingrid", "Båtsfjord", "Fjordveien", "+47 900 00 000", "sister in Vadsø",
            ] {
                #expect(!dump.contains(personal), "\(personal) is still stored")
            }
            #expect(
                try await api.store.database.read {
                    try await $0.queryOne("SELECT COUNT(*) AS n FROM contact_reveals WHERE contact_id = ?", [.id(id)])
                }?.int("n") == 0)
            // The audit: who edited which fields, who erased which contact, and what was kept.
            let changes: ContactChangeList = try await api.request(
                .get, "/v1/contacts/changes", token: organizer.accessToken
            ).decode()
            #expect(changes.changes.map(\.action) == [.edited, .erased])
            #expect(changes.changes[0].fields == ["name", "healthNotes", "phone"])
            #expect(changes.changes[1].contactId == id && changes.changes[1].userId == organizer.user.id)
            #expect(changes.changes[1].activitiesKept == 2 && changes.changes[1].fields.contains("address"))
            #expect(
                try await api.request(.get, "/v1/contacts/changes", token: world.mentor1.accessToken).status == 403)
        }
    }

    @Test(
        "pm-activity-report: activities filter by mentor, contact and days, come in cursor pages that add up to the whole, and export as CSV without notes or names",
        arguments: StoreKind.allCases)
    func report(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await MentorWorld.make(api)
            let organizer = world.world.organizer
            var written: [Activity] = []
            for day in 1...9 {
                written.append(
                    try await Self.write(
                        api, world.mentor1, contact: world.contact1.id, date: "2026-11-0\(day)",
                        notes: "=cmd|' /C calc'!A0"))
            }
            for day in 3...5 {
                written.append(
                    try await Self.write(api, world.mentor2, contact: world.contact2.id, date: "2026-11-0\(day)"))
            }
            func list(_ query: String, _ session: Session? = nil) async throws -> APIResponse {
                try await api.request(.get, "/v1/activities?\(query)", token: (session ?? organizer).accessToken)
            }
            // Filters.
            let byMentor = try await list("mentor=\(world.mentor2.user.id)").decode(ActivityList.self)
            #expect(
                byMentor.activities.count == 3
                    && byMentor.activities.allSatisfy { $0.mentorId == world.mentor2.user.id })
            let range = try await list("from=2026-11-04&to=2026-11-05").decode(ActivityList.self)
            #expect(
                range.activities.count == 4
                    && range.activities.map(\.date) == ["2026-11-05", "2026-11-05", "2026-11-04", "2026-11-04"])
            let byContact = try await list("contact=\(world.contact2.id)&from=2026-11-04").decode(ActivityList.self)
            #expect(byContact.activities.map(\.date) == ["2026-11-05", "2026-11-04"])
            // A mentor filtering by another mentor sees nothing of theirs.
            let theirs = try await list("mentor=\(world.mentor2.user.id)", world.mentor1).decode(ActivityList.self)
            #expect(theirs.activities.isEmpty)
            // Pages of 5: every activity once, newest day first, and the last page has no next.
            var seen: [Activity] = []
            var after: String?
            var pages = 0
            repeat {
                let page = try await list("limit=5" + (after.map { "&after=\($0)" } ?? "")).decode(ActivityList.self)
                seen += page.activities
                after = page.next
                pages += 1
            } while after != nil && pages < 10
            #expect(pages == 3 && seen.count == 12 && Set(seen.map(\.id)) == Set(written.map(\.id)))
            #expect(seen.map(\.date) == seen.map(\.date).sorted(by: >))
            // Bad queries say which parameter is wrong.
            for (query, words) in [
                ("limit=0", "'limit'"), ("after=nonsense&limit=5", "'after'"), ("from=2026-02-30", "'from'"),
                ("mentor=me", "'mentor'"), ("from=2026-11-05&to=2026-11-01", "'from' is on or before"),
                ("colour=red", "Unknown"),
            ] {
                let refused = try await list(query)
                #expect(refused.status == 400 && refused.text.contains(words), "\(query): \(refused.text)")
            }
            // The CSV: live activities, no notes, no contact names; a formula is not run.
            let csv = try await list("format=csv&from=2026-11-03&to=2026-11-03")
            #expect(csv.status == 200 && csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = csv.text.split(whereSeparator: \.isNewline).map(String.init)
            #expect(lines.first == "Date,Activity,Minutes,Mentor,Contact,Area")
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.contains("2026-11-03,visit,60,Mia,\(world.contact1.id),Båtsfjord"), "\(lines)")
            #expect(!csv.text.contains("calc") && !csv.text.contains("Ingrid"))
            // A deleted activity is not in the report.
            let gone = written[2]
            #expect(
                try await api.request(
                    .delete, "/v1/activities/\(gone.id)?baseVersion=1", token: world.mentor1.accessToken
                ).status == 204)
            let after3 = try await list("format=csv&from=2026-11-03&to=2026-11-03")
            #expect(after3.text.split(whereSeparator: \.isNewline).count == 2)
        }
    }
}
