import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The zone station (inside the EFx tab): before it is set, the event's zones to choose from;
/// then its zone, direction and people inside, and the last scan's answer in green or red.
package struct ZoneStationScreen: ScreenModel, Sendable {
    package var zones: [Zone]
    package var zone: Zone?
    package var direction: ZoneDirection?
    package var inside: Int?
    package var last: ZonesState.Result?

    package var identifier: String { UIIdentifier.zoneStation }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.zoneStation, "Zone station")]
        if let zone, let direction {
            let capacity = zone.capacity.map { " of \($0)" } ?? ""
            let count = inside.map { "\($0)\(capacity) inside" } ?? "count not known yet"
            elements.append(
                UIElement(
                    UIIdentifier.zoneOccupancy, "\(zone.name) (\(Self.words(direction))): \(count)",
                    [
                        "zoneId": zone.id.wire, "direction": direction.rawValue,
                        "inside": inside.map(String.init) ?? "",
                        "capacity": zone.capacity.map(String.init) ?? "",
                    ]))
        } else {
            for zone in zones {
                elements.append(
                    UIElement(
                        UIIdentifier.zoneChoice, zone.name + (zone.capacity.map { " (\($0) people)" } ?? ""),
                        ["zoneId": zone.id.wire]))
            }
        }
        if let last {
            var attributes = ["result": last.admitted ? "green" : "red"]
            if let name = last.guestName { attributes["guest"] = name }
            elements.append(UIElement(UIIdentifier.zoneResult, last.sentence, attributes))
        }
        return elements
    }

    package static func words(_ direction: ZoneDirection) -> String {
        switch direction {
        case .entry: "entry"
        case .exit: "exit"
        case .both: "entry and exit"
        }
    }
}
