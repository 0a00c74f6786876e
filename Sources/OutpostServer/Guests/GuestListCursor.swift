import Foundation
import OutpostCore

/// The guest list's order: by the folded name (``GuestNameKey``: "anna zed", "Émile", "Zoe
/// Adams") or by e-mail in any case, either way up; the guest's id breaks ties.
enum GuestSort: String, Sendable, Equatable, CaseIterable {
    case name
    case nameDescending = "-name"
    case email
    case emailDescending = "-email"

    /// The column the list is ordered by (the same expression its index has).
    var key: String {
        switch self {
        case .name, .nameDescending: "g.name_key"
        case .email, .emailDescending: "lower(g.email)"
        }
    }

    var descending: Bool { self == .nameDescending || self == .emailDescending }

    /// The cursor's first letter: a cursor of one order is not taken for another.
    var mark: Character {
        switch self {
        case .name: "N"
        case .nameDescending: "n"
        case .email: "E"
        case .emailDescending: "e"
        }
    }
}

/// Where a page of the guest list ends: the last guest's sort key (as the database made it)
/// and id. Opaque to clients: the order's letter + base64url of `key NUL id`.
struct GuestListCursor: Sendable, Equatable {
    var sort: GuestSort = .name
    var key: String
    var guestId: String

    var token: String { String(sort.mark) + Base64URL.encode(Array((key + "\u{0}" + guestId).utf8)) }

    init(sort: GuestSort = .name, key: String, guestId: String) {
        self.sort = sort
        self.key = key
        self.guestId = guestId
    }

    /// Parses a cursor a server handed out for the list in `sort` order; nil for anything else.
    init?(token: String, sort: GuestSort = .name) {
        guard token.first == sort.mark, token.utf8.count < 4_096,
            let bytes = Base64URL.decode(String(token.dropFirst())),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let parts = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, UUID(wire: String(parts[1])) != nil else { return nil }
        self.init(sort: sort, key: String(parts[0]), guestId: String(parts[1]))
    }
}

/// What the guest list is filtered by.
struct GuestFilter: Sendable, Equatable {
    /// A part of the name or e-mail (any case), or the whole code.
    var query: String?
    var accessTypeId: AccessTypeID?
    var status: String?
    /// `checked_in` or `not_checked_in`.
    var checkIn: String?
    var sort: GuestSort = .name
}
