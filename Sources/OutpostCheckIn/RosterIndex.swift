import Foundation
import OutpostCore
import OutpostShell

/// The autocomplete over a roster, built when the store is unlocked (the store itself only holds
/// sealed values). Prefix match from the first character on any word of the name, on the e-mail
/// and on the code; case- and diacritic-insensitive; ranked; at most 20 results.
///
/// The index is one buffer of bytes (``RosterIndexLayout``), searched where it lies: each kind of
/// key is a sorted list of entry numbers, so a prefix is two binary searches and a contiguous
/// range, and nothing is decoded but the keys a search compares and the ≤ 20 names it returns. A
/// launch opens the buffer from its sealed snapshot as it is; a million guests cost the
/// buffer's bytes, not a million strings.
public struct RosterIndex: Sendable {
    /// A guest the search found: its id and its name as the roster spells it. The screens read
    /// the guest itself from the store, so its check-in state is never the index's copy.
    public struct Match: Sendable, Hashable {
        public var id: GuestID
        public var name: String
    }

    /// One guest's keys, folded (``fold(_:)``), as the index is built from them.
    package struct Entry: Sendable {
        package var id: GuestID
        package var name: String
        package var fullName: String
        package var email: String
        package var code: String
    }

    /// The index as built or opened from its snapshot.
    package private(set) var layout: RosterIndexLayout
    /// Guests changed since (added, renamed, given another code or e-mail), by id: they hide
    /// their entries in ``layout`` and are searched in ``overlayLayout``.
    private var overlay: [GuestID: Entry] = [:]
    /// Guests of ``layout`` removed since.
    private var removed: Set<GuestID> = []
    private var overlayLayout: RosterIndexLayout?

    public init(guests: [LocalGuest]) {
        self.init(entries: guests.map(Self.entry))
    }

    /// An index over entries made by ``entry(_:)``.
    package init(entries: [Entry]) {
        layout = RosterIndexLayout(entries: entries)
    }

    /// An index over segments of entries (the store makes one per core as it opens the roster).
    package init(segments: [RosterIndexLayout.Segment]) {
        layout = RosterIndexLayout(segments: segments)
    }

    package init(layout: RosterIndexLayout) { self.layout = layout }

    @Sendable package static func entry(_ guest: LocalGuest) -> Entry {
        Entry(
            id: guest.id, name: guest.name, fullName: fold(guest.name), email: fold(guest.email), code: fold(guest.code)
        )
    }

    /// The guests the index holds.
    public var count: Int {
        guard !overlay.isEmpty || !removed.isEmpty else { return layout.count }
        let hidden = layout.read { index in
            (0..<layout.count).count { entry in
                let id = index.guestId(entry)
                return overlay[id] != nil || removed.contains(id)
            }
        }
        return layout.count - hidden + overlay.count
    }

    /// How many guests changed since the index was built or opened (each costs every search a
    /// little: past a few thousand, building it again is cheaper).
    package var changedSinceBuilt: Int { overlay.count + removed.count }

    /// Follows a changed roster without building the index again: `changed` guests (added, or
    /// their name, e-mail or code changed) and `removed` ones.
    package mutating func apply(changed: [LocalGuest], removed gone: [GuestID] = []) {
        for guest in changed {
            overlay[guest.id] = Self.entry(guest)
            removed.remove(guest.id)
        }
        for id in gone {
            overlay[id] = nil
            removed.insert(id)
        }
        overlayLayout = overlay.isEmpty ? nil : RosterIndexLayout(entries: Array(overlay.values))
    }

    /// Adds or replaces one guest.
    public mutating func update(_ guest: LocalGuest) {
        apply(changed: [guest])
    }

    /// The index with its changes folded in: one layout, as a build from the roster would make.
    package func merged() -> RosterIndex {
        guard !overlay.isEmpty || !removed.isEmpty else { return self }
        let kept = layout.entries().filter { overlay[$0.id] == nil && !removed.contains($0.id) }
        return RosterIndex(entries: kept + overlay.values)
    }

    /// One search result with what orders it: its rank, then its folded name, then its id.
    private struct Hit {
        var rank: Int
        var fullName: String
        var match: Match

        static func < (a: Hit, b: Hit) -> Bool {
            if a.rank != b.rank { return a.rank < b.rank }
            if a.fullName != b.fullName { return Array(a.fullName.utf8).lexicographicallyPrecedes(b.fullName.utf8) }
            return withUnsafeBytes(of: a.match.id.uuid.uuid) { first in
                withUnsafeBytes(of: b.match.id.uuid.uuid) { second in first.lexicographicallyPrecedes(second) }
            }
        }
    }

    /// Guests matching `query`, best first: exact code, name starting with the query, a later
    /// name word starting with it, e-mail, then code prefix; ties by name, then id.
    public func search(_ query: String, limit: Int = 20) -> [Match] {
        let needle = Array(Self.fold(query.trimmingCharacters(in: .whitespacesAndNewlines)).utf8)
        guard !needle.isEmpty, limit > 0 else { return [] }
        guard let overlayLayout else {
            guard removed.isEmpty else {
                return hits(layout, needle, limit: limit + removed.count).map(\.match)
                    .filter { !removed.contains($0.id) }.prefix(limit).map { $0 }
            }
            return hits(layout, needle, limit: limit).map(\.match)
        }
        // The base's best, enough of them that the hidden ones leave `limit`, and the changes'.
        let base = hits(layout, needle, limit: limit + changedSinceBuilt).filter {
            overlay[$0.match.id] == nil && !removed.contains($0.match.id)
        }
        return (base + hits(overlayLayout, needle, limit: limit)).sorted(by: <).prefix(limit).map(\.match)
    }

    /// The guests whose code folds to what `code` folds to, trimmed: the candidates of an exact
    /// lookup, which the caller confirms against each guest's own code (folding also drops
    /// accents, and a key longer than ``RosterIndexLayout/maximumText`` bytes is cut there).
    package func candidates(code: String) -> [GuestID] { candidates(.code, code) }

    /// The guests whose e-mail folds to what `email` folds to, trimmed (candidates, as for codes).
    package func candidates(email: String) -> [GuestID] { candidates(.email, email) }

    /// What an exact lookup compares: a guest's code or e-mail.
    package enum ExactKey: Sendable {
        case code, email

        /// The guest's own value of it.
        package var field: KeyPath<LocalGuest, String> { self == .code ? \.code : \.email }
        var list: RosterIndexLayout.List { self == .code ? .codes : .emails }
    }

    /// The candidates of an exact lookup of `value` by `key`.
    package func candidates(_ key: ExactKey, _ value: String) -> [GuestID] {
        let list = key.list
        let folded = Self.fold(value.trimmingCharacters(in: .whitespacesAndNewlines))
        let needle = Array(folded.utf8.prefix(RosterIndexLayout.cut(folded.utf8)))
        guard !needle.isEmpty else { return [] }
        func equal(_ layout: RosterIndexLayout) -> [GuestID] {
            layout.read { index in
                index.prefixRange(list, needle).prefix { index.key(list, $0, equals: needle) }
                    .map { index.guestId(index.entry(list, $0)) }
            }
        }
        let base = equal(layout).filter { overlay[$0] == nil && !removed.contains($0) }
        return base + (overlayLayout.map(equal) ?? [])
    }

    /// The best `limit` of one layout, in order.
    private func hits(_ layout: RosterIndexLayout, _ needle: [UInt8], limit: Int) -> [Hit] {
        layout.read { index in
            var chosen: [(rank: Int, entry: Int)] = []
            var seen = Set<Int>()
            func take(_ candidates: some Sequence<Int>, rank: Int) {
                for entry in candidates where chosen.count < limit && seen.insert(entry).inserted {
                    chosen.append((rank, entry))
                }
            }
            // Rank 0: the exact code: the start of the code keys with this prefix (a key equal to
            // the prefix sorts before every longer one), without reading the rest of them.
            let codes = index.prefixRange(.codes, needle)
            take(codes.lazy.prefix { index.key(.codes, $0, equals: needle) }.map { index.entry(.codes, $0) }, rank: 0)
            // Rank 1: the name starts with the query; the keys are already in name order.
            take(
                index.prefixRange(.fullNames, needle).prefix(limit + chosen.count).map { index.entry(.fullNames, $0) },
                rank: 1)
            // Ranks 2–4: a later name word, the e-mail, the code; each ordered by name.
            for (rank, list) in [(2, RosterIndexLayout.List.words), (3, .emails), (4, .codes)]
            where chosen.count < limit {
                let candidates = index.prefixRange(list, needle).lazy.map { index.entry(list, $0) }
                take(best(candidates.filter { !seen.contains($0) }, count: limit - chosen.count, index), rank: rank)
            }
            return chosen.map {
                Hit(
                    rank: $0.rank, fullName: index.text($0.entry, field: 1),
                    match: Match(id: index.guestId($0.entry), name: index.name($0.entry)))
            }
        }
    }

    /// The first `count` entries by name (then id), without sorting them all. A candidate is
    /// compared with the last of the best so far, whose name is found once per change: a short
    /// prefix has tens of thousands of candidates, and most of them go no further.
    private func best(_ candidates: some Sequence<Int>, count: Int, _ index: RosterIndexLayout.Reader) -> [Int] {
        let before = index.entryBefore
        var top: [Int] = []
        var members = Set<Int>()
        var last = (entry: 0, name: RosterIndexLayout.Reader.Text(start: 0, length: 0))
        for candidate in candidates {
            if top.count < count {
                guard members.insert(candidate).inserted else { continue }
                top.append(candidate)
                if top.count == count {
                    top.sort(by: before)
                    last = (top[count - 1], index.field(top[count - 1], 1))
                }
                continue
            }
            let order = index.compare(index.field(candidate, 1), last.name)
            guard order < 0 || (order == 0 && before(candidate, last.entry)), !members.contains(candidate) else {
                continue
            }
            members.remove(top.removeLast())
            let at = top.firstIndex { before(candidate, $0) } ?? top.count
            top.insert(candidate, at: at)
            members.insert(candidate)
            last = (top[count - 1], index.field(top[count - 1], 1))
        }
        return top.count < count ? top.sorted(by: before) : top
    }

    /// Lower-cased, without diacritics; letters that do not decompose are spelled out; composed
    /// (NFC), so that comparing the bytes of two folded keys orders them as their text.
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
        return output.precomposedStringWithCanonicalMapping
    }
}
