import Foundation
import OutpostCore
import OutpostShell

/// The built index as bytes, so a launch opens it instead of unsealing, folding and sorting the
/// whole roster again (cold open at 100,000 guests was 800 ms, most of it that work).
///
/// Layout (``ByteLayout``): the tag `0x01`; the entry count; per entry its id, name, folded
/// name, folded e-mail, folded code and its folded name words (a count, then each); then the
/// four sorted key lists as entry numbers (full names, e-mails and codes: one per entry; later
/// name words: a count, then pairs of entry and word number). Keys are rebuilt from the
/// entries' strings in the stored order: nothing is folded or sorted on open.
///
/// The store seals the bytes with the roster version they were built from; a snapshot whose
/// version is not the roster's is not opened (``ModuleStore/rosterIndexSnapshot(eventId:)``).
extension RosterIndex {
    package static let snapshotTag: UInt8 = 0x01

    package func snapshot() -> [UInt8] {
        var bytes: [UInt8] = [Self.snapshotTag]
        bytes.reserveCapacity(entries.count * 96)
        ByteLayout.append(UInt(entries.count), to: &bytes)
        for entry in entries {
            for text in [entry.id.wire, entry.name, entry.fullName, entry.email, entry.code] {
                ByteLayout.append(text, to: &bytes)
            }
            ByteLayout.append(UInt(entry.nameWords.count), to: &bytes)
            for word in entry.nameWords { ByteLayout.append(word, to: &bytes) }
        }
        for keys in [fullNames, emails, codes] {
            for key in keys { ByteLayout.append(UInt(key.entry), to: &bytes) }
        }
        ByteLayout.append(UInt(words.count), to: &bytes)
        for key in words {
            ByteLayout.append(UInt(key.entry), to: &bytes)
            // The word's number in its entry; equal words are interchangeable keys.
            let number = entries[key.entry].nameWords.firstIndex(of: key.text) ?? 0
            ByteLayout.append(UInt(number), to: &bytes)
        }
        return bytes
    }

    /// Reads ``snapshot()``'s bytes; damaged or foreign bytes throw ``ByteLayout/Failure``.
    package init(snapshot data: Data) throws {
        let parts = try data.withUnsafeBytes { raw in
            var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self), offset: 0)
            guard try reader.byte() == Self.snapshotTag else { throw ByteLayout.Failure.malformed("tag") }
            let count = try reader.integer()
            // Each entry takes at least six bytes: a count larger than that is damage, not a roster.
            guard count <= raw.count / 6 else { throw ByteLayout.Failure.malformed("count") }
            var entries: [Entry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                guard let id = GuestID(wire: try reader.string()) else { throw ByteLayout.Failure.malformed("id") }
                let name = try reader.string()
                let fullName = try reader.string()
                let email = try reader.string()
                let code = try reader.string()
                let wordCount = try reader.integer(below: raw.count, "word count")
                var words: [String] = []
                words.reserveCapacity(wordCount)
                for _ in 0..<wordCount { words.append(try reader.string()) }
                entries.append(
                    Entry(id: id, name: name, fullName: fullName, nameWords: words, email: email, code: code))
            }
            func keys(_ text: (Entry) -> String) throws -> [Key] {
                var keys: [Key] = []
                keys.reserveCapacity(count)
                for _ in 0..<count {
                    let entry = try reader.integer(below: count, "key")
                    keys.append(Key(text: text(entries[entry]), entry: entry))
                }
                return keys
            }
            let fullNames = try keys(\.fullName)
            let emails = try keys(\.email)
            let codes = try keys(\.code)
            let wordKeys = try reader.integer(below: raw.count, "word keys")
            var words: [Key] = []
            words.reserveCapacity(wordKeys)
            for _ in 0..<wordKeys {
                let entry = try reader.integer(below: count, "word key")
                let number = try reader.integer(below: entries[entry].nameWords.count, "word number")
                words.append(Key(text: entries[entry].nameWords[number], entry: entry))
            }
            guard reader.isAtEnd else { throw ByteLayout.Failure.malformed("trailing bytes") }
            return (entries, fullNames, words, emails, codes)
        }
        self.init(entries: parts.0, fullNames: parts.1, words: parts.2, emails: parts.3, codes: parts.4)
    }
}
