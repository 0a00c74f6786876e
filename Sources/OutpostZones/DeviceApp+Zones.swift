import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The zone station's actions, as the front-ends and tests call them (staff actions).
extension DeviceApp {
    package var zonesModule: ZonesModule? { module(ZonesModule.self) }

    /// Opens the EFx tab's zone station (the zones to choose from, or the station as set).
    public func openZoneStation() {
        performAsStaff { front(ZonesModule.self)?.open() }
    }

    public func closeZoneStation() {
        performAsStaff { zonesModule?.close() }
    }

    /// Sets this device to guard `zoneId` in `direction`.
    public func setZoneStation(zoneId: ZoneID, direction: ZoneDirection) {
        performAsStaff { front(ZonesModule.self)?.setStation(zoneId: zoneId, direction: direction) }
    }

    /// A ticket scanned at the zone station: green (in or out) or red with the reason.
    public func zoneScan(_ text: String) {
        performAsStaff { front(ZonesModule.self)?.scan(text) }
    }

    /// The station the organizer chose for the signed-in user at the open event, if any (the
    /// EFx tab opens it: `openEFx`).
    public var assignedStation: StationAssignment? { zonesModule?.assignment }

    /// The event's zones as last pulled.
    public var eventZones: [Zone] {
        guard let eventId else { return [] }
        return zonesModule?.state.zones[eventId.wire]?.zones ?? []
    }
}
