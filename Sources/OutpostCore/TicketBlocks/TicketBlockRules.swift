import Foundation

/// What a block's partner is to the event.
public enum PartnerKind: String, Codable, Sendable, CaseIterable {
    case sponsor
    case company
    /// A speakers' agency.
    case agency
    case partner

    /// The word a door card starts the block's scope with.
    public var title: String {
        switch self {
        case .sponsor: "Sponsor"
        case .company: "Company"
        case .agency: "Agency"
        case .partner: "Partner"
        }
    }
}

/// Who names a ticket of a block, as the naming rules tell them apart.
public enum TicketNamer: Sendable, Hashable {
    /// The partner's block manager, in the console or over the API.
    case partner
    /// The event's organizer: their guests, at any time.
    case organizer
    /// Door staff naming a ticket of the block as its holder arrives.
    case door
}

/// Why a ticket of a block may not be named now: one sentence, shown where it was refused.
public enum TicketNamingRefusal: Sendable, Hashable {
    /// The partner's naming deadline has passed (`deadline`, as the event's time zone shows it
    /// elsewhere; here the instant).
    case deadlinePassed(Date)
    /// The organizer does not let the door name this block's tickets.
    case noDoorNaming(partner: String)
    /// The door names only a ticket nobody has named yet.
    case alreadyNamed
    /// The ticket is cancelled or revoked (a block made smaller, or the organizer's cancel).
    case notAdmissible

    public var sentence: String {
        switch self {
        case .deadlinePassed: "The naming deadline of this block has passed: ask the organizer to change a name."
        case .noDoorNaming(let partner): "\(partner) names its own tickets: this one cannot be named at the door."
        case .alreadyNamed: "This ticket is already named: only an unnamed ticket of a block is named at the door."
        case .notAdmissible: "This ticket is cancelled or revoked."
        }
    }
}

/// Ticket blocks (EF-069): who may name a ticket of a block, and when. Shared by the server
/// (which decides every naming) and the door device (which names offline what the server will
/// accept). Pure.
public enum TicketBlockRules {
    /// Whether `namer` may give a ticket of the block a name now.
    /// - Parameters:
    ///   - named: whether the ticket has a name already (a partner renames until the deadline;
    ///     the door names only an unnamed ticket).
    ///   - admissible: false for a cancelled or revoked ticket.
    ///   - deadline: the block's naming deadline; the partner may name until it (exclusive).
    ///   - doorNaming: whether the organizer lets the door name the block's unnamed tickets.
    public static func naming(
        by namer: TicketNamer, named: Bool, admissible: Bool, deadline: Date, doorNaming: Bool, partner: String,
        now: Date
    ) -> TicketNamingRefusal? {
        guard admissible else { return .notAdmissible }
        switch namer {
        case .organizer:
            return nil
        case .partner:
            return now < deadline ? nil : .deadlinePassed(deadline)
        case .door:
            guard doorNaming else { return .noDoorNaming(partner: partner) }
            return named ? .alreadyNamed : nil
        }
    }

    /// A block's scope as a door card says it: "Sponsor: Acme (block of 20)".
    public static func scope(kind: PartnerKind, partner: String, size: Int) -> String {
        "\(kind.title): \(partner) (block of \(size))"
    }
}
