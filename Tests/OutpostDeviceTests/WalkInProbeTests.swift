import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostShell

/// The Walk-Ins tab (seed 000) on a real device against a real server over loopback HTTP: a
/// walk-in added offline is on the roster and checked in at once, and reaches the server once;
/// leased places keep two offline doors under the capacity; the end-of-shift summary is the
/// console's for this device.
@Suite("Walk-in probes (seed 000)")
struct WalkInProbeTests {
    /// An access type of the world's event that admits walk-ins, with `capacity`.
    static func doorType(_ lab: DeviceLab, name: String = "Door", capacity: Int?) async throws -> AccessTypeInfo {
        try await lab.api.lab(lab.world.organizer).createAccessType(
            event: lab.world.event.id,
            CreateAccessTypeRequest(name: name, walkInAllowed: true, walkInCapacity: capacity))
    }

    @MainActor
    static func fill(
        _ app: DeviceApp, name: String, email: String? = nil, type: String, amount: String? = nil,
        method: PaymentMethod? = nil
    ) {
        app.openWalkIn()
        app.updateWalkIn(name: name, email: email ?? "", accessType: type, amount: amount, method: method)
    }

    @Test(
        "native-shell-tab-walkin: the Walk-Ins tab shows when an access type of the event admits walk-ins, and not otherwise"
    )
    func tabVisibility() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("tab")
            #expect(app.tree().contains(UIIdentifier.tabWalkIn), "General admits walk-ins")
            let organizer = lab.api.lab(lab.world.organizer)
            let quiet = try await lab.api.createEvent(lab.world.organizer, name: "Quiet")
            _ = try await organizer.createAccessType(
                event: quiet.id, CreateAccessTypeRequest(name: "Invited", walkInAllowed: false))
            try await lab.api.assign(lab.world.organizer, staff: lab.world.staff1, to: quiet)
            await app.showEvents()
            await app.openEvent(quiet.id)
            #expect(app.tree().screen == UIIdentifier.eventShell)
            #expect(!app.tree().contains(UIIdentifier.tabWalkIn))
            app.openWalkIn()
            #expect(app.tree().refusal == "No access type of this event admits walk-ins.")
        }
    }

    @Test(
        "walkin-offline-replayed-once: a walk-in added offline is on this device's roster, checked in, at once; online its answer is lost once and it still reaches the server once"
    )
    func offlineReplayedOnce() async throws {
        try await DeviceLab.run { lab in
            let (app, box) = try lab.launch("door", wrapping: { ScriptedFaultTransport($0) })
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            await app.openEvent(lab.world.event.id)
            app.update { $0.online = false }
            Self.fill(app, name: "Noor Haddad", email: "noor@example.org", type: "General", amount: "25", method: .cash)
            #expect(app.tree().screen == UIIdentifier.walkInForm)
            await app.addWalkIn()
            #expect(app.tree().refusal == nil, "\(app.tree().refusal ?? "")")
            #expect(app.tree().screen == UIIdentifier.eventShell)
            let card = try #require(app.tree().elements(UIIdentifier.walkInAddedCard).first)
            #expect(card.text == "Noor Haddad added and checked in (General)" && card.attributes["syncing"] == "true")
            #expect(app.pendingCount == 1)
            // On the roster at once, checked in: a search finds her, a second check-in is a re-confirm.
            app.lookup("noor")
            let found = try #require(app.shown().part(CheckInTabScreen.self)?.shownSuggestions.first)
            #expect(found.name == "Noor Haddad" && found.checkIn?.pending == true)
            #expect(app.walkInShift?.walkIns == 1)
            // Online: the first answer is lost; the entry is sent again and applied once.
            box.value?.failOnce(.dropResponse) { request, _ in request.path.hasSuffix("/walkins") }
            app.update { $0.online = true }
            await app.sync()
            await app.sync()
            #expect(app.pendingCount == 0)
            let walkIns = try await lab.api.lab(lab.world.organizer).walkIns(event: lab.world.event.id)
            #expect(walkIns.map(\.name) == ["Noor Haddad"] && walkIns[0].payment?.amountMinor == 2_500)
            #expect(try await lab.serverCheckIns()[found.id] == 1, "one check-in on the server")
            let local = try #require(try app.checkInStore.guest(eventId: lab.world.event.id, id: found.id))
            #expect(local.code == walkIns[0].code && local.checkIn?.pending == false, "the server's code, synced")
            #expect(!app.ledger.contains { $0.idempotencyKey.contains(found.id.wire) }, "not in check-in's ledger")
            // Nothing of her is readable in the store's files.
            let files = try DeviceFiles.readAll(lab.home("door"))
            #expect(!DeviceFiles.contains(files, "Noor Haddad") && !DeviceFiles.contains(files, "noor@example.org"))
        }
    }

    @Test(
        "walkin-two-doors-capacity: two offline doors admit only the places leased to them, never more than the capacity; back online every walk-in lands once and closing returns the rest"
    )
    func twoDoors() async throws {
        try await DeviceLab.run { lab in
            _ = try await Self.doorType(lab, capacity: 6)
            let one = try await lab.readyDevice("door-1")
            let two = try await lab.readyDevice("door-2", email: "bea@acme.test")
            await one.sync()
            await two.sync()
            let leased = [one, two].map { app in app.walkInPlacesLeft.values.compactMap { $0 }.reduce(0, +) }
            // Half of 6 for the first door; one place at a time for the second (fewer than two per
            // door were left), which asks again at its sync (a third left of one place).
            #expect(leased == [3, 2])
            one.update { $0.online = false }
            two.update { $0.online = false }
            var admitted = 0
            for (index, app) in [one, two].enumerated() {
                for guest in 0..<5 {
                    Self.fill(app, name: "Door\(index) Guest\(guest)", type: "Door")
                    await app.addWalkIn()
                    if app.tree().refusal == nil { admitted += 1 } else { app.cancelWalkIn() }
                }
            }
            #expect(admitted == 5, "3 + 2 places, offline")
            Self.fill(one, name: "One More", type: "Door")
            await one.addWalkIn()
            #expect(
                one.tree().refusal == "No walk-in places of Door are left on this device: connect to get more.")
            one.cancelWalkIn()
            for app in [one, two] { app.update { $0.online = true } }
            await one.sync()
            await two.sync()
            var capacity = try #require(
                try await lab.api.lab(lab.world.organizer).walkInSummary(event: lab.world.event.id).capacities.first {
                    $0.name == "Door"
                })
            #expect(capacity.admitted == 5 && capacity.overCapacity == 0 && capacity.reserved <= 6)
            // Closing both doors returns what they did not use.
            await one.closeWalkInDoor()
            await two.closeWalkInDoor()
            #expect(one.pendingCount == 0 && two.pendingCount == 0)
            capacity = try #require(
                try await lab.api.lab(lab.world.organizer).walkInSummary(event: lab.world.event.id).capacities.first {
                    $0.name == "Door"
                })
            #expect(capacity.reserved == capacity.admitted && capacity.openLeases == 0)
            #expect(one.ledger.allSatisfy { IdempotencyKey(parsing: $0.idempotencyKey) != nil }, "no seal in it")
        }
    }

    @Test(
        "walkin-shift-csv: the device's end-of-shift summary (count, amounts by method) is the console's CSV for that device"
    )
    func shiftCSV() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("till")
            for (name, amount, method) in [
                ("Ana", "25", PaymentMethod.cash), ("Ben", "10.5", .cash), ("Cai", "25,00", .card), ("Dee", "", .cash),
            ] {
                Self.fill(app, name: name, type: "General", amount: amount, method: method)
                await app.addWalkIn()
                #expect(app.tree().refusal == nil)
            }
            app.showWalkInSummary()
            #expect(app.tree().screen == UIIdentifier.walkInSummary)
            #expect(
                app.tree().elements(UIIdentifier.walkInShiftTotal).map(\.text) == [
                    "not paid: 1", "cash: 2 · 35.50 EUR", "card: 1 · 25.00 EUR",
                ])
            let console = try await lab.api.lab(lab.world.organizer).expect(
                API.exportWalkInSummary.line(lab.world.event.id), what: "the CSV")
            #expect(try app.walkInShiftCSV() == String(decoding: console.body, as: UTF8.self))
            // A typo is refused in one sentence and nothing is added.
            Self.fill(app, name: "Eve", type: "General", amount: "12,5,0")
            await app.addWalkIn()
            #expect(app.tree().refusal == "'12,5,0' is not an amount (like 12.50).")
            #expect(app.walkInShift?.walkIns == 4)
        }
    }
}

extension WalkInProbeTests {
    @Test(
        "walkin-lease-expiry: a lease whose time is up (on the device's clock, offset measured at the grant) takes no more places; it is sealed on the device and the seal gives the rest back once online"
    )
    func leaseExpiry() async throws {
        try await DeviceLab.run { lab in
            _ = try await Self.doorType(lab, capacity: 10)
            // The device's clock is a day off the server's: the lease's two hours are the device's.
            let clock = ManualClock(lab.api.clock.now.addingTimeInterval(86_400))
            let app = try lab.launch("expiry", clock: clock.wallClock)
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            await app.openEvent(lab.world.event.id)
            #expect(app.walkInPlacesLeft.values.compactMap { $0 } == [5], "half of 10")
            app.update { $0.online = false }
            Self.fill(app, name: "Early", type: "Door")
            await app.addWalkIn()
            #expect(app.tree().refusal == nil)
            clock.advance(by: WalkInLeasePolicy.lifetime + 1)
            Self.fill(app, name: "Late", type: "Door")
            await app.addWalkIn()
            #expect(
                app.tree().refusal == "No walk-in places of Door are left on this device: connect to get more.",
                "an expired lease admits nobody")
            app.cancelWalkIn()
            #expect(app.pendingCount == 2, "the walk-in and the lease's seal")
            app.update { $0.online = true }
            await app.sync()
            await app.sync()
            let capacity = try #require(
                try await lab.api.lab(lab.world.organizer).walkInSummary(event: lab.world.event.id).capacities.first {
                    $0.name == "Door"
                })
            #expect(capacity.admitted == 1 && capacity.overCapacity == 0)
            // The expired lease was sealed at 1 used; the sync leased new places.
            #expect(capacity.reserved == 1 + (app.walkInPlacesLeft.values.compactMap { $0 }.first ?? 0))
        }
    }
}
