import Foundation
import OutpostCheckIn
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The zone station (EFx access control): a device set to guard one zone of the event in one
/// direction scans tickets and decides locally, offline as online, from the zones and rules it
/// pulled (``ZoneRules``), with check-in's ticket verification and roster. Each entry or exit is
/// kept on the device (what it knows of who is inside) and queued for the server, which keeps
/// every one and marks what the station could not see (another station's entry of a no-re-entry
/// ticket). Its tab is seed 000's EFx tab, shown when the event has the EFx modules. Declares
/// check-in (tickets, the roster).
@MainActor
package final class ZonesModule: DeviceModule {
    package static let name = "zones"
    package static let migrations = ModuleStore<ZonesModule>.zoneMigrations
    /// The event module name that turns the EFx tab on.
    package static let eventModule = EventModule.efx

    package let context: ModuleContext
    package let store: ModuleStore<ZonesModule>
    package var state = ZonesState()
    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedState = EncodedState<ZonesState>()
    private var desk: (any CheckInDesk)? { context.service((any CheckInDesk).self) }

    package init(context: ModuleContext, store: ModuleStore<ZonesModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] { [ZonePassageOutbox(store: store)] }

    /// The zones and their rules, then the counts (for an event with the EFx modules only).
    package func pull(event: EventInfo) async throws {
        guard event.modules.contains(Self.eventModule) else { return }
        let zones = try await context.authorized(TransportRequest(API.zones.line(event.id)))
        // A page that is not the zones (a portal's) fails the pull; the last rules stay.
        guard zones.status == 200, let list = try? OutpostJSON.decode(ZoneList.self, from: zones.body) else {
            throw APIClientError.http(status: zones.status, code: nil)
        }
        state.zones[event.id.wire] = list
        try await pullAssignment(event: event)
        // What was answered before asking: the count includes it (anything answered while the
        // count is on its way stays counted here too, one more rather than one short).
        let answered = context.surfacing("read the passages", { try store.answeredPassages(eventId: event.id) }) ?? []
        let counted = try await context.authorized(TransportRequest(API.zoneOccupancy.line(event.id)))
        // Counts that do not come (a portal, a refusal) leave the last ones: the rules are what a station needs.
        if counted.status == 200, let report = try? OutpostJSON.decode(ZoneReport.self, from: counted.body) {
            state.reports[event.id.wire] = report
            _ = context.surfacing("count the passages", { try store.counted(answered) })
        }
    }

    /// The station the organizer chose for this user at `event`: a zone station's zone and
    /// direction become this device's post. An answer that is not one (a portal's page) keeps
    /// the last.
    private func pullAssignment(event: EventInfo) async throws {
        let mine = try await context.authorized(TransportRequest(API.myStation.line(event.id)))
        guard mine.status == 200, let answer = try? OutpostJSON.decode(MyStation.self, from: mine.body) else { return }
        var assignments = state.assignments ?? [:]
        assignments[event.id.wire] = answer.station
        state.assignments = assignments
        if let station = answer.station, station.kind == .zone, let zone = station.zoneId,
            let direction = station.direction
        {
            state.stations[event.id.wire] = ZonesState.Station(zoneId: zone, direction: direction)
        }
    }

    /// The station the organizer chose for the signed-in user at the open event, if any.
    package var assignment: StationAssignment? {
        context.eventId.flatMap { state.assignments?[$0.wire] }
    }

    package func reload() {}

    package var tabs: [UIElement] {
        guard context.currentEvent?.modules.contains(Self.eventModule) == true else { return [] }
        return [UIElement(UIIdentifier.tabEFx, "EFx")]
    }

    package func takeover(now: Date) -> (any ScreenModel)? { nil }

    package var frontScreen: (any ScreenModel)? {
        guard state.open, let eventId = context.eventId else { return nil }
        let zones = state.zones[eventId.wire]?.zones ?? []
        let station = state.stations[eventId.wire]
        let zone = station.flatMap { station in zones.first { $0.id == station.zoneId } }
        return ZoneStationScreen(
            zones: zones, zone: zone, direction: zone == nil ? nil : station?.direction,
            inside: zone.flatMap { inside(eventId: eventId, zone: $0.id) }, last: state.last)
    }

    package var eventShellParts: [any ScreenPart] { [] }
    package var statusElements: [UIElement] { [] }

    package func eventChanged() {
        state.open = false
        state.last = nil
    }

    package func clearTransient() { state.last = nil }

    /// The station's setting stays (it is the device's post); the screen closes.
    package func sessionEnded() {
        state.open = false
        state.last = nil
    }

    package func saveState() throws -> Data { try encodedState.data(for: state) }

    package func restoreState(_ data: Data) throws {
        state = try JSONDecoder.outpostDevice.decode(ZonesState.self, from: data)
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

    package func close() { state.open = false }

    package func closeFront() { close() }

    /// Sets this device to guard `zoneId` in `direction` (kept across launches).
    package func setStation(zoneId: ZoneID, direction: ZoneDirection) {
        if let chosen = assignment, chosen != .zone(zoneId, direction), let eventId = context.eventId {
            let zone = state.zones[eventId.wire]?.zones.first { $0.id == chosen.zoneId }?.name
            context.refuse(
                chosen.kind == .pickup
                    ? "The organizer made you the pickup station of this event; they change it."
                    : "The organizer made you the zone station at \(zone ?? "a zone") (\(chosen.direction?.rawValue ?? "")); they change it."
            )
            return
        }
        guard let eventId = context.eventId,
            state.zones[eventId.wire]?.zones.contains(where: { $0.id == zoneId }) == true
        else {
            context.refuse("There is no such zone in this event: choose one of the zones listed.")
            return
        }
        state.stations[eventId.wire] = ZonesState.Station(zoneId: zoneId, direction: direction)
        state.open = true
        state.last = nil
    }

    /// People inside `zone` as this device knows it: the server's count at the last pull plus
    /// this device's entries and exits that count does not include (only its own when it never
    /// had the count).
    package func inside(eventId: EventID, zone: ZoneID) -> Int? {
        let server = state.reports[eventId.wire]?.zones.first { $0.zoneId == zone }?.inside ?? 0
        guard let net = context.surfacing("count the zone", { try store.uncountedNet(zoneId: zone) }) else {
            return nil
        }
        return max(0, server + net)
    }

    /// A scanned ticket at the station: verified like a check-in, decided from the rules, and
    /// kept and queued when it is an entry or an exit.
    package func scan(_ text: String) {
        guard let eventId = context.eventId, let owner = context.userId, let event = context.currentEvent else {
            return
        }
        guard let station = state.stations[eventId.wire],
            let zone = state.zones[eventId.wire]?.zones.first(where: { $0.id == station.zoneId })
        else {
            context.refuse("Set this station to a zone first (EFx tab).")
            return
        }
        state.open = true
        guard let desk, let (_, verified) = desk.verify(text) else { return }
        let payload: TicketPayload
        switch verified {
        case .success(let verifiedPayload): payload = verifiedPayload
        case .failure(.otherEvent):
            show(false, "Not a ticket of this event.", nil)
            return
        case .failure:
            show(false, "Not a valid ticket: it is damaged or forged.", nil)
            return
        }
        guard let guest = desk.guest(eventId: eventId, id: GuestID(payload.guestId)) else {
            show(false, "Not on this event's roster yet: sync, then scan again.", nil)
            return
        }
        let now = context.ports.clock.now()
        guard
            let presence = context.surfacing(
                "read the zone's passages", { try store.presence(zoneId: zone.id, guestId: guest.id) })
        else { return }
        let decision = ZoneRules.decide(
            status: guest.status, access: zone.access(for: guest.accessTypeId), presence: presence,
            direction: station.direction, now: now, occupancy: inside(eventId: eventId, zone: zone.id) ?? 0,
            capacity: zone.capacity)
        let movement: ZoneMovement
        switch decision {
        case .enter: movement = .enter
        case .leave: movement = .leave
        case .refuse(let refusal):
            let timeZone = TimeZone(identifier: event.timeZone) ?? .gmt
            show(false, refusal.sentence(zone: zone.name, timeZone: timeZone), guest.name)
            return
        }
        let passage = ZonePassage(
            id: .random(), zoneId: zone.id, guestId: guest.id, movement: movement, deviceId: context.deviceId,
            scannedAt: Date(millisecondsSince1970: now.millisecondsSince1970))
        guard
            context.surfacing(
                "keep the passage", { try store.record(passage, eventId: eventId, owner: owner, now: now) }) != nil
        else { return }
        show(true, movement == .enter ? "In: \(guest.name)." : "Out: \(guest.name).", guest.name)
    }

    private func show(_ admitted: Bool, _ sentence: String, _ guestName: String?) {
        state.last = ZonesState.Result(admitted: admitted, sentence: sentence, guestName: guestName)
    }
}
