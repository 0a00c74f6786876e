import Crypto
import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Every route with another tenant's ids answers 404 with the same body as an unknown id, and
/// 401 without a token.
@Suite("Tenant isolation")
struct TenantIsolationTests {
    @Test(
        "another tenant's events, guests and users are 404 on every route; no token is 401",
        arguments: StoreKind.allCases)
    func everyRoute(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let guest = world.guests[0].id
            let user = world.staff1.user.id
            let key = HTTPField.Name("Idempotency-Key")!
            let checkInBody = CheckInRequest(
                guestId: guest, deviceId: "d", scannedAt: Date(millisecondsSince1970: 1_795_000_000_000), method: .qr)
            let mentor = try await api.createUser(world.organizer, email: "mia@acme.test", role: .mentor, name: "Mia")
            let contact = try await api.lab(world.organizer).createContact(
                CreateContactRequest(name: "Ingrid", area: "Vardø", phone: "+47 915 55 012"))
            try await api.lab(world.organizer).assignContact(contact.id, to: mentor.user.id)
            let activity = ActivityID.random()
            let write = ActivityWrite(
                content: ActivityContent(
                    contactId: contact.id, type: .visit, date: "2026-11-17", durationMinutes: 30, notes: "tea"),
                baseVersion: 0)
            #expect(try await api.lab(mentor).putActivity(activity, write).status == 201)
            let door = try await api.lab(world.organizer).createAccessType(
                event: event, CreateAccessTypeRequest(name: "Door", walkInAllowed: true, walkInCapacity: 10))
            let leased = try await api.lab(world.staff1).leaseWalkIns(
                event: event, WalkInLeaseRequest(deviceId: "door-a", accessTypeId: door.id))
            let lease = try OutpostJSON.decode(WalkInLease.self, from: leased.body).id
            let reported = try await api.request(
                .put, "/v1/events/\(event.wire)/devices/door-a", token: world.staff1.accessToken,
                json: DeviceReport(pending: 1))
            #expect(reported.status == 204)
            let exhibitor = try await api.createUser(
                world.organizer, email: "ella@acme.test", role: .exhibitor, name: "Ella")
            let booth = Booth(id: .random(), name: "Acme Robotics", exhibitors: [exhibitor.user.id])
            _ = try await api.lab(world.organizer).call(
                API.setBooths, event, json: BoothList(booths: [booth]), what: "booths")
            let manager = try await api.createUser(
                world.organizer, email: "bea@sponsor.test", role: .blockManager, name: "Bea")
            let block = try await api.lab(world.organizer).call(
                API.allocateTicketBlock, event,
                json: TicketBlockAllocation(
                    kind: .sponsor, partner: "Acme", accessTypeId: world.accessType.id, size: 2,
                    namingDeadline: api.clock.now.addingTimeInterval(3_600), managers: [manager.user.id]),
                what: "block")
            let routes: [(HTTPRequest.Method, String, (any Encodable & Sendable)?, HTTPFields)] = Self.table(
                event: event, guest: guest, user: user, otherEvent: world.otherEvent.id, key: key,
                checkInBody: checkInBody, accessType: world.accessType.id, contact: contact.id,
                mentor: mentor.user.id, activity: activity, activityWrite: write, lease: lease, booth: booth.id,
                block: block.block.id, blockTicket: block.tickets[0].guestId)
            let unknownEvent = try await api.request(
                .get, "/v1/events/\(UUID().lowercasedString)/roster", token: world.otherOrganizer.accessToken)
            #expect(unknownEvent.status == 404)
            for (method, path, json, headers) in routes {
                let crossTenant = try await api.request(
                    method, path, token: world.otherOrganizer.accessToken, json: json, headers: headers)
                if path.contains(world.otherEvent.id.wire) {
                    #expect(crossTenant.status == 404, "user of another tenant on \(path)")
                } else {
                    #expect(crossTenant.status == 404, "\(method) \(path)")
                    #expect(crossTenant.body == unknownEvent.body, "\(method) \(path)")
                }
                let anonymous = try await api.request(method, path, json: json, headers: headers)
                #expect(anonymous.status == 401, "\(method) \(path) without a token")
            }
            // Staff not assigned to an event cannot tell it from a missing one.
            let loner = try await api.createUser(
                world.organizer, email: "loner@acme.test", role: .checkinStaff, name: "Loner")
            let unassigned = try await api.request(.get, "/v1/events/\(event)/roster", token: loner.accessToken)
            #expect(unassigned.status == 404 && unassigned.body == unknownEvent.body)
            let otherList: EventList = try await api.request(
                .get, "/v1/events", token: world.otherOrganizer.accessToken
            ).decode()
            #expect(!otherList.events.contains { $0.id == event })
            // Nothing of tenant A changed: the contact, its mentor and the activity are as they were.
            let contacts = try await api.lab(world.organizer).contacts()
            #expect(contacts.map(\.mentorIds) == [[mentor.user.id]])
            #expect(try await api.lab(mentor).activities().map(\.version) == [1])
            #expect(try await api.lab(world.organizer).reveals(contact.id).isEmpty)
            // Nothing of tenant A changed: the lease is open, no walk-in was added.
            #expect(
                try await api.lab(world.organizer).walkInSummary(event: event).capacities.map(\.openLeases) == [0, 1])
            // Nothing of tenant A changed.
            let guests = try await api.roster(world.organizer, event: world.event).flatMap(\.guests)
            #expect(guests.count == 5 && guests.allSatisfy { $0.status == .confirmed && $0.checkIn == nil })
            // The block kept its partner and its tickets stayed unnamed.
            let kept = try await api.lab(world.organizer).call(API.ticketBlock, block.block.id, what: "block")
            #expect(kept.block.partner == "Acme" && kept.tickets.allSatisfy { !$0.isNamed })
        }
    }

    /// The security table: every route that names an event, with another tenant's ids filled in.
    static func table(
        event: EventID, guest: GuestID, user: UserID, otherEvent: EventID, key: HTTPField.Name,
        checkInBody: CheckInRequest, accessType: AccessTypeID, contact: ContactID, mentor: UserID,
        activity: ActivityID, activityWrite: ActivityWrite, lease: WalkInLeaseID, revision: NoteRevisionID = .random(),
        printId: BadgePrintID = .random(), passageId: ZonePassageID = .random(),
        redemptionId: PickupRedemptionID = .random(), booth: BoothID = .random(), leadId: LeadID = .random(),
        block: TicketBlockID = .random(), blockTicket: GuestID? = nil, checkIn: CheckInID = .random()
    ) -> [(HTTPRequest.Method, String, (any Encodable & Sendable)?, HTTPFields)] {
        let passage = ZonePassage(
            id: passageId, zoneId: .random(), guestId: guest, movement: .enter, deviceId: "d",
            scannedAt: Date(millisecondsSince1970: 1_795_000_000_000))
        let pickup = PickupRedemption(
            id: redemptionId, guestId: guest, lines: [PickupLine(itemId: .random(), quantity: 1)], deviceId: "d",
            scannedAt: Date(millisecondsSince1970: 1_795_000_000_000))
        let note = NoteRevision(
            id: revision, noteId: revision, guestId: guest, replaces: [], body: "Taken", deviceId: "d",
            writtenAt: Date(millisecondsSince1970: 1_795_000_000_000))
        let print = BadgePrintRecord(
            id: printId, guestId: guest, reprint: false, reason: nil, deviceId: "d",
            printedAt: Date(millisecondsSince1970: 1_795_000_000_000))
        let walkIn = WalkInRequest(
            guestId: .random(), deviceId: "d", accessTypeId: accessType, name: "Taken", email: nil, payment: nil,
            addedAt: Date(millisecondsSince1970: 1_795_000_000_000), slot: nil)
        return [
            (.get, "/v1/events/\(event)/roster", nil, [:]),
            (.get, "/v1/events/\(event)", nil, [:]),
            (.patch, "/v1/events/\(event)", UpdateEventRequest(name: "Taken"), [:]),
            (
                .post, "/v1/events/\(event)/clone",
                CloneEventRequest(
                    name: "Taken", startsAt: Date(millisecondsSince1970: 1_795_000_000_000),
                    endsAt: Date(millisecondsSince1970: 1_795_000_000_000)), [:]
            ),
            (.get, "/v1/events/\(event)/guests", nil, [:]),
            (.post, "/v1/events/\(event)/checkins", checkInBody, [key: "d:\(guest):1795000000000"]),
            (.post, "/v1/events/\(event)/checkins:batch", CheckInBatchRequest(entries: [checkInBody]), [:]),
            (.post, "/v1/events/\(event)/checkins/\(checkIn)/undo", UndoCheckInRequest(reason: "Taken"), [:]),
            (.post, "/v1/events/\(event)/walkins", walkIn, [key: walkIn.idempotencyKey.description]),
            (.get, "/v1/events/\(event)/walkins", nil, [:]),
            (.get, "/v1/events/\(event)/walkins/summary", nil, [:]),
            (.get, "/v1/events/\(event)/walkins/summary.csv", nil, [:]),
            (
                .post, "/v1/events/\(event)/walkin-leases",
                WalkInLeaseRequest(deviceId: "door-a", accessTypeId: accessType), [:]
            ),
            (.post, "/v1/events/\(event)/walkin-leases/\(lease)/seal", WalkInSealRequest(used: 0), [:]),
            (.put, "/v1/events/\(event)/notes/\(note.id)", note, [:]),
            (.get, "/v1/events/\(event)/notes", nil, [:]),
            (.get, "/v1/events/\(event)/badge-layout", nil, [:]),
            (.put, "/v1/events/\(event)/badge-layout", BadgeLayout(printOnCheckIn: true), [:]),
            (.put, "/v1/events/\(event)/badge-prints/\(print.id)", print, [:]),
            (.get, "/v1/events/\(event)/badge-prints", nil, [:]),
            (.get, "/v1/events/\(event)/zones", nil, [:]),
            (.put, "/v1/events/\(event)/zones", ZoneList(zones: []), [:]),
            (.get, "/v1/events/\(event)/guest-fields", nil, [:]),
            (.post, "/v1/events/\(event)/guests:bulk", BulkGuestUpdate(guestIds: [guest], status: .cancelled), [:]),
            (.put, "/v1/events/\(event)/guest-fields", GuestFieldList(fields: []), [:]),
            (.put, "/v1/events/\(event)/zone-passages/\(passage.id)", passage, [:]),
            (.get, "/v1/events/\(event)/zone-occupancy", nil, [:]),
            (.get, "/v1/events/\(event)/pickup-items", nil, [:]),
            (.put, "/v1/events/\(event)/pickup-items", PickupCatalog(items: [], allowances: []), [:]),
            (.post, "/v1/events/\(event)/pickup-entitlements:import", nil, [:]),
            (.put, "/v1/events/\(event)/pickup-redemptions/\(pickup.id)", pickup, [:]),
            (.get, "/v1/events/\(event)/pickup-report", nil, [:]),
            (.get, "/v1/events/\(event)/booths", nil, [:]),
            (.put, "/v1/events/\(event)/booths", BoothList(booths: []), [:]),
            (
                .put, "/v1/booths/\(booth)/leads/\(leadId)",
                LeadWrite(
                    content: LeadContent(
                        guestId: guest, capturedAt: Date(millisecondsSince1970: 1_795_000_000_000), deviceId: "d"),
                    baseVersion: 0), [:]
            ),
            (.get, "/v1/booths/\(booth)/leads", nil, [:]),
            (.get, "/v1/booths/\(booth)", nil, [:]),
            (.get, "/v1/booths/\(booth)/leads.csv", nil, [:]),
            (.get, "/v1/events/\(event)/stations", nil, [:]),
            (.put, "/v1/events/\(event)/stations/\(user)", StationAssignment.pickup, [:]),
            (.delete, "/v1/events/\(event)/stations/\(user)", nil, [:]),
            (.get, "/v1/events/\(event)/my-station", nil, [:]),
            (
                .post, "/v1/events/\(event)/mesh/certificate",
                MeshCertificateRequest(
                    device: "door-1",
                    publicKey: P256.Signing.PrivateKey().publicKey.derRepresentation.base64EncodedString()), [:]
            ),
            (.get, "/v1/events/\(event)/mesh/revocations", nil, [:]),
            (
                .post, "/v1/events/\(event)/mesh/entries",
                MeshUpload(device: "door-1", entries: [], held: 0, peers: []), [:]
            ),
            (.get, "/v1/events/\(event)/ticket-blocks", nil, [:]),
            (
                .post, "/v1/events/\(event)/ticket-blocks",
                TicketBlockAllocation(
                    kind: .sponsor, partner: "Taken", accessTypeId: accessType, size: 1,
                    namingDeadline: Date(millisecondsSince1970: 1_795_000_000_000)), [:]
            ),
            (.get, "/v1/ticket-blocks/\(block)", nil, [:]),
            (.patch, "/v1/ticket-blocks/\(block)", TicketBlockAllocation(partner: "Taken"), [:]),
            (
                .put, "/v1/ticket-blocks/\(block)/tickets/\(blockTicket ?? guest)",
                TicketNaming(name: "Taken", email: "taken@example.org"), [:]
            ),
            (
                .put, "/v1/events/\(event)/guests/\(guest)/contact-consent", ContactConsent(sharesContact: true),
                [:]
            ),
            (.get, "/v1/events/\(event)/guests/\(guest)/ticket", nil, [:]),
            (.put, "/v1/events/\(event)/kiosk", KioskSetupRequest(passcode: "394817", orientation: .portrait), [:]),
            (.post, "/v1/events/\(event)/access-types", CreateAccessTypeRequest(name: "X"), [:]),
            (
                .post, "/v1/events/\(event)/guests",
                CreateGuestRequest(name: "X", email: "x@y.z", accessTypeId: accessType), [:]
            ),
            (.patch, "/v1/events/\(event)/guests/\(guest)", UpdateGuestRequest(status: .revoked), [:]),
            (.post, "/v1/events/\(event)/guests:import", nil, [:]),
            (.put, "/v1/events/\(event)/staff/\(user)", nil, [:]),
            (.delete, "/v1/events/\(event)/staff/\(user)", nil, [:]),
            (.get, "/v1/events/\(event)/staff", nil, [:]),
            (.get, "/v1/events/\(event)/tickets.pdf", nil, [:]),
            (.put, "/v1/events/\(otherEvent)/staff/\(user)", nil, [:]),
            (.get, "/v1/events/\(event)/stats", nil, [:]),
            (.get, "/v1/events/\(event)/dashboard", nil, [:]),
            (.get, "/v1/events/\(event)/guests/\(guest)", nil, [:]),
            (.get, "/v1/events/\(event)/checkins.csv", nil, [:]),
            (.get, "/v1/events/\(event)/audit.csv", nil, [:]),
            (.get, "/v1/events/\(event)/guests.csv", nil, [:]),
            (.get, "/v1/events/\(event)/ticket-mails", nil, [:]),
            (.post, "/v1/events/\(event)/ticket-mails", TicketMailRequest(guestIds: [guest]), [:]),
            (.put, "/v1/events/\(event)/devices/door-a", DeviceReport(pending: 1), [:]),
            (.get, "/v1/events/\(event)/audit", nil, [:]),
            (.delete, "/v1/users/\(user)", nil, [:]),
            (.put, "/v1/users/\(user)/password", PasswordResetRequest(password: "a new password"), [:]),
            (.patch, "/v1/users/\(user)", UpdateUserRequest(name: "Taken", role: .organizer), [:]),
            (.post, "/v1/users/\(user)/sign-out", nil, [:]),
            (.delete, "/v1/users/\(user)/two-factor", nil, [:]),
            (.post, "/v1/users/\(user)/password-link", nil, [:]),
            // Devices are the tenant's by what reported to it: another tenant's id is not found.
            (.put, "/v1/devices/door-a/name", DeviceName(name: "Taken"), [:]),
            (.post, "/v1/contacts/\(contact)/reveal", nil, [:]),
            (.get, "/v1/contacts/\(contact)/reveals", nil, [:]),
            (.put, "/v1/contacts/\(contact)/mentors/\(mentor)", nil, [:]),
            (.delete, "/v1/contacts/\(contact)/mentors/\(mentor)", nil, [:]),
            (.patch, "/v1/contacts/\(contact)", UpdateContactRequest(name: "Taken"), [:]),
            (.delete, "/v1/contacts/\(contact)", nil, [:]),
            (.put, "/v1/activities/\(activity)", activityWrite, [:]),
            (.delete, "/v1/activities/\(activity)?baseVersion=1", nil, [:]),
            (.get, "/v1/tracking/users/\(user)/days", nil, [:]),
            (.post, "/v1/tracking/users/\(user)/weeks/2026-W47/finalise", nil, [:]),
        ]
    }

    /// The console's routes that name an event: the same rows, through the console's
    /// session cookie; each reaches the event only through the API, so another tenant's ids are
    /// the console's 404 page.
    static func consoleTable(
        event: EventID, user: UserID, guest: GuestID, booth: BoothID = .random(), zone: ZoneID = .random(),
        block: TicketBlockID = .random(), contact: ContactID = .random()
    ) -> [(HTTPRequest.Method, String)] {
        [
            (.post, "/admin/contacts/\(contact)/mentors"), (.post, "/admin/contacts/\(contact)/erase"),
            (.get, "/admin/contacts/\(contact)"), (.post, "/admin/contacts/\(contact)"),
            (.get, "/admin/events/\(event)/ticket-blocks"), (.post, "/admin/events/\(event)/ticket-blocks"),
            (.get, "/admin/ticket-blocks/\(block)"), (.post, "/admin/ticket-blocks/\(block)"),
            (.post, "/admin/ticket-blocks/\(block)/tickets/\(guest)"),
            (.post, "/admin/events/\(event)/zones/\(zone)"), (.post, "/admin/events/\(event)/zones/\(zone)/remove"),
            (.post, "/admin/events/\(event)/stations"),
            (.get, "/admin/events/\(event)/booths"), (.post, "/admin/events/\(event)/booths"),
            (.get, "/admin/booths/\(booth)/leads"), (.get, "/admin/booths/\(booth)/leads.csv"),
            (.get, "/admin/events/\(event)"), (.post, "/admin/events/\(event)"),
            (.post, "/admin/events/\(event)/clone"),
            (.post, "/admin/events/\(event)/access-types"), (.get, "/admin/events/\(event)/guests"),
            (.post, "/admin/events/\(event)/guest-fields"),
            (.post, "/admin/events/\(event)/guest-fields/\(Self.consoleFieldId)/remove"),
            (.get, "/admin/events/\(event)/import"), (.post, "/admin/events/\(event)/import"),
            (.get, "/admin/events/\(event)/import/template.csv"),
            (.post, "/admin/events/\(event)/staff"), (.post, "/admin/events/\(event)/staff/\(user)/remove"),
            (.post, "/admin/events/\(event)/kiosk"), (.post, "/admin/staff/\(user)/remove"),
            (.post, "/admin/staff/\(user)"), (.post, "/admin/staff/\(user)/sign-out"),
            (.post, "/admin/staff/\(user)/two-factor/off"), (.post, "/admin/staff/\(user)/password-link"),
            (.get, "/admin/events/\(event)/tickets.pdf"), (.get, "/admin/events/\(event)/dashboard"),
            (.get, "/admin/events/\(event)/dashboard/stream"),
            (.get, "/admin/events/\(event)/guests/\(guest)"), (.post, "/admin/events/\(event)/guests/\(guest)"),
            (.get, "/admin/events/\(event)/guests.csv"), (.post, "/admin/events/\(event)/guests/mail"),
            (.post, "/admin/events/\(event)/guests/bulk"),
            (.post, "/admin/events/\(event)/guests/\(guest)/cancel"), (.get, "/admin/events/\(event)/audit"),
            (.post, "/admin/events/\(event)/guests/\(guest)/checkin"),
            (.post, "/admin/events/\(event)/guests/\(guest)/checkin/undo"),
            (.get, "/admin/events/\(event)/audit.csv"), (.get, "/admin/events/\(event)/checkins.csv"),
            (.get, "/admin/events/\(event)/walkins"), (.get, "/admin/events/\(event)/walkins.csv"),
            (.get, "/admin/events/\(event)/badge"), (.post, "/admin/events/\(event)/badge"),
            (.get, "/admin/events/\(event)/badge/preview.png"),
            (.get, "/admin/events/\(event)/zones"), (.post, "/admin/events/\(event)/zones"),
            (.post, "/admin/events/\(event)/efx"),
            (.get, "/admin/events/\(event)/pickup"), (.post, "/admin/events/\(event)/pickup"),
            (.post, "/admin/events/\(event)/pickup/entitlements"),
            (.get, "/admin/events/\(event)/ticket-mails"), (.post, "/admin/events/\(event)/ticket-mails"),
            (.post, "/admin/events/\(event)/ticket-mails/\(guest)/resend"),
            (.post, "/admin/devices/door-a/name"),
        ]
    }

    /// The guest field the console table names (none: another tenant's event is found first).
    static let consoleFieldId = GuestFieldID.random()

    /// Console routes that name no event: the caller's own tenant through the session.
    static let consoleScoped: Set<String> = [
        "GET /admin/events", "POST /admin/events", "POST /admin/signout", "GET /admin/staff", "POST /admin/staff",
        "GET /admin/settings", "POST /admin/settings", "GET /admin/two-factor", "POST /admin/two-factor",
        "GET /admin/contacts", "POST /admin/contacts", "GET /admin/activities", "GET /admin/activities.csv",
        "GET /admin/devices",
        "POST /admin/two-factor/confirm",
    ]
    /// Console routes for a browser that has not signed in.
    static let consolePublic: Set<String> = [
        "GET /admin", "GET /admin/signin", "POST /admin/signin", "GET /admin/static/console.css",
        "GET /admin/static/import.js", "GET /admin/static/dashboard.js", "GET /admin/static/events.js",
        "POST /admin/signin/code",
        // A mailed password link's page: the link's token is the key (password-link).
        "GET /admin/password", "POST /admin/password",
        "POST /admin/sso", "GET /admin/sso/done",
        // The attendee's consent page: its link's token is the key (lead-consent-link).
        "GET /attendee/contact/{token}", "POST /attendee/contact/{token}",
    ]

    @Test(
        "console-tenant-isolation: every console route naming an event is the console's 404 for another tenant's organizer, and sends a browser without a session to sign in",
        arguments: StoreKind.allCases)
    func console(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let other = ConsoleBrowser(api)
            #expect(try await other.signIn(email: "org@other.test", password: "organizer-pass").status == 303)
            try await other.get("/admin/events")
            let anonymous = ConsoleBrowser(api)
            let exhibitor = try await api.createUser(
                world.organizer, email: "ella@acme.test", role: .exhibitor, name: "Ella")
            let booth = Booth(id: .random(), name: "Acme Robotics", exhibitors: [exhibitor.user.id])
            _ = try await api.lab(world.organizer).call(
                API.setBooths, world.event.id, json: BoothList(booths: [booth]), what: "booths")
            let manager = try await api.createUser(
                world.organizer, email: "bea@sponsor.test", role: .blockManager, name: "Bea")
            let block = try await api.lab(world.organizer).call(
                API.allocateTicketBlock, world.event.id,
                json: TicketBlockAllocation(
                    kind: .sponsor, partner: "Acme", accessTypeId: world.accessType.id, size: 1,
                    namingDeadline: api.clock.now.addingTimeInterval(3_600), managers: [manager.user.id]),
                what: "block")
            let contact = try await api.lab(world.organizer).createContact(
                CreateContactRequest(name: "Ingrid", area: "Vardø", phone: "+47 915 55 012"))
            let reported = try await api.request(
                .put, "/v1/events/\(world.event.id.wire)/devices/door-a", token: world.staff1.accessToken,
                json: DeviceReport(pending: 1))
            #expect(reported.status == 204)
            for (method, path) in Self.consoleTable(
                event: world.event.id, user: world.staff1.user.id, guest: world.guests[0].id, booth: booth.id,
                block: block.block.id, contact: contact.id)
            {
                let crossTenant =
                    method == .get
                    ? try await other.get(path)
                    : path.hasSuffix("/import")
                        ? try await other.post(path, [], withToken: false, headers: [.csrfToken: other.csrf!])
                        : try await other.post(
                            path,
                            [
                                ("name", "Taken"), ("startsAt", "2027-01-01T10:00"), ("endsAt", "2027-01-01T12:00"),
                                ("timeZone", "UTC"), ("userId", world.staff1.user.id.wire), ("passcode", "394817"),
                                ("orientation", "portrait"), ("status", "confirmed"), ("email", "x@y.z"),
                                ("accessTypeId", world.accessType.id.wire), ("partner", "Taken"), ("size", "1"),
                                ("namingDeadline", "2027-01-01T10:00"),
                                ("scannedAt", String(api.clock.now.millisecondsSince1970)),
                                ("checkInId", CheckInID.random().wire), ("reason", "Taken"), ("role", "support"),
                                ("mentorId", world.staff1.user.id.wire),
                            ])
                #expect(crossTenant.status == 404, "\(method) \(path): \(crossTenant.status)")
                #expect(!crossTenant.text.contains(world.event.name), "\(method) \(path)")
                let stranger = method == .get ? try await anonymous.get(path) : try await anonymous.post(path, [])
                #expect(
                    stranger.headers[.location] == "/admin/signin" || stranger.status == 401,
                    "\(method) \(path) without a session: \(stranger.status)")
            }
            let guests = try await api.roster(world.organizer, event: world.event).flatMap(\.guests)
            #expect(guests.count == 4 && guests.allSatisfy { $0.name != "Taken" }, "nothing of tenant A changed")
            let staff: UserList = try await api.request(
                .get, "/v1/events/\(world.event.id.wire)/staff", token: world.organizer.accessToken
            ).decode()
            #expect(staff.users.count == 2, "the staff stayed")
            #expect(try await api.lab(world.organizer).events().map(\.name) == [world.event.name])
            #expect(try await api.lab(world.organizer).contacts().map(\.name) == ["Ingrid"], "the contact stayed")
        }
    }

    /// Routes that name no event: scoped to the caller's own tenant by the token alone.
    static let tenantScoped: Set<String> = [
        "GET /v1/events", "POST /v1/events", "GET /v1/users", "POST /v1/users", "GET /v1/audit/refused",
        "GET /v1/devices", "GET /v1/user-changes",
        "GET /v1/contacts",
        "POST /v1/contacts", "GET /v1/activities", "GET /v1/tenant/settings", "PUT /v1/tenant/settings",
        "GET /v1/me/consent", "PUT /v1/me/consent", "GET /v1/tracking/days", "PUT /v1/tracking/days/{date}",
        "GET /v1/me/export", "DELETE /v1/me", "GET /v1/contacts/changes", "PUT /v1/me/devices/{deviceId}",
        "GET /v1/tenant/sso", "PUT /v1/tenant/sso", "DELETE /v1/tenant/sso", "GET /v1/me/booths",
        "GET /v1/me/ticket-blocks", "GET /v1/me/two-factor", "POST /v1/me/two-factor", "POST /v1/me/two-factor/confirm",
    ]
    /// Routes that need no token at all.
    static let publicRoutes: Set<String> = [
        "GET /health", "GET /metrics", "GET /v1/client-policy", "POST /v1/auth/signin", "POST /v1/auth/refresh",
        "POST /v1/auth/signin/code", "POST /v1/auth/password-link",
        "POST /v1/auth/signout", "POST /v1/auth/email-code", "POST /v1/auth/email-signin",
        // Single sign-on's browser legs and the code's redemption; the callback takes an attempt
        // only on its own tenant's path (sso-refused-replayed-state).
        "GET /v1/auth/sso", "GET /v1/auth/sso/start", "GET /v1/auth/sso/{tenantId}/callback", "POST /v1/auth/sso/token",
    ]

    @Test("the security table covers every route the router serves; tenant-scoped routes need a token")
    func tableCoversEveryRoute() async throws {
        let dependencies = ServerDependencies(
            configuration: ServerConfiguration(store: .sqliteInMemory), store: Store(database: try SQLiteDatabase()),
            logger: TestStores.logger)
        let served = Set(
            OutpostServer.buildRouter(dependencies).routes.map { route -> String in
                let path = "\(route.path)".split(separator: "/")
                    .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
                return "\(route.method.rawValue) /\(path)"
            })
        let ids = (
            event: EventID.random(), guest: GuestID.random(), user: UserID.random(), contact: ContactID.random(),
            activity: ActivityID.random(), lease: WalkInLeaseID.random(), revision: NoteRevisionID.random(),
            print: BadgePrintID.random(), passage: ZonePassageID.random(), redemption: PickupRedemptionID.random(),
            booth: BoothID.random(), lead: LeadID.random(), zone: ZoneID.random(), block: TicketBlockID.random(),
            checkIn: CheckInID.random()
        )
        let tabled = Set(
            Self.table(
                event: ids.event, guest: ids.guest, user: ids.user, otherEvent: ids.event,
                key: HTTPField.Name("Idempotency-Key")!,
                checkInBody: CheckInRequest(guestId: ids.guest, deviceId: "d", scannedAt: Date(), method: .qr),
                accessType: .random(), contact: ids.contact, mentor: ids.user, activity: ids.activity,
                activityWrite: ActivityWrite(
                    content: ActivityContent(
                        contactId: ids.contact, type: .visit, date: "2026-11-17", durationMinutes: 1, notes: ""),
                    baseVersion: 0), lease: ids.lease, revision: ids.revision, printId: ids.print,
                passageId: ids.passage, redemptionId: ids.redemption, booth: ids.booth, leadId: ids.lead,
                block: ids.block, checkIn: ids.checkIn
            ).map { method, path, _, _ in
                let placeholders = [
                    (ids.event.wire, "{eventId}"), (ids.guest.wire, "{guestId}"), (ids.user.wire, "{userId}"),
                    (ids.contact.wire, "{contactId}"), (ids.activity.wire, "{activityId}"),
                    (ids.lease.wire, "{leaseId}"),
                    (ids.revision.wire, "{revisionId}"), (ids.print.wire, "{printId}"),
                    (ids.passage.wire, "{passageId}"), (ids.redemption.wire, "{redemptionId}"),
                    (ids.booth.wire, "{boothId}"), (ids.lead.wire, "{leadId}"), (ids.block.wire, "{blockId}"),
                    (ids.checkIn.wire, "{checkInId}"), ("2026-W47", "{week}"), ("door-a", "{deviceId}"),
                ]
                var route = String(path.split(separator: "?")[0])
                for (id, placeholder) in placeholders { route = route.replacingOccurrences(of: id, with: placeholder) }
                return "\(method.rawValue) \(route)"
            })
        let consoleTabled = Set(
            Self.consoleTable(
                event: ids.event, user: ids.user, guest: ids.guest, booth: ids.booth, zone: ids.zone, block: ids.block,
                contact: ids.contact
            )
            .map { method, path in
                "\(method.rawValue) "
                    + path.replacingOccurrences(of: ids.event.wire, with: "{eventId}")
                    .replacingOccurrences(of: ids.zone.wire, with: "{zoneId}")
                    .replacingOccurrences(of: ids.booth.wire, with: "{boothId}")
                    .replacingOccurrences(of: ids.block.wire, with: "{blockId}")
                    .replacingOccurrences(of: ids.user.wire, with: "{userId}")
                    .replacingOccurrences(of: ids.guest.wire, with: "{guestId}")
                    .replacingOccurrences(of: ids.contact.wire, with: "{contactId}")
                    .replacingOccurrences(of: "/devices/door-a/", with: "/devices/{deviceId}/")
                    .replacingOccurrences(of: Self.consoleFieldId.wire, with: "{fieldId}")
            })
        let uncovered = served.subtracting(tabled).subtracting(Self.tenantScoped).subtracting(Self.publicRoutes)
            .subtracting(consoleTabled).subtracting(Self.consoleScoped).subtracting(Self.consolePublic)
        #expect(uncovered.isEmpty, "routes missing from the security table: \(uncovered.sorted())")
        try await withTestServer(.sqlite) { api in
            _ = try await World.make(api)
            for route in Self.tenantScoped {
                let parts = route.split(separator: " ")
                let method = HTTPRequest.Method(rawValue: String(parts[0]))!
                #expect(try await api.request(method, String(parts[1])).status == 401, "\(route) without a token")
                let forged = try await api.request(
                    method, String(parts[1]), headers: [.authorization: "Bearer not-a-token"])
                #expect(forged.status == 401, "\(route) with a forged token")
            }
        }
    }
}
