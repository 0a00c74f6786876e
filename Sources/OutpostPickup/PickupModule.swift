import Foundation
import OutpostCheckIn
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The pickup station (EFx product pickup): a device scans a ticket, shows what this guest may
/// still collect (their access type's allowance plus what was imported for them, less what they
/// collected at every station as last synced and here since) and hands out one or several items
/// in one step, offline as online, decided by ``PickupRules``. Each handing-out is kept on the
/// device and queued for the server, which keeps every one (the items left the table: the stock
/// counts them) and flags what went beyond the ticket (two offline stations, one shirt). Lives in
/// seed 000's EFx tab with the zone station. Declares check-in (tickets, the roster).
@MainActor
package final class PickupModule: DeviceModule {
    package static let name = "pickup"
    package static let migrations = ModuleStore<PickupModule>.pickupMigrations
    /// The event module name that turns the EFx tab on.
    package static let eventModule = EventModule.efx

    package let context: ModuleContext
    package let store: ModuleStore<PickupModule>
    package var state = PickupState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<PickupState>()
    private var desk: (any CheckInDesk)? { context.service((any CheckInDesk).self) }

    package init(context: ModuleContext, store: ModuleStore<PickupModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] { [PickupRedemptionOutbox(store: store)] }

    /// The items, entitlements, collections and stock (for an event with the EFx modules only).
    package func pull(event: EventInfo) async throws {
        guard event.modules.contains(Self.eventModule) else { return }
        // What was answered before asking: the report counts it (anything answered while the
        // report is on its way stays counted here too, one more rather than one short).
        let answered = context.surfacing("read the pickups", { try store.answeredRedemptions(eventId: event.id) }) ?? []
        let response = try await context.authorized(TransportRequest(API.pickupReport.line(event.id)))
        // A page that is not the report (a portal's) fails the pull; the last report stays.
        guard response.status == 200, let report = try? OutpostJSON.decode(PickupReport.self, from: response.body)
        else {
            throw APIClientError.http(status: response.status, code: nil)
        }
        state.reports[event.id.wire] = report
        _ = context.surfacing("count the pickups", { try store.counted(answered) })
    }

    package func reload() {}

    package var tabs: [UIElement] {
        guard context.currentEvent?.modules.contains(Self.eventModule) == true else { return [] }
        return [UIElement(UIIdentifier.tabEFx, "EFx")]
    }

    package func takeover(now: Date) -> (any ScreenModel)? { nil }

    package var frontScreen: (any ScreenModel)? {
        guard state.open, let eventId = context.eventId else { return nil }
        let catalog = state.reports[eventId.wire]?.catalog ?? PickupCatalog(items: [], allowances: [])
        let stock = self.stock(eventId: eventId)
        let left = state.guest.flatMap { self.remaining(eventId: eventId, guestId: $0.id) } ?? [:]
        return PickupStationScreen(
            stock: catalog.items.map { PickupStationScreen.Stock(item: $0, left: stock[$0.id]) }, guest: state.guest,
            remaining: catalog.items.compactMap { item in
                left[item.id].map { PickupStationScreen.Entitled(item: item, count: $0) }
            },
            last: state.last)
    }

    package var eventShellParts: [any ScreenPart] { [] }
    package var statusElements: [UIElement] { [] }

    package func eventChanged() {
        state.open = false
        state.guest = nil
        state.last = nil
    }

    package func clearTransient() { state.last = nil }

    package func closeFront() { close() }

    package func sessionEnded() {
        state.open = false
        state.guest = nil
        state.last = nil
    }

    package func saveState() throws -> Data { try encodedState.data(for: state) }

    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(PickupState.self, from: data)
    }

    // MARK: - The station

    package func open() {
        guard context.currentEvent?.modules.contains(Self.eventModule) == true else {
            context.refuse("This event has no EFx stations: the organizer turns them on.")
            return
        }
        state.open = true
        state.last = nil
    }

    package func close() {
        state.open = false
        state.guest = nil
    }

    /// What this station counts left of each item with a stock: the server's count at the last
    /// pull less this device's handings-out it did not count yet.
    package func stock(eventId: EventID) -> [PickupItemID: Int] {
        guard let report = state.reports[eventId.wire],
            let mine = context.surfacing("count the pickups", { try store.uncounted(eventId: eventId) })
        else { return [:] }
        var left: [PickupItemID: Int] = [:]
        for item in report.stock {
            if let counted = item.left { left[item.itemId] = counted - (mine[item.itemId] ?? 0) }
        }
        return left
    }

    /// What `guestId` collected, as this station knows it (every station at the last pull, and
    /// this one since).
    private func collected(eventId: EventID, guestId: GuestID) -> [PickupItemID: Int]? {
        guard let report = state.reports[eventId.wire],
            let mine = context.surfacing(
                "count the pickups", { try store.uncounted(eventId: eventId, guestId: guestId) })
        else { return nil }
        return report.collected(by: guestId).merging(mine, uniquingKeysWith: +)
    }

    private func entitled(eventId: EventID, guest: GuestID, accessType: AccessTypeID) -> [PickupItemID: Int] {
        guard let report = state.reports[eventId.wire] else { return [:] }
        return PickupRules.entitlement(
            accessType: report.catalog.allowance(for: accessType), guest: report.entitlements(of: guest))
    }

    /// What `guestId` may still collect.
    package func remaining(eventId: EventID, guestId: GuestID) -> [PickupItemID: Int]? {
        guard let guest = desk?.guest(eventId: eventId, id: guestId),
            let collected = collected(eventId: eventId, guestId: guestId)
        else { return nil }
        guard guest.status.isAdmissible else { return [:] }
        return PickupRules.remaining(
            entitled: entitled(eventId: eventId, guest: guestId, accessType: guest.accessTypeId), collected: collected)
    }

    /// A scanned ticket: verified like a check-in; the guest and what they may still collect
    /// come up (nothing is handed out yet).
    package func scan(_ text: String) {
        guard let eventId = context.eventId, context.currentEvent?.modules.contains(Self.eventModule) == true else {
            context.refuse("This event has no EFx stations: the organizer turns them on.")
            return
        }
        state.open = true
        state.guest = nil
        guard let desk, let (_, verified) = desk.verify(text) else { return }
        let payload: TicketPayload
        switch verified {
        case .success(let verifiedPayload): payload = verifiedPayload
        case .failure(.otherEvent):
            show(false, "Not a ticket of this event.")
            return
        case .failure:
            show(false, "Not a valid ticket: it is damaged or forged.")
            return
        }
        guard let guest = desk.guest(eventId: eventId, id: GuestID(payload.guestId)) else {
            show(false, "Not on this event's roster yet: sync, then scan again.")
            return
        }
        guard state.reports[eventId.wire] != nil else {
            show(false, "The pickup items are not on this device yet: sync, then scan again.")
            return
        }
        state.guest = PickupState.Guest(id: guest.id, name: guest.name)
        if !guest.status.isAdmissible {
            show(false, PickupRefusal.notAdmissible.sentence)
        } else if remaining(eventId: eventId, guestId: guest.id)?.isEmpty != false {
            show(false, "\(guest.name): " + PickupRefusal.nothingToCollect.sentence)
        } else {
            state.last = nil
        }
    }

    /// Hands the scanned guest `request` (item and quantity) in one step; nil: everything they
    /// may still collect.
    package func redeem(_ request: [PickupItemID: Int]?) {
        guard let eventId = context.eventId, let owner = context.userId, let report = state.reports[eventId.wire]
        else { return }
        guard let scanned = state.guest, let guest = desk?.guest(eventId: eventId, id: scanned.id) else {
            context.refuse("Scan a ticket first.")
            return
        }
        guard let collected = collected(eventId: eventId, guestId: guest.id) else { return }
        let entitled = entitled(eventId: eventId, guest: guest.id, accessType: guest.accessTypeId)
        let asked = request ?? PickupRules.remaining(entitled: entitled, collected: collected)
        let decision = PickupRules.decide(
            status: guest.status, request: asked, entitled: entitled, collected: collected,
            stock: stock(eventId: eventId),
            names: Dictionary(uniqueKeysWithValues: report.catalog.items.map { ($0.id, $0.name) }))
        let lines: [PickupLine]
        switch decision {
        case .refuse(let refusal):
            show(false, refusal.sentence)
            return
        case .redeem(let items):
            // In the catalog's order, as the guest sees them.
            lines = report.catalog.items.compactMap { item in
                items[item.id].map { PickupLine(itemId: item.id, quantity: $0) }
            }
        }
        let now = context.ports.clock.now()
        let redemption = PickupRedemption(
            id: .random(), guestId: guest.id, lines: lines, deviceId: context.deviceId,
            scannedAt: Date(millisecondsSince1970: now.millisecondsSince1970))
        guard
            context.surfacing(
                "keep the pickup", { try store.record(redemption, eventId: eventId, owner: owner, now: now) }) != nil
        else { return }
        let names = Dictionary(uniqueKeysWithValues: report.catalog.items.map { ($0.id, $0.name) })
        let what = lines.map { line in
            (line.quantity == 1 ? "" : "\(line.quantity) × ") + (names[line.itemId] ?? "item")
        }
        show(true, "Hand \(guest.name): \(what.joined(separator: ", ")).")
    }

    private func show(_ handedOut: Bool, _ sentence: String) {
        state.last = PickupState.Result(handedOut: handedOut, sentence: sentence)
    }
}
