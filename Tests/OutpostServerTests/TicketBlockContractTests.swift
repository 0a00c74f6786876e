import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Ticket blocks (EF-069) on the server: an organizer allocates a block of unnamed tickets to a
/// partner; the partner's block manager sees only their block and names its tickets until the
/// deadline (each named ticket is mailed); the roster carries the block's scope to the doors;
/// the door names an unnamed ticket when the organizer allows it.
@Suite("Ticket blocks")
struct TicketBlockContractTests {
    struct Blocks {
        var world: World
        var acme: TicketBlockDetail
        var globex: TicketBlockDetail
        var mia: Session
        var gil: Session
    }

    /// The world's event with two blocks: Acme (a sponsor, 20 tickets, managed by Mia, naming
    /// until five minutes after the clock, within the sessions' access tokens) and Globex (a
    /// company, 3 tickets, managed by Gil).
    static let window: TimeInterval = 300

    static func blocks(_ api: TestAPI, doorNaming: Bool = false) async throws -> Blocks {
        let world = try await World.make(api)
        let mia = try await api.createUser(
            world.organizer, email: "mia@acme-sponsor.test", role: .blockManager, name: "Mia Manager")
        let gil = try await api.createUser(world.organizer, email: "gil@globex.test", role: .blockManager, name: "Gil")
        let organizer = api.lab(world.organizer)
        let acme = try await organizer.call(
            API.allocateTicketBlock, world.event.id,
            json: TicketBlockAllocation(
                kind: .sponsor, partner: " Acme ", accessTypeId: world.accessType.id, size: 20,
                namingDeadline: api.clock.now.addingTimeInterval(Self.window), doorNaming: doorNaming,
                managers: [mia.user.id]), what: "acme")
        let globex = try await organizer.call(
            API.allocateTicketBlock, world.event.id,
            json: TicketBlockAllocation(
                kind: .company, partner: "Globex", accessTypeId: world.accessType.id, size: 3,
                namingDeadline: api.clock.now.addingTimeInterval(Self.window), managers: [gil.user.id]), what: "globex")
        #expect(acme.block.partner == "Acme" && acme.block.size == 20 && acme.block.named == 0)
        #expect(acme.tickets.count == 20 && acme.tickets.allSatisfy { !$0.isNamed && $0.status == .confirmed })
        return Blocks(world: world, acme: acme, globex: globex, mia: mia, gil: gil)
    }

    @Test(
        "block-manager-isolation: a block manager sees only their own block (another block, another tenant: 404) and nothing else of the event",
        arguments: StoreKind.allCases)
    func isolation(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let blocks = try await Self.blocks(api)
            let mia = api.lab(blocks.mia)
            let mine = try await mia.call(API.myTicketBlocks, what: "mine").blocks
            #expect(mine.map(\.block.id) == [blocks.acme.block.id])
            #expect(mine.first?.event.id == blocks.world.event.id && mine.first?.accessTypeName == "General")
            #expect(try await mia.call(API.ticketBlock, blocks.acme.block.id, what: "acme").tickets.count == 20)
            // Globex's block, and its tickets, are not found for Mia.
            let globexTicket = blocks.globex.tickets[0].guestId
            #expect(try await mia.request(API.ticketBlock.line(blocks.globex.block.id)).status == 404)
            #expect(
                try await mia.request(
                    API.nameBlockTicket.line(blocks.globex.block.id, globexTicket),
                    json: TicketNaming(name: "Mallory", email: "m@example.org")
                ).status == 404)
            // Another block's ticket under Mia's block id is not found either.
            #expect(
                try await mia.request(
                    API.nameBlockTicket.line(blocks.acme.block.id, globexTicket),
                    json: TicketNaming(name: "Mallory", email: "m@example.org")
                ).status == 404)
            // Nothing of the event: no roster, no events, no guests, no block list, no allocation (an
            // event whose staff they are not on is not found).
            let event = blocks.world.event.id
            #expect(try await mia.call(API.listEvents, what: "events").events.isEmpty)
            #expect([403, 404].contains(try await mia.request(API.roster.line(event)).status))
            #expect([403, 404].contains(try await mia.request(API.listGuests.line(event)).status))
            #expect(try await mia.request(API.ticketBlocks.line(event)).status == 404)
            #expect(
                try await mia.request(
                    API.allocateTicketBlock.line(event),
                    json: TicketBlockAllocation(
                        partner: "Mine", accessTypeId: blocks.world.accessType.id, size: 1, namingDeadline: Date())
                ).status == 404)
            // Never on the staff.
            let organizer = api.lab(blocks.world.organizer)
            #expect(try await organizer.request(API.assignStaff.line(event, blocks.mia.user.id)).status == 422)
            // Another tenant's organizer does not find the block; staff see no block detail.
            #expect(
                try await api.lab(blocks.world.otherOrganizer).request(API.ticketBlock.line(blocks.acme.block.id))
                    .status
                    == 404)
            #expect(
                try await api.lab(blocks.world.staff1).request(API.ticketBlock.line(blocks.acme.block.id)).status
                    == 404)
            // Managers must be block managers of the tenant.
            #expect(
                try await organizer.request(
                    API.changeTicketBlock.line(blocks.acme.block.id),
                    json: TicketBlockAllocation(managers: [blocks.world.staff1.user.id])
                ).status == 422)
        }
    }

    @Test(
        "block-deadline: the manager names and renames until the naming deadline (each named ticket is mailed with its PDF), then is refused with why; the organizer still can; unnamed tickets are never mailed",
        arguments: StoreKind.allCases)
    func deadline(kind: StoreKind) async throws {
        try await withMailTestServer(kind) { api, sink in
            let blocks = try await Self.blocks(api)
            let mia = api.lab(blocks.mia)
            let block = blocks.acme.block.id
            let ticket = blocks.acme.tickets[0].guestId
            let named = try await mia.call(
                API.nameBlockTicket, block, ticket, json: TicketNaming(name: " Nora Named ", email: "nora@acme.test"),
                what: "name")
            #expect(named.ticket.name == "Nora Named" && named.ticket.email == "nora@acme.test" && !named.conflict)
            #expect(named.ticket.mail == .queued)
            _ = await api.sendQueuedMail()
            let mail = try #require(sink.messages().first { $0.to == "nora@acme.test" })
            #expect(mail.body.contains("Hello Nora Named"))
            let pdf = try #require(TicketMailTests.attachment(mail))
            #expect(pdf.starts(with: Array("%PDF-".utf8)))
            // The same naming again (a lost answer) mails nothing more.
            _ = try await mia.call(
                API.nameBlockTicket, block, ticket, json: TicketNaming(name: "Nora Named", email: "nora@acme.test"),
                what: "again")
            _ = await api.sendQueuedMail()
            #expect(sink.messages().filter { $0.to == "nora@acme.test" }.count == 1)
            // A rename goes to the new holder.
            _ = try await mia.call(
                API.nameBlockTicket, block, ticket, json: TicketNaming(name: "Otto Other", email: "otto@acme.test"),
                what: "rename")
            _ = await api.sendQueuedMail()
            #expect(sink.messages().contains { $0.to == "otto@acme.test" })
            // A bad e-mail or an empty name is refused with why, and changes nothing.
            let bad = try await mia.request(
                API.nameBlockTicket.line(block, ticket), json: TicketNaming(name: "X", email: "x\r\nBcc: y@z.test"))
            #expect(bad.status == 422)
            let empty = try await mia.request(
                API.nameBlockTicket.line(block, ticket), json: TicketNaming(name: "  ", email: "a@b.test"))
            #expect(empty.status == 422)
            // The deadline passes.
            api.clock.advance(by: Self.window)
            let late = try await mia.request(
                API.nameBlockTicket.line(block, blocks.acme.tickets[1].guestId),
                json: TicketNaming(name: "Late Larry", email: "larry@acme.test"))
            #expect(late.status == 422)
            #expect(
                try OutpostJSON.decode(ErrorBody.self, from: late.body).message.contains(
                    "naming deadline of this block has passed"))
            let renamedLate = try await mia.request(
                API.nameBlockTicket.line(block, ticket), json: TicketNaming(name: "Pia", email: "pia@acme.test"))
            #expect(renamedLate.status == 422)
            let detail = try await mia.call(API.ticketBlock, block, what: "after")
            #expect(detail.tickets[0].name == "Otto Other" && !detail.tickets[1].isNamed)
            // The organizer names after the deadline.
            let byOrganizer = try await api.lab(blocks.world.organizer).call(
                API.nameBlockTicket, block, blocks.acme.tickets[1].guestId,
                json: TicketNaming(name: "Vic VIP", email: "vic@acme.test"), what: "organizer")
            #expect(byOrganizer.ticket.name == "Vic VIP")
            // "Mail everyone" skips the block's unnamed tickets: nobody to mail yet.
            let everyone = try await api.lab(blocks.world.organizer).call(
                API.mailTickets, blocks.world.event.id, json: TicketMailRequest(), what: "everyone")
            #expect(everyone.failed == 0)
            #expect(everyone.deliveries.allSatisfy { !$0.email.isEmpty })
        }
    }

    @Test(
        "block-roster-scope: the roster (JSON and protobuf) carries each block ticket's block and every block's scope; a block grows, shrinks by its unnamed tickets only, and its new scope reaches the doors",
        arguments: StoreKind.allCases)
    func rosterScope(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let blocks = try await Self.blocks(api)
            let world = blocks.world
            let pages = try await api.roster(world.staff1, event: world.event)
            let guests = pages.flatMap(\.guests)
            #expect(guests.filter { $0.blockId == blocks.acme.block.id }.count == 20)
            #expect(guests.filter { $0.blockId == nil }.count == world.guests.count)
            let scopes = try #require(pages.last?.blocks)
            #expect(scopes.map(\.scope) == ["Sponsor: Acme (block of 20)", "Company: Globex (block of 3)"])
            // The compact form carries the same.
            let path = "/v1/events/\(world.event.id)/roster"
            let compact = try await api.request(
                .get, path, token: world.staff1.accessToken, headers: [.accept: RosterWire.deviceAccept])
            let json = try await api.request(.get, path, token: world.staff1.accessToken)
            let page = try RosterPage(protobuf: Data(compact.body))
            #expect(page == (try json.decode(RosterPage.self)))
            #expect(page.blocks.count == 2 && page.guests.contains { $0.blockId == blocks.globex.block.id })
            // A guest outside every block has no blockId on the wire.
            let plain = try #require(
                try JSONSerialization.jsonObject(with: Data(json.body)) as? [String: Any])
            let wireGuests = try #require(plain["guests"] as? [[String: Any]])
            #expect(wireGuests.filter { $0["blockId"] == nil }.count == world.guests.count)
            // Name two, then shrink: below the named is refused, otherwise unnamed ones are cancelled.
            let mia = api.lab(blocks.mia)
            for (index, name) in ["Ann", "Ben"].enumerated() {
                _ = try await mia.call(
                    API.nameBlockTicket, blocks.acme.block.id, blocks.acme.tickets[index].guestId,
                    json: TicketNaming(name: name, email: "\(name.lowercased())@acme.test"), what: name)
            }
            let organizer = api.lab(world.organizer)
            let cursor = try #require(pages.last?.cursor)
            #expect(
                try await organizer.request(
                    API.changeTicketBlock.line(blocks.acme.block.id), json: TicketBlockAllocation(size: 1)
                ).status == 409)
            let shrunk = try await organizer.call(
                API.changeTicketBlock, blocks.acme.block.id,
                json: TicketBlockAllocation(partner: "Acme Robotics", size: 5), what: "shrink")
            #expect(shrunk.block.size == 5 && shrunk.block.named == 2 && shrunk.tickets.count == 5)
            #expect(shrunk.tickets.filter(\.isNamed).map(\.name) == ["Ann", "Ben"])
            let delta = try await api.roster(world.staff1, event: world.event, since: cursor)
            let changed = delta.flatMap(\.guests)
            #expect(changed.filter { $0.status == .cancelled }.count == 15)
            #expect(changed.contains { $0.name == "Ann" && $0.blockId == blocks.acme.block.id })
            #expect(delta.last?.blocks.first?.scope == "Sponsor: Acme Robotics (block of 5)")
            let grown = try await organizer.call(
                API.changeTicketBlock, blocks.acme.block.id, json: TicketBlockAllocation(size: 7), what: "grow")
            #expect(grown.block.size == 7 && grown.tickets.filter { !$0.isNamed }.count == 5)
            // The organizer's list.
            let list = try await organizer.call(API.ticketBlocks, world.event.id, what: "list").blocks
            #expect(list.map(\.size) == [7, 3] && list.first?.managers == [blocks.mia.user.id])
        }
    }

    @Test(
        "block-door-naming: door staff name an unnamed block ticket only when the organizer allows it; a door naming of a ticket named meanwhile is kept, flagged and never silently taken",
        arguments: StoreKind.allCases)
    func doorNaming(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let blocks = try await Self.blocks(api)
            let world = blocks.world
            let staff = api.lab(world.staff1)
            let block = blocks.acme.block.id
            let ticket = blocks.acme.tickets[0].guestId
            let refused = try await staff.request(
                API.nameBlockTicket.line(block, ticket),
                json: TicketNaming(name: "Door Dan", email: "", deviceId: "door-1"))
            #expect(refused.status == 422)
            #expect(
                try OutpostJSON.decode(ErrorBody.self, from: refused.body).message
                    == "Acme names its own tickets: this one cannot be named at the door.")
            _ = try await api.lab(world.organizer).call(
                API.changeTicketBlock, block, json: TicketBlockAllocation(doorNaming: true), what: "allow")
            // After the partner's deadline, at the door.
            api.clock.advance(by: Self.window + 60)
            let named = try await staff.call(
                API.nameBlockTicket, block, ticket, json: TicketNaming(name: "Door Dan", email: "", deviceId: "door-1"),
                what: "door")
            #expect(named.ticket.name == "Door Dan" && !named.conflict && named.ticket.mail == nil)
            // Another door names the same ticket (it had not synced): kept, flagged, the name stands.
            let second = try await api.lab(world.staff2).call(
                API.nameBlockTicket, block, ticket,
                json: TicketNaming(name: "Door Dora", email: "", deviceId: "door-2"),
                what: "second door")
            #expect(second.conflict && second.ticket.name == "Door Dan")
            let conflicts = try await api.store.blockNamingConflicts(eventId: world.event.id)
            #expect(conflicts.map(\.doorName) == ["Door Dora"] && conflicts.map(\.name) == ["Door Dan"])
            // The same door naming again is a replay, not a conflict.
            let replay = try await staff.call(
                API.nameBlockTicket, block, ticket, json: TicketNaming(name: "Door Dan", email: "", deviceId: "door-1"),
                what: "replay")
            #expect(!replay.conflict)
            #expect(try await api.store.blockNamingConflicts(eventId: world.event.id).count == 1)
            // Staff of another event, or an exhibitor, do not find the block.
            let ella = try await api.createUser(
                world.organizer, email: "ella@expo.test", role: .exhibitor, name: "Ella")
            #expect(
                try await api.lab(ella).request(
                    API.nameBlockTicket.line(block, blocks.acme.tickets[1].guestId),
                    json: TicketNaming(name: "E", email: "")
                ).status == 404)
            let other = try await api.createUser(
                world.organizer, email: "otto@acme.test", role: .checkinStaff, name: "Otto")
            #expect(
                try await api.lab(other).request(
                    API.nameBlockTicket.line(block, blocks.acme.tickets[1].guestId),
                    json: TicketNaming(name: "O", email: "")
                ).status == 404)
        }
    }
}
