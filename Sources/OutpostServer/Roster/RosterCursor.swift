import Foundation
import OutpostCore

/// A position in an event's change order: the change sequence number and guest id of the last
/// guest a device has. Opaque on the wire (base32 of `seq:id`); a device stores it and resumes.
struct RosterCursor: Sendable, Equatable {
    var seq: Int64
    var guestId: String

    static let start = RosterCursor(seq: 0, guestId: "")

    var token: String { "R" + Base32.encode(Array("\(seq):\(guestId)".utf8)) }

    init(seq: Int64, guestId: String) {
        self.seq = seq
        self.guestId = guestId
    }

    /// Parses a cursor a server handed out; nil for anything else.
    init?(token: String) {
        guard token.hasPrefix("R"), let bytes = Base32.decode(token.dropFirst()),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let seq = Int64(parts[0]), seq >= 0,
            parts[1].isEmpty || UUID(wire: String(parts[1])) != nil
        else { return nil }
        self.init(seq: seq, guestId: String(parts[1]))
    }
}
