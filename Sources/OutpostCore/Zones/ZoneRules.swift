import Foundation

/// Which way a zone station counts the tickets it scans.
public enum ZoneDirection: String, Sendable, Codable, CaseIterable {
    /// Every scan is an entry.
    case entry
    /// Every scan is an exit.
    case exit
    /// A scan of someone inside is their exit, of anyone else an entry (one door both ways).
    case both
}

/// A span of time in which a zone admits an access type (the console sets it in the event's
/// time zone; it is kept as instants).
public struct ZoneWindow: Sendable, Codable, Hashable {
    public var opens: Date
    public var closes: Date

    public init(opens: Date, closes: Date) {
        self.opens = opens
        self.closes = closes
    }

    public func contains(_ instant: Date) -> Bool { opens <= instant && instant < closes }
}

/// What an access type may do in one zone: when (no windows: whenever the event runs) and
/// whether someone who entered once may enter again.
public struct ZoneAccess: Sendable, Codable, Hashable {
    public var windows: [ZoneWindow]
    public var reEntry: Bool

    public init(windows: [ZoneWindow] = [], reEntry: Bool = true) {
        self.windows = windows
        self.reEntry = reEntry
    }
}

/// What the station knows about the scanned guest in its zone when it decides.
public struct ZonePresence: Sendable, Hashable {
    /// The guest's last recorded passage in this zone was an entry.
    public var inside: Bool
    /// The guest entered this zone at least once.
    public var enteredBefore: Bool

    public init(inside: Bool, enteredBefore: Bool) {
        self.inside = inside
        self.enteredBefore = enteredBefore || inside
    }

    public static let never = ZonePresence(inside: false, enteredBefore: false)
}

/// Why a zone station said no: shown on the station in one sentence, and kept with the refused
/// scan.
public enum ZoneRefusal: Sendable, Hashable {
    /// The ticket is cancelled or revoked.
    case notAdmissible
    /// The guest's access type has no access to this zone.
    case notValidForZone
    /// Not yet: the zone opens for this access type at this instant.
    case notYetOpen(Date)
    /// No longer: its last window closed at this instant.
    case closed(Date)
    /// The guest entered before, and this access type may not enter twice.
    case noReEntry
    /// The zone holds as many people as it may.
    case full(capacity: Int)

    /// The sentence for the station, `zone` its name and times in `timeZone`.
    public func sentence(zone: String, timeZone: TimeZone) -> String {
        switch self {
        case .notAdmissible: "Not admitted: the ticket is cancelled or revoked."
        case .notValidForZone: "Not valid for \(zone)."
        case .notYetOpen(let opens): "\(zone) opens at \(Self.time(opens, timeZone))."
        case .closed(let closed): "\(zone) closed at \(Self.time(closed, timeZone))."
        case .noReEntry: "Already inside \(zone) once: no re-entry."
        case .full(let capacity): "\(zone) is full (\(capacity) inside)."
        }
    }

    /// `HH:mm` in the event's time zone.
    static func time(_ instant: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}

/// A zone station's decision for one scan, before anything is written.
public enum ZoneDecision: Sendable, Hashable {
    /// An entry: counted in the zone's occupancy.
    case enter
    /// An exit: counted out. Leaving is never refused.
    case leave
    case refuse(ZoneRefusal)
}

/// The zone decision, shared by the zone station (deciding offline from the synced rules) and the
/// server (which records what stations decided, and flags what they could not have known).
/// Pure: the same inputs give the same answer on every device.
public enum ZoneRules {
    /// Decides a scan at a station of a zone.
    /// - Parameters:
    ///   - status: the guest's ticket status.
    ///   - access: what the guest's access type may do in this zone; nil: no access.
    ///   - presence: what this station knows of the guest in this zone.
    ///   - direction: the station's setting.
    ///   - occupancy: people inside the zone as this station knows it; `capacity` its limit.
    public static func decide(
        status: GuestStatus, access: ZoneAccess?, presence: ZonePresence, direction: ZoneDirection, now: Date,
        occupancy: Int, capacity: Int?
    ) -> ZoneDecision {
        // Leaving is never refused (a cancelled ticket leaves too): the count must come down.
        if direction == .exit || (direction == .both && presence.inside) { return .leave }
        guard status.isAdmissible else { return .refuse(.notAdmissible) }
        guard let access else { return .refuse(.notValidForZone) }
        if !access.windows.isEmpty, !access.windows.contains(where: { $0.contains(now) }) {
            if let next = access.windows.filter({ $0.opens > now }).map(\.opens).min() {
                return .refuse(.notYetOpen(next))
            }
            return .refuse(.closed(access.windows.map(\.closes).max() ?? now))
        }
        if presence.enteredBefore, !access.reEntry { return .refuse(.noReEntry) }
        if let capacity, occupancy >= capacity { return .refuse(.full(capacity: capacity)) }
        return .enter
    }
}
