import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostCheckIn
@testable import OutpostShell

/// An event's own guest fields at the door: the roster brings the fields and each guest's values,
/// and the card shows them by label, offline, in the organizer's order.
@Suite("Guest fields at the door")
struct GuestFieldProbeTests {
    @Test(
        "guest-card-fields: the roster's guest fields show on the door's card by label in the organizer's order (a ticked box as yes, an empty field not at all), offline; a renamed field shows its new label, a removed one goes, after the next sync"
    )
    func card() async throws {
        try await DeviceLab.run { lab in
            let organizer = lab.api.lab(lab.world.organizer)
            let event = lab.world.event.id
            let shirt = GuestField(id: .random(), label: "T-shirt size", kind: .choice, choices: ["S", "M", "L"])
            let diet = GuestField(id: .random(), label: "Dietary needs", kind: .text)
            let photo = GuestField(id: .random(), label: "Photo consent", kind: .checkbox)
            _ = try await organizer.call(
                API.setGuestFields, event, json: GuestFieldList(fields: [shirt, diet, photo]), what: "fields")
            let guest = lab.world.guests[0]
            _ = try await organizer.call(
                API.updateGuest, event, guest.id,
                json: UpdateGuestRequest(fields: [shirt.id.wire: "m", photo.id.wire: "yes"]), what: "values")
            let app = try await lab.readyDevice("door")
            app.update { $0.online = false }
            app.scan(try await lab.ticket(guest))
            var lines = app.tree().elements(UIIdentifier.guestField).map(\.text)
            #expect(lines == ["T-shirt size: M", "Photo consent: yes"])
            // Another guest without values shows none.
            app.cancel()
            app.scan(try await lab.ticket(lab.world.guests[1]))
            #expect(app.tree().elements(UIIdentifier.guestField).isEmpty)
            app.cancel()
            // Renamed and one removed: the door learns it at its next sync.
            var renamed = shirt
            renamed.label = "Shirt"
            _ = try await organizer.call(
                API.setGuestFields, event, json: GuestFieldList(fields: [diet, renamed]), what: "fields again")
            app.update { $0.online = true }
            await app.sync()
            app.scan(try await lab.ticket(guest))
            lines = app.tree().elements(UIIdentifier.guestField).map(\.text)
            #expect(lines == ["Shirt: M"])
        }
    }
}
