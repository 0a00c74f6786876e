import Foundation
import HTTPTypes
import HummingbirdBcrypt
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

@Suite("Administration contract")
struct AdminContractTests {
    @Test("a request field sent as JSON null is a 400 naming it, not silently the default")
    func nullFieldsRefused() async throws {
        try await withTestServer(.sqlite) { api in
            let world = try await World.make(api)
            let response = try await api.request(
                .post, "/v1/events/\(world.event.id)/access-types", token: world.organizer.accessToken,
                body: Array(#"{"name":"Late","walkInAllowed":null}"#.utf8), headers: [.contentType: "application/json"])
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_request")
            #expect(response.text.contains("walkInAllowed"))
            // The word null inside a string is just text.
            let named = try await api.request(
                .post, "/v1/events/\(world.event.id)/access-types", token: world.organizer.accessToken,
                body: Array(#"{"name":"null and void"}"#.utf8), headers: [.contentType: "application/json"])
            #expect(named.status == 201)
        }
    }

    @Test("health and client policy need no auth", arguments: StoreKind.allCases)
    func health(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            #expect(try await api.request(.get, "/health").text == #"{"status":"ok"}"#)
            let policy: ClientPolicy = try await api.request(.get, "/v1/client-policy").decode()
            #expect(policy == ClientPolicy(minIOS: "16.0", minAndroidAPI: 30))
            let unknown = try await api.request(.get, "/v1/nothing-here")
            #expect(unknown.status == 404 || unknown.status == 401)
        }
    }

    @Test(
        "CSV import: RFC 4180 rows, bad rows reported by line, good rows kept, re-import skipped",
        arguments: StoreKind.allCases)
    func csvImport(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 0)
            _ = try await api.createAccessType(world.organizer, event: world.event, name: "VIP")
            let csv =
                "\u{FEFF}name,email,access_type,notes\r\n"
                + "\"Nordmann, Åse\",ase@example.no,General,\"Says \"\"hi\"\"\"\r\n"
                + "No Email,not-an-email,General,\r\n"
                + "\r\n"
                + "Zoë Ünal,zoe@example.org,vip,\"two\r\nlines\"\r\n"
                + "Stray\"Quote,sq@example.org,General,\r\n"
                + "Unknown Type,ut@example.org,Backstage,\r\n"
                + "Too,many,fields,here,extra\r\n"
                + ",empty@example.org,General,\r\n"
                + "李雷,li@example.cn,General,\r\n"
            let path = "/v1/events/\(world.event.id)/guests:import"
            let response = try await api.request(
                .post, path, token: world.organizer.accessToken, body: Array(csv.utf8),
                headers: [.contentType: "text/csv"])
            #expect(response.status == 200)
            let result: ImportResult = try response.decode()
            #expect(result.imported == 3)
            #expect(result.skipped == 0)
            #expect(result.errors.map(\.line) == [3, 7, 8, 9, 10])
            let names = try await api.roster(world.organizer, event: world.event).flatMap(\.guests).map(\.name)
            #expect(Set(names) == ["Nordmann, Åse", "Zoë Ünal", "李雷"])
            let notes = try await api.roster(world.organizer, event: world.event).flatMap(\.guests).map(\.notes)
            #expect(notes.contains("Says \"hi\"") && notes.contains("two\r\nlines"))
            let again: ImportResult = try await api.request(
                .post, path, token: world.organizer.accessToken, body: Array(csv.utf8),
                headers: [.contentType: "text/csv"]
            ).decode()
            #expect(again.imported == 0 && again.skipped == 3 && again.errors.count == 5)
            let badHeader = try await api.request(
                .post, path, token: world.organizer.accessToken, body: Array("nom,courriel\nA,b@c.de\n".utf8))
            #expect(badHeader.status == 422)
            #expect(badHeader.errorCode == "invalid_request")
        }
    }

    @Test(
        "weak-passcode-rejected: the kiosk passcode PUT names every broken rule; a good one is stored hashed",
        arguments: StoreKind.allCases)
    func kioskPasscode(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let path = "/v1/events/\(world.event.id)/kiosk"
            let weak: [(String, [String])] = [
                ("1234", ["six_digits", "not_sequential", "not_common"]),
                ("111111", ["not_all_same", "not_common"]),
                ("123456", ["not_sequential", "not_common"]),
                ("654321", ["not_sequential", "not_common"]),
                ("987654", ["not_sequential", "not_common"]),
                ("12345a", ["six_digits"]),
            ]
            for (passcode, rules) in weak {
                let response = try await api.request(
                    .put, path, token: world.support.accessToken,
                    json: KioskSetupRequest(passcode: passcode, orientation: .landscape))
                #expect(response.status == 422, "\(passcode)")
                let body: ErrorBody = try response.decode()
                #expect(body.error == "weak_passcode")
                #expect(body.rules == rules, "\(passcode)")
                #expect(!body.message.isEmpty)
            }
            #expect(
                try await api.request(
                    .put, path, token: world.staff1.accessToken,
                    json: KioskSetupRequest(passcode: "394817", orientation: .portrait)
                ).status == 403)
            let ok = try await api.request(
                .put, path, token: world.support.accessToken,
                json: KioskSetupRequest(passcode: "394817", orientation: .portrait))
            #expect(ok.status == 204)
            let kiosk = try #require(try await api.roster(world.staff1, event: world.event)[0].kiosk)
            #expect(kiosk.orientation == .portrait)
            #expect(!kiosk.passcodeHash.contains("394817"))
            // Devices verify the passcode offline with plain bcrypt (KioskModule).
            #expect(Bcrypt.verify("394817", hash: kiosk.passcodeHash))
            #expect(!Bcrypt.verify("394818", hash: kiosk.passcodeHash))
        }
    }

    @Test("tickets as text, SVG and PNG (libqrencode, zlib)", arguments: StoreKind.allCases)
    func ticketFormats(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let base = "/v1/events/\(world.event.id)/guests/\(world.guests[0].id)/ticket"
            let text = try await api.request(.get, base, token: world.organizer.accessToken)
            #expect(text.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(text.text.hasPrefix("OP1") && text.text.count == 198)
            let svg = try await api.request(.get, base + "?format=svg", token: world.organizer.accessToken)
            #expect(svg.headers[.contentType] == "image/svg+xml")
            #expect(svg.text.contains("<svg") && svg.text.contains("<path"))
            let png = try await api.request(.get, base + "?format=png", token: world.organizer.accessToken)
            #expect(png.headers[.contentType] == "image/png")
            #expect(png.body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            #expect(Array(png.body.suffix(8).prefix(4)) == Array("IEND".utf8))
            #expect(try await api.request(.get, base + "?format=gif", token: world.organizer.accessToken).status == 400)
            #expect(try await api.request(.get, base, token: world.staff1.accessToken).status == 403)
            let unknown = "/v1/events/\(world.event.id)/guests/\(UUID().lowercasedString)/ticket"
            #expect(try await api.request(.get, unknown, token: world.organizer.accessToken).status == 404)
        }
    }

    @Test(
        "event-picker-shows-tenant-events: organizers see all the tenant's events, staff only assigned ones, by range",
        arguments: StoreKind.allCases)
    func eventList(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let nextWeek = try await api.createEvent(
                world.organizer, name: "Next week", startsAt: api.clock.now + 3 * 86_400)
            let nextMonth = try await api.createEvent(
                world.organizer, name: "Next month", startsAt: api.clock.now + 30 * 86_400)
            func names(_ session: Session, _ range: String) async throws -> [String] {
                let response = try await api.request(.get, "/v1/events?range=\(range)", token: session.accessToken)
                return try response.decode(EventList.self).events.map(\.name)
            }
            #expect(try await names(world.organizer, "all") == ["Gala", "Next week", "Next month"])
            #expect(try await names(world.organizer, "today") == ["Gala"])
            #expect(try await names(world.organizer, "week") == ["Gala", "Next week"])
            #expect(try await names(world.support, "all").count == 3)
            #expect(try await names(world.staff1, "all") == ["Gala"])
            #expect(try await names(world.otherOrganizer, "all") == ["Other Gala"])
            _ = (nextWeek, nextMonth)
            let bad = try await api.request(.get, "/v1/events?range=year", token: world.organizer.accessToken)
            #expect(bad.status == 400)
        }
    }

    @Test(
        "users: organizers create users in their tenant; duplicates 409; other roles 403", arguments: StoreKind.allCases
    )
    func users(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let duplicate = try await api.request(
                .post, "/v1/users", token: world.organizer.accessToken,
                json: CreateUserRequest(
                    email: "ALEX@acme.test", name: "Alex 2", role: .checkinStaff, password: "long-enough"))
            #expect(duplicate.status == 409)
            #expect(duplicate.errorCode == "email_taken")
            let forbidden = try await api.request(
                .post, "/v1/users", token: world.support.accessToken,
                json: CreateUserRequest(email: "new@acme.test", name: "New", role: .organizer, password: "long-enough"))
            #expect(forbidden.status == 403)
            #expect(forbidden.errorCode == "forbidden")
            let short = try await api.request(
                .post, "/v1/users", token: world.organizer.accessToken,
                json: CreateUserRequest(email: "new@acme.test", name: "New", role: .support, password: "short"))
            #expect(short.status == 422)
            let staffCreatesEvent = try await api.request(
                .post, "/v1/events", token: world.staff1.accessToken,
                json: CreateEventRequest(name: "Mine", startsAt: api.clock.now, endsAt: api.clock.now, timeZone: "UTC"))
            #expect(staffCreatesEvent.status == 403)
            let badZone = try await api.request(
                .post, "/v1/events", token: world.organizer.accessToken,
                json: CreateEventRequest(
                    name: "Zone", startsAt: api.clock.now, endsAt: api.clock.now, timeZone: "Mars/Olympus"))
            #expect(badZone.status == 422)
        }
    }

    @Test(
        "stats count confirmed guests and check-ins per access type; the audit log pages oldest first",
        arguments: StoreKind.allCases)
    func statsAndAudit(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 4)
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: world.guests[0].id)
            api.clock.advance(by: 1)
            _ = try await api.checkIn(world.staff2, event: world.event.id, guest: world.guests[1].id, deviceId: "d2")
            _ = try await api.request(
                .patch, "/v1/events/\(world.event.id)/guests/\(world.guests[3].id)", token: world.organizer.accessToken,
                json: UpdateGuestRequest(status: .cancelled))
            let stats: EventStats = try await api.request(
                .get, "/v1/events/\(world.event.id)/stats", token: world.organizer.accessToken
            ).decode()
            #expect(stats.guests == 3 && stats.checkedIn == 2)
            #expect(stats.byAccessType.first?.checkedIn == 2)
            #expect(stats.lastCheckInAt == api.clock.now)
            let first: AuditPage = try await api.request(
                .get, "/v1/events/\(world.event.id)/audit?limit=1", token: world.organizer.accessToken
            ).decode()
            #expect(first.entries.map(\.kind) == [.checkedIn] && first.hasMore)
            #expect(first.entries[0].deviceId == "device-1")
            let rest: AuditPage = try await api.request(
                .get, "/v1/events/\(world.event.id)/audit?since=\(first.cursor)", token: world.organizer.accessToken
            ).decode()
            #expect(rest.entries.map(\.deviceId) == ["d2"] && !rest.hasMore)
            #expect(
                try await api.request(.get, "/v1/events/\(world.event.id)/audit", token: world.staff1.accessToken)
                    .status == 403)
        }
    }

    @Test("the audit log is append-only in the database itself", arguments: StoreKind.allCases)
    func appendOnly(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            _ = try await api.checkIn(world.staff1, event: world.event.id, guest: world.guests[0].id)
            await #expect(throws: (any Error).self) {
                try await api.store.database.transaction { try await $0.execute("UPDATE audit_log SET kind = 'x'", []) }
            }
            await #expect(throws: (any Error).self) {
                try await api.store.database.transaction { try await $0.execute("DELETE FROM audit_log", []) }
            }
            #expect(try await api.audit(world.organizer, event: world.event).map(\.kind) == [.checkedIn])
        }
    }

    @Test("migrations are versioned and idempotent", arguments: StoreKind.allCases)
    func migrations(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            try await api.store.migrate()
            try await api.store.migrate()
            let version = try await api.store.database.read { try await Migrator.currentVersion($0) }
            #expect(version == Schema.migrations.count)
        }
    }
}
