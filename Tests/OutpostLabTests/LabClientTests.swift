import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostServer
import OutpostTestSupport
import Testing

/// The lab's one client and one seeder, against the real application on a real store.
@Suite("lab client and seeder")
struct LabClientTests {
    @Test("lab-seeder: one seeder makes the event, its access types, staff, kiosk and every guest in roster order")
    func seeder() async throws {
        try await withServer(location: .sqliteInMemory) { api in
            let organizer = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let now = api.clock.now
            let seed = try await Seeder(client: api.lab(organizer)).seed(
                Seeder.Plan(
                    event: CreateEventRequest(name: "Gala", startsAt: now, endsAt: now + 3600, timeZone: "UTC"),
                    accessTypes: [CreateAccessTypeRequest(name: "General"), CreateAccessTypeRequest(name: "VIP")],
                    guests: 25,
                    staff: [
                        CreateUserRequest(
                            email: "door@acme.test", name: "Door", role: .checkinStaff, password: "door-password")
                    ],
                    kiosk: KioskSetupRequest(passcode: "394817", orientation: .portrait)))
            #expect(seed.imported.imported == 25)
            #expect(seed.guests.count == 25)
            #expect(Set(seed.guestIds).count == 25)
            #expect(Set(seed.guests.map(\.email)).count == 25, "every guest has an e-mail of their own")
            let vip = try #require(seed.accessTypes.last)
            #expect(seed.guests.filter { $0.accessTypeId == vip.id }.count == 3, "every tenth guest gets the last type")
            // The staff member signs in and works the event; the kiosk is set up.
            let door = try await api.signIn(email: "door@acme.test", password: "door-password")
            let pages = try await api.roster(door, event: seed.event)
            #expect(pages.flatMap(\.guests).map(\.id) == seed.guestIds)
            #expect(pages.first?.kiosk?.orientation == .portrait)
            // The same names every run.
            #expect(
                GuestNames.csv(count: 25, accessTypes: ["General", "VIP"])
                    == GuestNames.csv(
                        count: 25, accessTypes: ["General", "VIP"]))
        }
    }

    @Test(
        "lab-client-resigns-in: an expired access token signs the user in again once; without credentials the 401 stands"
    )
    func resignsIn() async throws {
        try await withServer(
            location: .sqliteInMemory, configure: { $0.accessTokenLifetime = 60 }
        ) { api in
            _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let credentials = LabClient.Credentials(email: "org@acme.test", password: "organizer-pass")
            let client = try await LabClient.signedIn(transport: RouterTransport(client: api.client), credentials)
            let first = try #require(client.pair)
            let bare = LabClient(transport: RouterTransport(client: api.client), pair: first)
            api.clock.advance(by: 120)
            #expect(try await bare.request(API.listEvents.line()).status == 401)
            let events: EventList = try await client.call(API.listEvents.line(), what: "events")
            #expect(events.events.isEmpty)
            #expect(client.pair?.accessToken != first.accessToken, "signed in again with the credentials")
            // A wrong password is a clear failure, not a loop.
            let wrong = LabClient(
                transport: RouterTransport(client: api.client),
                credentials: LabClient.Credentials(email: "org@acme.test", password: "nope"))
            await #expect(throws: CleanFailure.self) { try await wrong.signIn() }
        }
    }
}
