import Foundation
import OutpostCore
import OutpostProtocol

/// The one seeder: an event with its access types, imported guests, staff and kiosk, through the
/// API as an organizer would (bench, soak and demo all seed through it).
package struct Seeder: Sendable {
    /// The server's default import limit: a larger roster is imported in parts of this size.
    static let importRows = 100_000

    package let client: LabClient

    package init(client: LabClient) {
        self.client = client
    }

    package struct Plan: Sendable {
        package var event: CreateEventRequest
        /// The first is the guests' usual type; every tenth guest gets the last.
        package var accessTypes: [CreateAccessTypeRequest]
        /// How many guests to import (names from ``GuestNames``).
        package var guests: Int
        /// Check-in staff to create and put on the event's staff.
        package var staff: [CreateUserRequest] = []
        package var kiosk: KioskSetupRequest?
        /// Zones for the EFx zone stations, each admitting the access types it names.
        package var zones: [SeedZone] = []
        /// Items for the EFx pickup stations, each with what a ticket of an access type may collect.
        package var items: [SeedItem] = []
        /// Booths for EFx lead retrieval, each with its exhibitor user.
        package var booths: [SeedBooth] = []
        /// Ticket blocks for partners (EF-069), each with its block manager user; allocated after
        /// the import, so the imported guests come first in the roster.
        package var blocks: [SeedBlock] = []
        /// The event's own guest fields, defined before the import, whose columns give the guests
        /// their values.
        package var fields: [SeedField] = []

        package init(
            event: CreateEventRequest, accessTypes: [CreateAccessTypeRequest], guests: Int,
            staff: [CreateUserRequest] = [], kiosk: KioskSetupRequest? = nil, zones: [SeedZone] = [],
            items: [SeedItem] = [], booths: [SeedBooth] = [], blocks: [SeedBlock] = [], fields: [SeedField] = []
        ) {
            self.event = event
            self.accessTypes = accessTypes
            self.guests = guests
            self.staff = staff
            self.kiosk = kiosk
            self.zones = zones
            self.items = items
            self.booths = booths
            self.blocks = blocks
            self.fields = fields
        }
    }

    /// A guest field to seed, and its values: guest `i` of the import gets `values[i %
    /// values.count]` (an empty value: none).
    package struct SeedField: Sendable {
        package var label: String
        package var kind: GuestFieldKind
        package var choices: [String]
        package var values: [String]

        package init(label: String, kind: GuestFieldKind, choices: [String] = [], values: [String]) {
            self.label = label
            self.kind = kind
            self.choices = choices
            self.values = values
        }
    }

    /// A ticket block to seed: its partner, size, access type (by name), whether the door may
    /// name its tickets, and the block manager user to create for it; the naming deadline is the
    /// event's start.
    package struct SeedBlock: Sendable {
        package var kind: PartnerKind
        package var partner: String
        package var size: Int
        package var accessType: String
        package var doorNaming: Bool
        package var manager: CreateUserRequest

        package init(
            kind: PartnerKind, partner: String, size: Int, accessType: String, doorNaming: Bool,
            manager: CreateUserRequest
        ) {
            self.kind = kind
            self.partner = partner
            self.size = size
            self.accessType = accessType
            self.doorNaming = doorNaming
            self.manager = manager
        }
    }

    /// A booth to seed: its name, its questions and the exhibitor user to create for it.
    package struct SeedBooth: Sendable {
        package var name: String
        package var questions: [String]
        package var exhibitor: CreateUserRequest

        package init(name: String, questions: [String] = [], exhibitor: CreateUserRequest) {
            self.name = name
            self.questions = questions
            self.exhibitor = exhibitor
        }
    }

    /// A pickup item to seed: its name, stock, and how many a ticket of each access type (by name)
    /// may collect.
    package struct SeedItem: Sendable {
        package var name: String
        package var stock: Int?
        package var perTicket: [String: Int]

        package init(name: String, stock: Int? = nil, perTicket: [String: Int]) {
            self.name = name
            self.stock = stock
            self.perTicket = perTicket
        }
    }

    /// A zone to seed: its name, capacity, re-entry, and the access types (by name) it admits.
    package struct SeedZone: Sendable {
        package var name: String
        package var capacity: Int?
        package var reEntry: Bool
        package var accessTypes: [String]

        package init(name: String, capacity: Int? = nil, reEntry: Bool = true, accessTypes: [String]) {
            self.name = name
            self.capacity = capacity
            self.reEntry = reEntry
            self.accessTypes = accessTypes
        }
    }

    /// What was seeded: the event, its types, the import's result, and every guest in roster order.
    package struct Seed: Sendable {
        package var event: EventInfo
        package var accessTypes: [AccessTypeInfo]
        package var imported: ImportResult
        package var guests: [GuestInfo]

        package var eventId: EventID { event.id }
        package var guestIds: [GuestID] { guests.map(\.id) }
        package var names: [String] { guests.map(\.name) }
        package var codes: [String] { guests.map(\.code) }
    }

    package func seed(_ plan: Plan) async throws -> Seed {
        guard !plan.accessTypes.isEmpty else { throw CleanFailure("a seed needs at least one access type") }
        let event = try await client.createEvent(plan.event)
        var types: [AccessTypeInfo] = []
        for type in plan.accessTypes { types.append(try await client.createAccessType(event: event.id, type)) }
        for user in plan.staff {
            let created = try await client.createUser(user)
            try await client.assignStaff(user: created.id, event: event.id)
        }
        if let kiosk = plan.kiosk { try await client.setUpKiosk(event: event.id, kiosk) }
        if !plan.fields.isEmpty {
            let fields = plan.fields.map {
                GuestField(id: .random(), label: $0.label, kind: $0.kind, choices: $0.choices)
            }
            _ = try await client.call(
                API.setGuestFields, event.id, json: GuestFieldList(fields: fields), what: "guest fields")
        }
        if !plan.zones.isEmpty {
            let zones = plan.zones.map { zone in
                Zone(
                    id: .random(), name: zone.name, capacity: zone.capacity,
                    access: types.filter { zone.accessTypes.contains($0.name) }.map {
                        ZoneAccessRule(accessTypeId: $0.id, reEntry: zone.reEntry)
                    })
            }
            _ = try await client.call(API.setZones, event.id, json: ZoneList(zones: zones), what: "zones")
        }
        if !plan.items.isEmpty {
            let items = plan.items.map { PickupItem(id: .random(), name: $0.name, stock: $0.stock) }
            let allowances = zip(plan.items, items).flatMap { seed, item in
                types.compactMap { type in
                    seed.perTicket[type.name].map {
                        PickupAllowance(accessTypeId: type.id, itemId: item.id, quantity: $0)
                    }
                }
            }
            _ = try await client.call(
                API.setPickupItems, event.id, json: PickupCatalog(items: items, allowances: allowances),
                what: "pickup items")
        }
        if !plan.booths.isEmpty {
            var booths: [Booth] = []
            for seed in plan.booths {
                let exhibitor = try await client.createUser(seed.exhibitor)
                booths.append(
                    Booth(
                        id: .random(), name: seed.name,
                        questions: seed.questions.enumerated().map {
                            BoothQuestion(key: "q\($0.offset + 1)", text: $0.element)
                        }, exhibitors: [exhibitor.id]))
            }
            _ = try await client.call(API.setBooths, event.id, json: BoothList(booths: booths), what: "booths")
        }
        // One import per 100,000 rows: the server's default import limit.
        var imported = ImportResult(imported: 0, skipped: 0, errors: [])
        for start in stride(from: 0, to: plan.guests, by: Self.importRows) {
            let part = try await client.importGuests(
                event: event.id,
                csv: GuestNames.csv(
                    rows: start..<min(start + Self.importRows, plan.guests), accessTypes: types.map(\.name),
                    columns: plan.fields.map { ($0.label, $0.values) }))
            imported.imported += part.imported
            imported.skipped += part.skipped
            imported.errors += part.errors
            imported.errorsOmitted += part.errorsOmitted
        }
        guard imported.imported == plan.guests else {
            throw CleanFailure("imported \(imported.imported) of \(plan.guests) guests: \(imported.errors.prefix(3))")
        }
        for seed in plan.blocks {
            guard let type = types.first(where: { $0.name == seed.accessType }) else {
                throw CleanFailure("the block of \(seed.partner) names no access type of the plan: \(seed.accessType)")
            }
            let manager = try await client.createUser(seed.manager)
            _ = try await client.call(
                API.allocateTicketBlock, event.id,
                json: TicketBlockAllocation(
                    kind: seed.kind, partner: seed.partner, accessTypeId: type.id, size: seed.size,
                    namingDeadline: plan.event.startsAt, doorNaming: seed.doorNaming, managers: [manager.id]),
                what: "ticket block")
        }
        var guests: [GuestInfo] = []
        guests.reserveCapacity(plan.guests)
        try await client.roster(event: event.id, limit: 2000) { guests += $0.guests }
        return Seed(event: event, accessTypes: types, imported: imported, guests: guests)
    }
}
