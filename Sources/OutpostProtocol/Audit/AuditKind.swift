/// What an audit row records: the decision the server made for one check-in request. Shared by
/// the server (which appends them), the device tests and the soak (which read them).
public enum AuditKind: String, Codable, Sendable, CaseIterable {
    case checkedIn = "checked_in"
    case alreadyCheckedIn = "already_checked_in"
    case reconfirmed
    /// An attendee at the kiosk who was already checked in (kiosk requests never re-confirm).
    case kioskAlreadyCheckedIn = "kiosk_already_checked_in"
    case rejectedNotFound = "rejected_not_found"
    case rejectedNotAdmissible = "rejected_not_admissible"
    /// A guest's badge came out of a printer (the method says which device kind printed it).
    case badgePrinted = "badge_printed"
    /// A badge printed again for a guest who had one, at staff's request (the reason in `method`).
    case badgeReprinted = "badge_reprinted"
    /// A check-in taken back by the organizer or support (the reason in `method`); the check-in
    /// itself is kept.
    case checkInUndone = "check_in_undone"
}
