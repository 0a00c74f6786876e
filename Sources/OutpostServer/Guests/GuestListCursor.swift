import Foundation
import OutpostCore

/// Where a page of the guest list ends: the last guest's name and id (the list is ordered by
/// name, then id). Opaque to clients: `N` + base64url of `name NUL id`.
struct GuestListCursor: Sendable, Equatable {
    var name: String
    var guestId: String

    var token: String { "N" + Base64URL.encode(Array((name + "\u{0}" + guestId).utf8)) }

    init(name: String, guestId: String) {
        self.name = name
        self.guestId = guestId
    }

    /// Parses a cursor a server handed out; nil for anything else.
    init?(token: String) {
        guard token.hasPrefix("N"), token.utf8.count < 4_096, let bytes = Base64URL.decode(String(token.dropFirst())),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let parts = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, UUID(wire: String(parts[1])) != nil else { return nil }
        self.init(name: String(parts[0]), guestId: String(parts[1]))
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
}
