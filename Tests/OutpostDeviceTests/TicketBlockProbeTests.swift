import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostCheckIn
@testable import OutpostShell

/// Ticket blocks (EF-069) at the door, on real devices against a real server: a ticket the
/// partner named verifies offline like any ticket and its card shows the block's scope; a
/// block's unnamed ticket is named at the door (offline too) only when the organizer allows it,
/// and the server has the name before the check-in.
@Suite("Ticket blocks at the door")
struct TicketBlockProbeTests {
    /// A block of 20 tickets for the sponsor Acme on the world's event, managed by Mia.
    @MainActor
    static func block(_ lab: DeviceLab, doorNaming: Bool = false) async throws -> (TicketBlockDetail, Session) {
        let mia = try await lab.api.createUser(
            lab.world.organizer, email: "mia@acme-sponsor.test", role: .blockManager, name: "Mia")
        let detail = try await lab.api.lab(lab.world.organizer).call(
            API.allocateTicketBlock, lab.world.event.id,
            json: TicketBlockAllocation(
                kind: .sponsor, partner: "Acme", accessTypeId: lab.world.accessType.id, size: 20,
                namingDeadline: lab.api.clock.now.addingTimeInterval(600), doorNaming: doorNaming,
                managers: [mia.user.id]), what: "block")
        return (detail, mia)
    }

    @MainActor
    static func card(_ app: DeviceApp) -> (name: String?, scope: String?) {
        let tree = app.tree()
        return (
            tree.elements(UIIdentifier.confirmationScreen).first?.text,
            tree.elements(UIIdentifier.blockScope).first?.text
        )
    }

    @Test(
        "block-named-ticket-verifies-at-door: a ticket the partner named verifies offline at the door, its card shows the name and \"Sponsor: Acme (block of 20)\", and its check-in is accepted"
    )
    func namedTicketVerifies() async throws {
        try await DeviceLab.run { lab in
            let (block, mia) = try await Self.block(lab)
            let named = try await lab.api.lab(mia).call(
                API.nameBlockTicket, block.block.id, block.tickets[0].guestId,
                json: TicketNaming(name: "Nora Named", email: "nora@acme.test"), what: "name")
            let guest = try await lab.api.lab(lab.world.organizer).call(
                API.showGuest, lab.world.event.id, named.ticket.guestId, what: "guest")
            let ticket = try await lab.ticket(guest)
            let app = try await lab.readyDevice("door")
            app.update { $0.online = false }
            app.scan(ticket)
            #expect(Self.card(app).name == "Nora Named")
            #expect(Self.card(app).scope == "Sponsor: Acme (block of 20)")
            #expect(app.tree().elements(UIIdentifier.confirmButton).count == 1)
            await app.confirm()
            app.update { $0.online = true }
            await app.sync()
            #expect(try await lab.serverCheckIns()[guest.id] == 1)
            #expect(app.ledger.map(\.state) == [.answered])
        }
    }

    @Test(
        "block-door-naming-device: the door names a block's unnamed ticket (offline) only when the organizer allows it; the server has the name before the check-in"
    )
    func doorNaming() async throws {
        try await DeviceLab.run { lab in
            let (block, _) = try await Self.block(lab)
            let app = try await lab.readyDevice("door")
            app.openBlockTicket("ACME")
            #expect(Self.card(app).name == "Unnamed ticket of Acme's block")
            #expect(
                app.tree().elements(UIIdentifier.unnamedTicketBanner).first?.text
                    == "Acme names its own tickets: this one cannot be named at the door.")
            #expect(app.tree().elements(UIIdentifier.confirmButton).isEmpty)
            await app.confirm(holderName: "Dan Door")
            #expect(app.refusal == "Acme names its own tickets: this one cannot be named at the door.")
            #expect(app.ledger.isEmpty, "nothing was queued")
            app.openBlockTicket("Globex")
            #expect(app.refusal == "This event has no ticket block of Globex.")
            // The organizer lets the door name Acme's tickets; the door learns it at its next sync.
            _ = try await lab.api.lab(lab.world.organizer).call(
                API.changeTicketBlock, block.block.id, json: TicketBlockAllocation(doorNaming: true), what: "allow")
            await app.sync()
            app.openBlockTicket("acme")
            #expect(app.tree().elements(UIIdentifier.doorNameInput).count == 1)
            let slot = try #require(app.tree().elements(UIIdentifier.confirmationScreen).first?.attributes["guestId"])
            // Without a name: refused, nothing queued, the screen stays.
            await app.confirm()
            #expect(app.refusal?.hasPrefix("Type the holder's name") == true)
            #expect(app.tree().elements(UIIdentifier.doorNameInput).count == 1)
            // Offline: named and checked in on the device, both queued in order.
            app.update { $0.online = false }
            await app.confirm(holderName: "  Dan Door ")
            #expect(app.refusal == nil)
            #expect(app.tree().elements(UIIdentifier.checkedInCard).first?.text.contains("Dan Door") == true)
            app.update { $0.online = true }
            await app.sync()
            let server = try await lab.api.lab(lab.world.organizer).call(API.ticketBlock, block.block.id, what: "block")
            let ticket = try #require(server.tickets.first { $0.guestId.wire == slot })
            #expect(ticket.name == "Dan Door" && ticket.checkedIn && ticket.email.isEmpty)
            #expect(app.ledger.map(\.state) == [.answered])
            #expect(try app.checkInModule?.store.outboxRows(kind: .doorNaming, state: .pending).isEmpty == true)
            // The next unnamed ticket is another one.
            app.openBlockTicket("acme")
            #expect(app.tree().elements(UIIdentifier.confirmationScreen).first?.attributes["guestId"] != slot)
        }
    }

    @Test(
        "block-unnamed-not-at-kiosk: an empty e-mail at the kiosk names none of a block's unnamed tickets, and an unnamed ticket's own QR is the kiosk's not-found; nothing is queued"
    )
    func unnamedNotAtKiosk() async throws {
        try await DeviceLab.run { lab in
            let (block, _) = try await Self.block(lab, doorNaming: true)
            let clock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
            let app = try await KioskProbeTests.kioskDevice(lab, "kiosk", clock: clock)
            for email in ["", "   "] {
                await app.kioskCheckIn(email: email)
                #expect(app.tree().element(UIIdentifier.kioskEmailNotFoundMessage) != nil, "e-mail \"\(email)\"")
                clock.advance(by: 5)
            }
            let unnamed = try await lab.api.lab(lab.world.organizer).call(
                API.showGuest, lab.world.event.id, block.tickets[0].guestId, what: "unnamed")
            await app.kioskCheckIn(ticket: try await lab.ticket(unnamed))
            #expect(app.tree().element(UIIdentifier.kioskEmailNotFoundMessage) != nil)
            #expect(app.ledger.isEmpty)
            #expect(try await lab.serverCheckIns().isEmpty)
        }
    }
}
