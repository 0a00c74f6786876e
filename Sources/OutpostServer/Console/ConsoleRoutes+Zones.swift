import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The event's zones for its organizer (EFx access control): EFx stations on or off (the event's
/// `efx` module: devices show the EFx tab), each zone with what it admits and its counts, the
/// entries the server marked, and a form to add a zone (the access types it admits, re-entry,
/// a capacity, opening hours on the event's clock).
extension ConsoleRoutes {
    func registerZones(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.zones, use: zones)
        group.on(ConsolePages.addZone, use: addZone)
        group.on(ConsolePages.setEFx, use: setEFx)
        group.on(ConsolePages.changeZone, use: changeZone)
        group.on(ConsolePages.removeZone, use: removeZone)
        group.on(ConsolePages.setStation, use: setStation)
    }

    @Sendable func zones(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.zones.parameters(in: context), call)
            let id = detail.event.id
            let answer = try await call(API.zoneOccupancy.line(id), nil)
            let listed = try await call(API.zones.line(id), nil)
            guard answer.status == .ok, listed.status == .ok else {
                return try await problem(
                    answer.status == .ok ? listed : answer, session: session, back: ConsolePages.event.path(id))
            }
            let report = try answer.decode(ZoneReport.self)
            let list = try listed.decode(ZoneList.self)
            let names = Dictionary(detail.accessTypes.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let clock = Self.localFormat(detail.event.timeZone)
            let zoneNames = Dictionary(list.zones.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let canEdit = Self.role(session, on: detail) == .organizer
            let stationRows = canEdit ? try await stations(id, zones: list.zones, call) : []
            let values: [String: Any] = [
                "stations": stationRows, "hasStations": !stationRows.isEmpty,
                "event": ["id": id.wire, "name": detail.event.name],
                "efx": detail.event.modules.contains(Self.efxModule),
                "canEdit": Self.role(session, on: detail) == .organizer,
                "timeZone": detail.event.timeZone,
                "accessTypes": detail.accessTypes.map { ["id": $0.id.wire, "name": $0.name] },
                "zones": list.zones.map { zone -> [String: Any] in
                    let counts = report.zones.first { $0.zoneId == zone.id }
                    let admits = zone.access.map { rule in
                        var words = names[rule.accessTypeId] ?? "?"
                        if !rule.reEntry { words += " (once)" }
                        if let first = rule.windows.first {
                            words += " \(clock.string(first.opens))–\(clock.string(first.closes))"
                        }
                        return words
                    }
                    return [
                        "id": zone.id.wire, "capacity": zone.capacity.map(String.init) ?? "",
                        "name": zone.name, "admits": admits.isEmpty ? "nobody yet" : admits.joined(separator: ", "),
                        "inside": "\(counts?.inside ?? 0)" + (zone.capacity.map { " of \($0)" } ?? ""),
                        "entries": counts?.entries ?? 0, "exits": counts?.exits ?? 0,
                        "violations": counts?.violations ?? 0,
                    ]
                },
                "hasViolations": !report.violations.isEmpty,
                "violations": report.violations.map { marked -> [String: Any] in
                    [
                        "at": clock.string(marked.passage.scannedAt), "guest": marked.guestName,
                        "zone": zoneNames[marked.passage.zoneId] ?? "", "why": marked.violation?.sentence ?? "",
                        "by": marked.byName, "device": marked.passage.deviceId,
                    ]
                },
            ]
            return try await self.page(
                "zones", title: "Zones · \(detail.event.name)", values, session: session,
                notice: Self.zoneNotice(request.uri.queryParameters.get("done")))
        }
    }

    static let efxModule = EventModule.efx

    /// Who works the event's doors (its staff and the support users), each with the station the
    /// organizer chose and the choices: none, the pickup station, or a zone one way or both.
    private func stations(_ event: EventID, zones: [Zone], _ call: Call) async throws -> [[String: Any]] {
        let staff = try await call(API.listStaff.line(event), nil).decode(UserList.self).users
        // The organisation's users are its organizers' to list: an event's own organizer places
        // the event's staff.
        let users = try await call(API.listUsers.line(), nil)
        let support = (users.status == .ok ? try users.decode(UserList.self).users : []).filter { $0.role == .support }
        let chosen = Dictionary(
            try await call(API.stations.line(event), nil).decode(StationList.self).stations.map {
                ($0.userId, $0.station)
            }, uniquingKeysWith: { first, _ in first })
        var choices: [(value: String, label: String)] = [
            ("none", "— the device chooses —"), ("pickup", "Pickup station"),
        ]
        for zone in zones {
            for direction in ZoneDirection.allCases {
                choices.append(("zone:\(zone.id.wire):\(direction.rawValue)", "\(zone.name) · \(direction.rawValue)"))
            }
        }
        return (staff + support).map { user -> [String: Any] in
            let current = chosen[user.id].map(Self.stationValue) ?? "none"
            return [
                "userId": user.id.wire, "name": user.name,
                "choices": choices.map { ["value": $0.value, "label": $0.label, "selected": $0.value == current] },
            ]
        }
    }

    /// A station as the form's select names it.
    static func stationValue(_ station: StationAssignment) -> String {
        switch station.kind {
        case .pickup: "pickup"
        case .zone: "zone:\(station.zoneId?.wire ?? ""):\(station.direction?.rawValue ?? "")"
        }
    }

    @Sendable func setStation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.setStation.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let back = ConsolePages.zones.path(id)
            // Another tenant's event is not found, whatever the form asks (clearing answers 404 for
            // a user without a station too).
            _ = try await eventDetail(id, call)
            guard let user = UserID(wire: form["userId"] ?? "") else {
                throw EventForm.Invalid(sentence: "Choose whose station it is.")
            }
            let value = form["station"] ?? "none"
            let answer: ConsoleAPI.Answer
            if value == "none" {
                answer = try await call(API.clearStation.line(id, user), nil)
                guard answer.status == .noContent || answer.status == .notFound else {
                    return .refused(answer, back: back)
                }
            } else {
                let parts = value.split(separator: ":").map(String.init)
                let station: StationAssignment
                if value == "pickup" {
                    station = .pickup
                } else if parts.count == 3, parts[0] == "zone", let zone = ZoneID(wire: parts[1]),
                    let direction = ZoneDirection(rawValue: parts[2])
                {
                    station = .zone(zone, direction)
                } else {
                    throw EventForm.Invalid(sentence: "Choose a station from the list.")
                }
                answer = try await call(API.setStation.line(id, user), try OutpostJSON.encode(station))
                guard answer.status == .ok else { return .refused(answer, back: back) }
            }
            return .redirect(ConsolePages.zones.path(id, query: [("done", "station")]))
        }
    }

    static func zoneNotice(_ done: String?) -> String? {
        switch done {
        case "zone": "The zone was added; stations have it at their next sync."
        case "zone-changed": "The zone was changed; stations have it at their next sync."
        case "zone-removed": "The zone was removed."
        case "station": "The station was set; that person's EFx tab opens it from their next sync."
        case "efx-on": "EFx stations are on: devices show the EFx tab from their next sync."
        case "efx-off": "EFx stations are off."
        default: nil
        }
    }

    @Sendable func addZone(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.addZone.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let detail = try await eventDetail(id, call)
            let back = ConsolePages.zones.path(id)
            let zone = try Self.zone(form, accessTypes: detail.accessTypes, timeZone: detail.event.timeZone)
            let listed = try await call(API.zones.line(id), nil)
            guard listed.status == .ok else { return .refused(listed, back: back) }
            var list = try listed.decode(ZoneList.self)
            list.zones.append(zone)
            let saved = try await call(API.setZones.line(id), try OutpostJSON.encode(list))
            guard saved.status == .ok else { return .refused(saved, back: back) }
            return .redirect(ConsolePages.zones.path(id, query: [("done", "zone")]))
        }
    }

    /// The zone the form describes: one rule per access type ticked, each with the form's
    /// re-entry and opening hours.
    static func zone(_ form: [String: String], accessTypes: [AccessTypeInfo], timeZone: String) throws -> Zone {
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw EventForm.Invalid(sentence: "Give the zone a name.") }
        let capacityText = (form["capacity"] ?? "").trimmingCharacters(in: .whitespaces)
        let capacity = capacityText.isEmpty ? nil : Int(capacityText)
        if !capacityText.isEmpty, capacity == nil {
            throw EventForm.Invalid(sentence: "The capacity is a number of people, or empty for no limit.")
        }
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        let opens = EventForm.wallClock(form["opens"], in: zone)
        let closes = EventForm.wallClock(form["closes"], in: zone)
        var windows: [ZoneWindow] = []
        switch (opens, closes) {
        case (nil, nil): break
        case (let opens?, let closes?): windows = [ZoneWindow(opens: opens, closes: closes)]
        default: throw EventForm.Invalid(sentence: "Give both the opening and the closing time, or neither.")
        }
        let reEntry = form["reEntry"] == "on"
        let rules = accessTypes.filter { form["admit-\($0.id.wire)"] == "on" }.map {
            ZoneAccessRule(accessTypeId: $0.id, windows: windows, reEntry: reEntry)
        }
        return Zone(id: .random(), name: name, capacity: capacity, access: rules)
    }

    @Sendable func setEFx(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.setEFx.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let detail = try await eventDetail(id, call)
            let on = form["on"] == "on"
            var modules = detail.event.modules.filter { $0 != Self.efxModule }
            if on { modules.append(Self.efxModule) }
            let answer = try await call(
                API.updateEvent.line(id), try OutpostJSON.encode(UpdateEventRequest(modules: modules)))
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.zones.path(id)) }
            return .redirect(ConsolePages.zones.path(id, query: [("done", on ? "efx-on" : "efx-off")]))
        }
    }

    /// Renames a zone or changes its capacity (empty: no limit); its rules stay.
    @Sendable func changeZone(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, zoneId) = try ConsolePages.changeZone.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let back = ConsolePages.zones.path(id)
            let listed = try await call(API.zones.line(id), nil)
            guard listed.status == .ok else { return .refused(listed, back: back) }
            var list = try listed.decode(ZoneList.self)
            guard let index = list.zones.firstIndex(where: { $0.id == zoneId }) else {
                return .refused(ConsoleAPI.Answer(status: .notFound, body: Data(), renewed: nil), back: back)
            }
            let name = (form["name"] ?? list.zones[index].name).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { throw EventForm.Invalid(sentence: "Give the zone a name.") }
            let capacityText = (form["capacity"] ?? "").trimmingCharacters(in: .whitespaces)
            guard capacityText.isEmpty || Int(capacityText) != nil else {
                throw EventForm.Invalid(sentence: "The capacity is a number of people, or empty for no limit.")
            }
            list.zones[index].name = name
            list.zones[index].capacity = Int(capacityText)
            let saved = try await call(API.setZones.line(id), try OutpostJSON.encode(list))
            guard saved.status == .ok else { return .refused(saved, back: back) }
            return .redirect(ConsolePages.zones.path(id, query: [("done", "zone-changed")]))
        }
    }

    /// Removes a zone; one with recorded entries and exits stays (the API's 409 says so).
    @Sendable func removeZone(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, zoneId) = try ConsolePages.removeZone.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let back = ConsolePages.zones.path(id)
            let listed = try await call(API.zones.line(id), nil)
            guard listed.status == .ok else { return .refused(listed, back: back) }
            var list = try listed.decode(ZoneList.self)
            guard list.zones.contains(where: { $0.id == zoneId }) else {
                return .refused(ConsoleAPI.Answer(status: .notFound, body: Data(), renewed: nil), back: back)
            }
            list.zones.removeAll { $0.id == zoneId }
            let saved = try await call(API.setZones.line(id), try OutpostJSON.encode(list))
            guard saved.status == .ok else { return .refused(saved, back: back) }
            return .redirect(ConsolePages.zones.path(id, query: [("done", "zone-removed")]))
        }
    }
}
