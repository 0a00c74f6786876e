import OutpostShell

/// This module's stable test identifiers: the venue mesh.
extension UIIdentifier {
    /// The mesh's status line while a node runs: the connected doors and how fresh each is, or
    /// that none is. Attributes: `peers` (how many), `join` (this door's join code, when it
    /// listens), `entries` (what the door holds of the event's mesh).
    public static let meshPeers = "mesh-peers"
}
