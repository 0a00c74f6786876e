import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Guest fields an event defines (text, a choice, a checkbox): their rules, the guests' values,
/// the roster in both forms, the attendee CSV, the import and the console.
@Suite("Guest fields")
struct GuestFieldTests {
    static let shirt = GuestField(id: .random(), label: "T-shirt size", kind: .choice, choices: ["S", "M", "L"])
    static let diet = GuestField(id: .random(), label: "Dietary needs", kind: .text)
    static let photo = GuestField(id: .random(), label: "Photo consent", kind: .checkbox)

    static func put(
        _ api: TestAPI, _ token: String, _ event: EventID, _ fields: [GuestField]
    ) async throws
        -> APIResponse
    {
        try await api.request(
            .put, API.setGuestFields.path(event), token: token, json: GuestFieldList(fields: fields))
    }

    @Test(
        "guest-fields-defined: an organizer defines text, choice and checkbox fields (labels and choices trimmed, in order); a duplicate label, a choice without choices, choices on text, a label too long, more than 30 fields are 422; another kind under a kept id and another event's field id are 409; staff read them, support cannot change them, another tenant finds none; a clone asks the same fields under new ids",
        arguments: StoreKind.allCases)
    func defined(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let token = world.organizer.accessToken
            var padded = Self.shirt
            padded.label = "  T-shirt size "
            padded.choices = [" S", "M ", "L"]
            let saved = try await Self.put(api, token, event, [padded, Self.diet, Self.photo])
            #expect(saved.status == 200, "\(saved.text)")
            #expect(try saved.decode(GuestFieldList.self).fields == [Self.shirt, Self.diet, Self.photo])
            let read: GuestFieldList = try await api.request(
                .get, API.guestFields.path(event), token: world.staff1.accessToken
            ).decode()
            #expect(read.fields.map(\.label) == ["T-shirt size", "Dietary needs", "Photo consent"])
            func refused(_ fields: [GuestField], _ status: Int, _ words: String) async throws {
                let answer = try await Self.put(api, token, event, fields)
                #expect(answer.status == status && answer.text.contains(words), "\(answer.status) \(answer.text)")
            }
            var twin = Self.diet
            twin.id = .random()
            twin.label = "dietary NEEDS"
            try await refused([Self.diet, twin], 422, "Two fields are labelled")
            try await refused([GuestField(id: .random(), label: "Size", kind: .choice)], 422, "needs 1 to 50 choices")
            try await refused(
                [GuestField(id: .random(), label: "Note", kind: .text, choices: ["a"])], 422, "Only a choice field")
            try await refused(
                [GuestField(id: .random(), label: String(repeating: "x", count: 61), kind: .text)], 422, "1 to 60")
            try await refused(
                (0..<31).map { GuestField(id: .random(), label: "Field \($0)", kind: .text) }, 422, "at most 30")
            var kindChanged = Self.diet
            kindChanged.kind = .checkbox
            try await refused([kindChanged], 409, "keeps its kind")
            #expect(try await Self.put(api, world.support.accessToken, event, []).status == 403)
            #expect(try await Self.put(api, world.otherOrganizer.accessToken, event, []).status == 404)
            #expect(
                try await api.request(.get, API.guestFields.path(event), token: world.otherOrganizer.accessToken)
                    .status == 404)
            // Another event's field id cannot be taken over.
            let theirs = try await Self.put(
                api, world.otherOrganizer.accessToken, world.otherEvent.id,
                [GuestField(id: Self.photo.id, label: "Mine", kind: .checkbox)])
            #expect(theirs.status == 409)
            // Unchanged by every refusal.
            let after: GuestFieldList = try await api.request(.get, API.guestFields.path(event), token: token).decode()
            #expect(after.fields == [Self.shirt, Self.diet, Self.photo])
            // A clone asks the same, under ids of its own.
            let clone: EventInfo = try await api.request(
                .post, API.cloneEvent.path(event), token: token,
                json: CloneEventRequest(name: "Gala II", startsAt: api.clock.now, endsAt: api.clock.now + 3600)
            ).decode()
            let cloned: GuestFieldList = try await api.request(.get, API.guestFields.path(clone.id), token: token)
                .decode()
            #expect(cloned.fields.map(\.label) == after.fields.map(\.label))
            #expect(cloned.fields.map(\.kind) == after.fields.map(\.kind))
            #expect(cloned.fields.map(\.choices) == after.fields.map(\.choices))
            #expect(Set(cloned.fields.map(\.id)).isDisjoint(with: after.fields.map(\.id)))
        }
    }

    @Test(
        "guest-field-values: a guest's values are checked against the fields (a choice in any case is kept as listed, a checkbox yes or no, an unknown field or choice is 422 and changes nothing); an update changes only the fields it names and an empty value clears one; a removed field's value is kept and shows again when the field comes back; the roster carries fields and values in JSON and protobuf alike",
        arguments: StoreKind.allCases)
    func values(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let token = world.organizer.accessToken
            #expect(try await Self.put(api, token, event, [Self.shirt, Self.diet, Self.photo]).status == 200)
            let create = { (fields: GuestFieldValues) in
                try await api.request(
                    .post, API.createGuest.path(event), token: token,
                    json: CreateGuestRequest(
                        name: "Fay Fields", email: "fay@example.org", accessTypeId: world.accessType.id, fields: fields)
                )
            }
            let badChoice = try await create([Self.shirt.id.wire: "XXL"])
            #expect(badChoice.status == 422 && badChoice.text.contains("T-shirt size is one of: S, M, L"))
            #expect(try await create([GuestFieldID.random().wire: "x"]).status == 422)
            #expect(try await create([Self.photo.id.wire: "maybe"]).status == 422)
            let created = try await create([
                Self.shirt.id.wire: "m", Self.diet.id.wire: "  vegan ", Self.photo.id.wire: "no",
            ])
            #expect(created.status == 201, "\(created.text)")
            let fay = try created.decode(GuestInfo.self)
            #expect(fay.fields == [Self.shirt.id.wire: "M", Self.diet.id.wire: "vegan"])
            let update = { (fields: GuestFieldValues) in
                try await api.request(
                    .patch, API.updateGuest.path(event, fay.id), token: token, json: UpdateGuestRequest(fields: fields))
            }
            var answer = try await update([Self.photo.id.wire: "YES", Self.diet.id.wire: ""])
            #expect(try answer.decode(GuestInfo.self).fields == [Self.shirt.id.wire: "M", Self.photo.id.wire: "yes"])
            answer = try await update([Self.shirt.id.wire: "XL"])
            #expect(answer.status == 422)
            // Removed, the value is kept; back under its id, it shows again.
            #expect(try await Self.put(api, token, event, [Self.diet, Self.photo]).status == 200)
            #expect(try await update([Self.shirt.id.wire: "L"]).status == 422, "not a field of the event now")
            #expect(try await Self.put(api, token, event, [Self.shirt, Self.diet, Self.photo]).status == 200)
            let shown: GuestInfo = try await api.request(.get, API.showGuest.path(event, fay.id), token: token)
                .decode()
            #expect(shown.fields?[Self.shirt.id.wire] == "M")

            // The roster: the fields on every page, the values on the guest, in both forms.
            let path = API.roster.path(event)
            let door = world.staff1.accessToken
            let json: RosterPage = try await api.request(.get, path, token: door).decode()
            #expect(json.fields == [Self.shirt, Self.diet, Self.photo])
            #expect(
                json.guests.first { $0.id == fay.id }?.fields == [Self.shirt.id.wire: "M", Self.photo.id.wire: "yes"])
            #expect(json.guests.first { $0.id == world.guests[0].id }?.fields == nil)
            let compact = try await api.request(.get, path, token: door, headers: [.accept: RosterWire.deviceAccept])
            #expect(try RosterPage(protobuf: Data(compact.body)) == json)
            let empty: RosterPage = try await api.request(
                .get, API.roster.path(event, query: [("since", json.cursor)]), token: door
            ).decode()
            #expect(empty.guests.isEmpty && empty.fields == json.fields)
        }
    }

    @Test(
        "guest-fields-import-export: the import reads a column headed by a field's label (any case; a checkbox from yes/no, x, true, 1) and reports a bad value by its line; the attendee CSV has a column per field, headed by its label",
        arguments: StoreKind.allCases)
    func importExport(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 0)
            let event = world.event.id
            let token = world.organizer.accessToken
            #expect(try await Self.put(api, token, event, [Self.shirt, Self.diet, Self.photo]).status == 200)
            let csv =
                "name,email,access_type,t-shirt SIZE,Photo consent,Dietary needs\r\n"
                + "Ada Lovelace,ada@example.org,General,l,x,\r\n"
                + "Bad Row,bad@example.org,General,XXL,,\r\n"
                + "Alan Turing,alan@example.org,General,,no,\"=HYPERLINK(\"\"x\"\")\"\r\n"
            let imported = try await api.request(
                .post, API.importGuests.path(event), token: token, body: Array(csv.utf8),
                headers: [.contentType: "text/csv"])
            let result = try imported.decode(ImportResult.self)
            #expect(result.imported == 2)
            #expect(result.errors == [ImportRowError(line: 3, error: "T-shirt size is one of: S, M, L (not \"XXL\").")])
            let page: GuestPage = try await api.request(.get, API.listGuests.path(event), token: token).decode()
            #expect(
                page.guests.first { $0.name == "Ada Lovelace" }?.fields
                    == [Self.shirt.id.wire: "L", Self.photo.id.wire: "yes"])
            #expect(
                page.guests.first { $0.name == "Alan Turing" }?.fields == [Self.diet.id.wire: "=HYPERLINK(\"x\")"])
            let export = try await api.request(.get, API.exportGuests.path(event), token: token)
            let lines = export.text.split(separator: "\r\n").map(String.init)
            #expect(lines.first?.hasSuffix(",notes,T-shirt size,Dietary needs,Photo consent") == true, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("Ada Lovelace,") && $0.hasSuffix(",L,,yes") }, "\(lines)")
            // Formula-safe like every CSV the server writes.
            #expect(lines.contains { $0.hasPrefix("Alan Turing,") && $0.contains("'=HYPERLINK") }, "\(lines)")
        }
    }

    @Test(
        "console-guest-fields: the event page adds a choice field and removes one; the guest page edits the values (an unticked box is no, a refused choice says why) and support reads them; the import template has a column per field",
        arguments: StoreKind.allCases)
    func console(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.event.path(event))
            #expect(page.text.contains("id=\"new-guest-field\""))
            var answer = try await browser.post(
                ConsolePages.addGuestField.path(event),
                [("label", "<b>Size</b>"), ("kind", "choice"), ("choices", "S, M,\nL")])
            #expect(answer.headers[.location] == ConsolePages.event.path(event, query: [("done", "guest-field")]))
            answer = try await browser.post(
                ConsolePages.addGuestField.path(event), [("label", "Vegan"), ("kind", "checkbox"), ("choices", "")])
            answer = try await browser.post(
                ConsolePages.addGuestField.path(event), [("label", "Drop me"), ("kind", "text"), ("choices", "")])
            let refused = try await browser.post(
                ConsolePages.addGuestField.path(event), [("label", "vegan"), ("kind", "text"), ("choices", "")])
            #expect(refused.status == 422 && refused.text.contains("Two fields are labelled"))
            var fields: GuestFieldList = try await api.request(
                .get, API.guestFields.path(event), token: world.organizer.accessToken
            ).decode()
            #expect(fields.fields.map(\.label) == ["<b>Size</b>", "Vegan", "Drop me"])
            #expect(fields.fields[0].choices == ["S", "M", "L"])
            answer = try await browser.post(ConsolePages.removeGuestField.path(event, fields.fields[2].id), [])
            #expect(
                answer.headers[.location] == ConsolePages.event.path(event, query: [("done", "guest-field-removed")]))
            fields = try await api.request(.get, API.guestFields.path(event), token: world.organizer.accessToken)
                .decode()
            #expect(fields.fields.map(\.label) == ["<b>Size</b>", "Vegan"])
            page = try await browser.get(ConsolePages.event.path(event))
            #expect(page.text.contains("&lt;b&gt;Size&lt;/b&gt;</span> · one of S, M, L"))

            let size = fields.fields[0].id.wire
            let vegan = fields.fields[1].id.wire
            let guest = world.guests[0]
            page = try await browser.get(ConsolePages.guest.path(event, guest.id))
            #expect(page.text.contains("name=\"field.\(size)\"") && page.text.contains("name=\"field.\(vegan)\""))
            let form = { (extra: [(String, String)]) in
                try await browser.post(
                    ConsolePages.updateGuest.path(event, guest.id),
                    [
                        ("name", guest.name), ("email", guest.email), ("status", "confirmed"),
                        ("accessTypeId", world.accessType.id.wire), ("notes", guest.notes),
                    ] + extra)
            }
            answer = try await form([("field.\(size)", "M"), ("field.\(vegan)", "on")])
            #expect(answer.status == 303, "\(answer.text)")
            var shown: GuestInfo = try await api.request(
                .get, API.showGuest.path(event, guest.id), token: world.organizer.accessToken
            ).decode()
            #expect(shown.fields == [size: "M", vegan: "yes"])
            page = try await browser.get(ConsolePages.guest.path(event, guest.id))
            #expect(
                page.text.contains("<option selected>M</option>")
                    && page.text.contains("id=\"field-\(vegan)\" class=\"guest-field\" checked"))
            answer = try await form([("field.\(size)", "XL")])
            #expect(answer.status == 422 && answer.text.contains("is one of: S, M, L"))
            answer = try await form([("field.\(size)", "")])
            shown = try await api.request(.get, API.showGuest.path(event, guest.id), token: world.organizer.accessToken)
                .decode()
            #expect(shown.fields == nil, "the box unticked is no, the choice emptied")
            _ = try await form([("field.\(size)", "L")])
            let support = try await ConsoleTests.signedIn(api, "support@acme.test", password: "staff-password")
            page = try await support.get(ConsolePages.guest.path(event, guest.id))
            #expect(page.text.contains("<dt>&lt;b&gt;Size&lt;/b&gt;</dt><dd>L</dd>"))
            #expect(!page.text.contains("name=\"field."))
            let template = try await browser.get(ConsolePages.importTemplate.path(event))
            #expect(template.text.hasPrefix("name,email,access_type,notes,<b>Size</b>,Vegan\r\n"), "\(template.text)")
        }
    }
}
