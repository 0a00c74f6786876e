extension UserRole {
    /// As the console names the role to people (the raw value is the API's word for it).
    public var title: String {
        switch self {
        case .organizer: "Organizer"
        case .support: "Support"
        case .checkinStaff: "Check-in staff"
        case .mentor: "Peer mentor"
        case .worker: "Care worker"
        case .exhibitor: "Exhibitor"
        case .blockManager: "Block manager"
        }
    }
}
