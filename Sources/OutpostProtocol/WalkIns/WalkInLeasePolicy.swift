import Foundation

/// How walk-in places are leased (escrow: O'Neil 1986; bounded counters, Balegas et al. 2015):
/// the server owns each access type's pool of places, doors hold rights to spend some offline.
/// Pure: the server sizes grants with it, the device decides when to ask for more.
public enum WalkInLeasePolicy {
    /// The most places one grant holds.
    public static let maxGrant = 25
    /// A lease is good for this long after its grant (and never past the event's end).
    public static let lifetime: TimeInterval = 2 * 3600
    /// Open leases one device may hold for one access type (the running one and its refill).
    public static let maxOpenPerDevice = 2

    /// Places to grant a door when `free` places are left and `otherDoors` other devices hold
    /// open leases: half of a fair share, between 1 and ``maxGrant``; a single place when fewer
    /// than two per door are left (the last places go one at a time, to doors that are online);
    /// none when nothing is free.
    public static func grant(free: Int, otherDoors: Int) -> Int {
        guard free > 0 else { return 0 }
        let doors = max(otherDoors, 0) + 1
        guard free >= 2 * doors else { return 1 }
        return min(max(free / (2 * doors), 1), maxGrant)
    }

    /// When a door holding a lease of `granted` places with `left` of them should ask for the
    /// next one (while online): at a third left, so an offline spell after it still admits.
    public static func wantsRefill(granted: Int, left: Int) -> Bool {
        left <= (granted + 2) / 3
    }

    /// When a lease granted at `grantedAt` (server time) stops, for an event ending at `eventEnds`.
    public static func expiry(grantedAt: Date, eventEnds: Date) -> Date {
        let end = grantedAt.addingTimeInterval(lifetime)
        // An event already over (a test, an after-party) still gets the whole lifetime.
        return eventEnds > grantedAt ? min(end, eventEnds) : end
    }
}
