import OutpostShell

/// This module's stable test identifiers: the pickup station inside seed 000's EFx tab.
extension UIIdentifier {
    // Engine additions (not in the seeds' tables).
    public static let pickupStation = "efx-pickup-station"
    /// An item and how many this station counts left of it.
    public static let pickupStock = "efx-pickup-stock"
    /// The scanned guest.
    public static let pickupGuest = "efx-pickup-guest"
    /// An item the scanned guest may still collect, and how many.
    public static let pickupEntitlement = "efx-pickup-entitlement"
    /// The last answer: handed out (green) or red with the reason.
    public static let pickupResult = "efx-pickup-result"
}
