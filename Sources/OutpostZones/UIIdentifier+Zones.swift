import OutpostShell

/// This module's stable test identifiers: the zone station inside seed 000's EFx tab.
extension UIIdentifier {
    // Engine additions (not in the seeds' tables).
    public static let zoneStation = "efx-zone-station"
    /// A zone of the event to set the station to (not set yet): its name and capacity.
    public static let zoneChoice = "efx-zone-choice"
    /// The station's zone, direction and people inside.
    public static let zoneOccupancy = "efx-zone-occupancy"
    /// The last scan's answer: green (in, out) or red with the reason.
    public static let zoneResult = "efx-zone-result"
}
