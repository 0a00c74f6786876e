import Foundation
import OutpostCore

/// A guest admitted at another door of the event, as a peer told this device over the venue
/// mesh while the server may be out of reach.
public struct PeerAdmission: Sendable, Hashable {
    public var at: Date
    public var staff: String
    public var door: String
    public var deviceId: String

    public init(at: Date, staff: String, door: String, deviceId: String) {
        self.at = at
        self.staff = staff
        self.door = door
        self.deviceId = deviceId
    }
}

/// What the venue mesh offers check-in: a guest's first admission at another door that this
/// device learnt from its peers, so a second scan shows "already checked in", not a green admit.
/// Found through ``ModuleContext/service(_:)``; check-in does not depend on the mesh.
@MainActor
public protocol PeerAdmissionSource: AnyObject {
    func peerAdmission(eventId: EventID, guestId: GuestID) -> PeerAdmission?
}
