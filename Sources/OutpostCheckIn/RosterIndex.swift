import Foundation
import OutpostCore
import OutpostShell

/// The in-memory autocomplete over a roster, built when the store is unlocked (the store itself
/// only holds sealed values). Prefix match from the first character on any word of the name,
/// on the e-mail and on the code; case- and diacritic-insensitive; ranked; at most 20 results.
///
/// Each kind of key is kept sorted, so a prefix is a binary search and a contiguous range:
/// a search reads only the matching keys, not the whole roster.
public struct RosterIndex: Sendable {
    /// A guest the search found: its id and its name as the roster spells it. The screens read
    /// the guest itself from the store, so its check-in state is never the index's copy.
    public struct Match: Sendable, Hashable {
        public var id: GuestID
        public var name: String
    }

    package struct Entry: Sendable {
        package var id: GuestID
        package var name: String
        package var fullName: String
        package var nameWords: [String]
        package var email: String
        package var code: String
    }

    /// A sorted key pointing at an entry.
    package struct Key: Sendable {
        package var text: String
        package var entry: Int
    }

    package var entries: [Entry]
    private var positions: [GuestID: Int]
    package var fullNames: [Key] = []
    package var words: [Key] = []
    package var emails: [Key] = []
    package var codes: [Key] = []

    public init(guests: [LocalGuest]) {
        self.init(entries: guests.map(Self.entry))
    }

    /// An index over entries made by ``entry(_:)`` (the store makes them as it opens the roster).
    package init(entries: [Entry]) {
        self.entries = entries
        positions = Self.positions(entries)
        sortKeys()
    }

    /// An index whose keys are already sorted (``init(snapshot:)``).
    package init(entries: [Entry], fullNames: [Key], words: [Key], emails: [Key], codes: [Key]) {
        self.entries = entries
        positions = Self.positions(entries)
        self.fullNames = fullNames
        self.words = words
        self.emails = emails
        self.codes = codes
    }

    private static func positions(_ entries: [Entry]) -> [GuestID: Int] {
        var positions = [GuestID: Int](minimumCapacity: entries.count)
        for (index, entry) in entries.enumerated() { positions[entry.id] = index }
        return positions
    }

    @Sendable package static func entry(_ guest: LocalGuest) -> Entry {
        let name = fold(guest.name)
        return Entry(
            id: guest.id, name: guest.name, fullName: name,
            nameWords: name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init),
            email: fold(guest.email), code: fold(guest.code))
    }

    private mutating func sortKeys() {
        func sorted(_ keys: [Key]) -> [Key] {
            keys.sorted {
                $0.text == $1.text ? entries[$0.entry].fullName < entries[$1.entry].fullName : $0.text < $1.text
            }
        }
        fullNames = sorted(entries.indices.map { Key(text: entries[$0].fullName, entry: $0) })
        words = sorted(
            entries.indices.flatMap { index in entries[index].nameWords.dropFirst().map { Key(text: $0, entry: index) }
            })
        emails = sorted(entries.indices.map { Key(text: entries[$0].email, entry: $0) })
        codes = sorted(entries.indices.map { Key(text: entries[$0].code, entry: $0) })
    }

    public var count: Int { entries.count }

    /// Adds or replaces one guest. The same keys keep the sorted keys; a change of name, e-mail
    /// or code re-sorts them.
    public mutating func update(_ guest: LocalGuest) {
        let entry = Self.entry(guest)
        if let position = positions[guest.id] {
            let old = entries[position]
            entries[position] = entry
            if old.fullName == entry.fullName, old.email == entry.email, old.code == entry.code { return }
        } else {
            positions[guest.id] = entries.count
            entries.append(entry)
        }
        sortKeys()
    }

    /// Guests matching `query`, best first: exact code, name starting with the query, a later
    /// name word starting with it, e-mail, then code prefix; ties by name.
    public func search(_ query: String, limit: Int = 20) -> [Match] {
        let needle = Self.fold(query.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !needle.isEmpty, limit > 0 else { return [] }
        var chosen: [Int] = []
        var seen = Set<Int>()
        func take(_ candidates: [Int]) {
            for index in candidates where chosen.count < limit && seen.insert(index).inserted { chosen.append(index) }
        }
        // Rank 0: the exact code: the start of the code keys with this prefix (a key equal to the
        // prefix sorts before every longer one), without reading the rest of them.
        let codeRange = prefixRange(in: codes, prefix: needle)
        take(codes[codeRange].prefix { $0.text == needle }.map(\.entry))
        // Rank 1: the name starts with the query; the keys are already in name order.
        take(matches(in: fullNames, prefix: needle, limit: limit + chosen.count))
        // Ranks 2–4: a later name word, the e-mail, the code; each ordered by name.
        for keys in [words, emails, codes] where chosen.count < limit {
            let range = prefixRange(in: keys, prefix: needle)
            take(best(Array(keys[range].lazy.map(\.entry).filter { !seen.contains($0) }), count: limit - chosen.count))
        }
        return chosen.map { Match(id: entries[$0].id, name: entries[$0].name) }
    }

    /// The first `count` entries by name (then id), without sorting them all.
    private func best(_ candidates: [Int], count: Int) -> [Int] {
        func before(_ a: Int, _ b: Int) -> Bool {
            (entries[a].fullName, entries[a].id) < (entries[b].fullName, entries[b].id)
        }
        if candidates.count <= count * 4 { return Array(Set(candidates).sorted(by: before).prefix(count)) }
        var top: [Int] = []
        var members = Set<Int>()
        for candidate in candidates where !members.contains(candidate) {
            if top.count < count {
                top.append(candidate)
                members.insert(candidate)
                if top.count == count { top.sort(by: before) }
            } else if before(candidate, top[count - 1]) {
                members.remove(top.removeLast())
                let at = top.firstIndex { before(candidate, $0) } ?? top.count
                top.insert(candidate, at: at)
                members.insert(candidate)
            }
        }
        return top.count < count ? top.sorted(by: before) : top
    }

    private func matches(in keys: [Key], prefix: String, limit: Int) -> [Int] {
        keys[prefixRange(in: keys, prefix: prefix)].prefix(limit).map(\.entry)
    }

    /// The contiguous range of sorted keys starting with `prefix` (two binary searches).
    private func prefixRange(in keys: [Key], prefix: String) -> Range<Int> {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].text < prefix { low = middle + 1 } else { high = middle }
        }
        // Keys with the prefix are contiguous from `low`: binary search for where they stop.
        var end = low
        high = keys.count
        while end < high {
            let middle = (end + high) / 2
            if keys[middle].text.hasPrefix(prefix) { end = middle + 1 } else { high = middle }
        }
        return low..<end
    }

    /// Lower-cased, without diacritics; letters that do not decompose are spelled out.
    package static func fold(_ text: String) -> String {
        // Codes, most e-mails and many names are ASCII: lower-casing is the whole fold, and far
        // cheaper than Foundation's folding (this runs for every key when the index is built).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
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
