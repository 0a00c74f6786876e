import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The pickup station's actions, as the front-ends and tests call them (staff actions).
extension DeviceApp {
    package var pickupModule: PickupModule? { module(PickupModule.self) }

    /// Opens the EFx tab's pickup station (the items and this station's stock).
    public func openPickupStation() {
        performAsStaff { front(PickupModule.self)?.open() }
    }

    public func closePickupStation() {
        performAsStaff { pickupModule?.close() }
    }

    /// A ticket scanned at the pickup station: the guest and what they may still collect.
    public func pickupScan(_ text: String) {
        performAsStaff { front(PickupModule.self)?.scan(text) }
    }

    /// Hands the scanned guest these items (item and quantity) in one step; nil: everything
    /// they may still collect.
    public func pickupRedeem(_ items: [PickupItemID: Int]? = nil) {
        performAsStaff { front(PickupModule.self)?.redeem(items) }
    }

    /// The event's pickup items as last pulled.
    public var pickupItems: [PickupItem] {
        guard let eventId else { return [] }
        return pickupModule?.state.reports[eventId.wire]?.catalog.items ?? []
    }
}
