import OutpostPickup
import OutpostShell
import OutpostZones

/// The EFx tab (seed 000): the station the organizer chose for the signed-in user opens, a
/// zone station already at its zone and direction, or the pickup station; without a choice, the
/// zone station's chooser (staff pick a zone, or F11 / `pickup show` for pickup). An exhibitor's
/// home is the lead station, by their role.
extension DeviceApp {
    /// Opens the EFx tab's station.
    public func openEFx() {
        if zonesModule?.assignment?.kind == .pickup {
            openPickupStation()
        } else {
            openZoneStation()
        }
    }
}
