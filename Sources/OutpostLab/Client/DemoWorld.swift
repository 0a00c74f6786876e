import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// What `outpost demo` seeds on its server: an organizer's event tonight with two access types,
/// a staff user, the kiosk set up, three zones, three pickup items and a booth (with its
/// exhibitor) for the EFx stations, `guests` guests, and the sponsor Northwind's block of five
/// VIP tickets (with its manager; the door may name them); a staff device signed in on it, with the
/// roster synced; and three sample tickets.
package struct DemoWorld {
    package static let organizer = (email: "organizer@demo.outpost", password: "outpost-demo", name: "Olivia Organizer")
    package static let staff = (email: "staff@demo.outpost", password: "outpost-staff", name: "Sam Staff")
    package static let exhibitor = (email: "expo@demo.outpost", password: "outpost-expo", name: "Ella Exhibitor")
    /// The manager of the sponsor Northwind's ticket block (EF-069).
    package static let blockManager = (
        email: "blocks@demo.outpost", password: "outpost-blocks", name: "Bo Blockmanager"
    )
    package static let kioskPasscode = "394817"

    package let event: EventInfo
    package let imported: Int
    /// Three guests and their ticket texts (what the QR codes carry).
    package let tickets: [(guest: GuestInfo, text: String)]
    /// The staff device, signed in with the event open.
    package let device: DeviceApp
    package let home: URL

    /// A device at `home` signed in to `server` as `account`, with `event` open and synced (its
    /// roster, and its venue mesh certificate).
    @MainActor
    package static func device(
        home: URL, server: URL, account: (email: String, password: String), event: EventID
    ) async throws -> DeviceApp {
        let ports = DevicePorts(
            keyStore: FileKeyStore(url: home.appendingPathComponent("device.key")), transport: OfflineTransport())
        let device = try DeviceApp.launch(home: home, ports: ports, modules: .eventDay).opened()
        await device.signIn(server: server, email: account.email, password: account.password)
        await device.openEvent(event)
        return device
    }

    /// Seeds the server at `server` (its organizer bootstrapped) and signs a device in under
    /// `directory`/device.
    @MainActor
    package static func seed(server: URL, guests: Int, directory: URL) async throws -> DemoWorld {
        let organizer = try await LabClient.signedIn(
            // The seeding's import of up to 20,000 guests is one request, longer than a door's
            // 10 s: it waits as long as the bench's seeding client does (ServerHandle, 300 s).
            transport: LiveTransport.make(baseURL: server, timeout: 300),
            LabClient.Credentials(
                email: Self.organizer.email, password: Self.organizer.password, deviceId: "outpost-demo"))
        let now = Date()
        let seeded = try await Seeder(client: organizer).seed(
            Seeder.Plan(
                event: CreateEventRequest(
                    name: "Outpost Demo Night", startsAt: now - 3600, endsAt: now + 6 * 3600, timeZone: "UTC",
                    modules: ["checkin", "kiosk", "efx"]),
                accessTypes: [
                    CreateAccessTypeRequest(name: "General", walkInAllowed: true),
                    CreateAccessTypeRequest(name: "VIP", walkInAllowed: false),
                ],
                guests: guests,
                staff: [
                    CreateUserRequest(
                        email: Self.staff.email, name: Self.staff.name, role: .checkinStaff,
                        password: Self.staff.password)
                ],
                kiosk: KioskSetupRequest(passcode: Self.kioskPasscode, orientation: .landscape),
                zones: [
                    Seeder.SeedZone(name: "Hall", accessTypes: ["General", "VIP"]),
                    Seeder.SeedZone(name: "Workshop A", capacity: 40, reEntry: false, accessTypes: ["General", "VIP"]),
                    Seeder.SeedZone(name: "VIP lounge", capacity: 30, reEntry: true, accessTypes: ["VIP"]),
                ],
                items: [
                    Seeder.SeedItem(name: "T-shirt M", stock: 50, perTicket: ["General": 1, "VIP": 1]),
                    Seeder.SeedItem(name: "Drink voucher", perTicket: ["General": 2, "VIP": 4]),
                    Seeder.SeedItem(name: "VIP gift bag", stock: 20, perTicket: ["VIP": 1]),
                ],
                booths: [
                    Seeder.SeedBooth(
                        name: "Acme Robotics", questions: ["Budget this year?"],
                        exhibitor: CreateUserRequest(
                            email: Self.exhibitor.email, name: Self.exhibitor.name, role: .exhibitor,
                            password: Self.exhibitor.password))
                ],
                blocks: [
                    Seeder.SeedBlock(
                        kind: .sponsor, partner: "Northwind", size: 5, accessType: "VIP", doorNaming: true,
                        manager: CreateUserRequest(
                            email: Self.blockManager.email, name: Self.blockManager.name, role: .blockManager,
                            password: Self.blockManager.password))
                ],
                fields: [
                    Seeder.SeedField(
                        label: "T-shirt size", kind: .choice, choices: ["S", "M", "L"], values: ["M", "L", "S", "M"]),
                    Seeder.SeedField(
                        label: "Dietary needs", kind: .text, values: ["vegetarian", "", "", "no nuts", ""]),
                ]))
        var tickets: [(GuestInfo, String)] = []
        for guest in seeded.guests.prefix(3) {
            tickets.append((guest, try await organizer.ticket(event: seeded.event.id, guest: guest.id)))
        }
        let home = directory.appendingPathComponent("device")
        let device = try await Self.device(
            home: home, server: server, account: (Self.staff.email, Self.staff.password), event: seeded.event.id)
        return DemoWorld(
            event: seeded.event, imported: seeded.imported.imported, tickets: tickets, device: device, home: home)
    }
}
