import Foundation

/// The in-memory autocomplete over a roster, built when the store is unlocked (the store itself
/// only holds sealed values). Prefix match from the first character on any word of the name,
/// on the e-mail and on the code; case- and diacritic-insensitive; ranked; at most 20 results.
public struct RosterIndex: Sendable {
    struct Entry: Sendable {
        var guest: LocalGuest
        var nameWords: [String]
        var fullName: String
        var email: String
        var code: String
    }

    private var entries: [Entry]
    private var positions: [String: Int]

    public init(guests: [LocalGuest]) {
        entries = guests.map(Self.entry)
        positions = Dictionary(entries.enumerated().map { ($1.guest.id, $0) }, uniquingKeysWith: { $1 })
    }

    static func entry(_ guest: LocalGuest) -> Entry {
        let name = fold(guest.name)
        return Entry(
            guest: guest, nameWords: name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init),
            fullName: name, email: fold(guest.email), code: fold(guest.code))
    }

    /// Adds or replaces one guest.
    public mutating func update(_ guest: LocalGuest) {
        if let position = positions[guest.id] {
            entries[position] = Self.entry(guest)
        } else {
            positions[guest.id] = entries.count
            entries.append(Self.entry(guest))
        }
    }

    public var count: Int { entries.count }

    /// Guests matching `query`, best first: exact code, name starting with the query, a name
    /// word starting with it, e-mail, then code prefix; ties by name.
    public func search(_ query: String, limit: Int = 20) -> [LocalGuest] {
        let needle = Self.fold(query.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !needle.isEmpty else { return [] }
        var scored: [(rank: Int, entry: Entry)] = []
        for entry in entries {
            let rank: Int
            if entry.code == needle {
                rank = 0
            } else if entry.fullName.hasPrefix(needle) {
                rank = 1
            } else if entry.nameWords.contains(where: { $0.hasPrefix(needle) }) {
                rank = 2
            } else if entry.email.hasPrefix(needle) {
                rank = 3
            } else if entry.code.hasPrefix(needle) {
                rank = 4
            } else {
                continue
            }
            scored.append((rank, entry))
        }
        scored.sort {
            ($0.rank, $0.entry.fullName, $0.entry.guest.id) < ($1.rank, $1.entry.fullName, $1.entry.guest.id)
        }
        return scored.prefix(limit).map(\.entry.guest)
    }

    /// Lower-cased, without diacritics; letters that do not decompose are spelled out.
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        guard folded.unicodeScalars.contains(where: { !$0.isASCII }) else { return folded }
        var output = ""
        for character in folded {
            switch character {
            case "ø": output += "o"
            case "æ": output += "ae"
            case "œ": output += "oe"
            case "ß": output += "ss"
            case "ł": output += "l"
            case "đ", "ð": output += "d"
            case "þ": output += "th"
            case "ı": output += "i"
            default: output.append(character)
            }
        }
        return output
    }
}
