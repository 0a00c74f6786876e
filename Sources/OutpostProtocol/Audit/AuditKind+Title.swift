extension AuditKind {
    /// As the console names the entry to people (the raw value is the API's word for it).
    public var title: String {
        switch self {
        case .checkedIn: "Checked in"
        case .alreadyCheckedIn: "Scanned again, already in"
        case .reconfirmed: "Re-confirmed"
        case .kioskAlreadyCheckedIn: "At the kiosk again, already in"
        case .rejectedNotFound: "Refused: not on the list"
        case .rejectedNotAdmissible: "Refused: cancelled or revoked"
        case .badgePrinted: "Badge printed"
        case .badgeReprinted: "Badge reprinted"
        case .checkInUndone: "Check-in undone"
        }
    }
}
