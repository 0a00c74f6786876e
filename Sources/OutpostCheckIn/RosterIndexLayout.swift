import Foundation
import OutpostCore
import OutpostShell

/// The search index's bytes: what is searched in memory and what the sealed snapshot holds, the
/// same buffer. Integers are little-endian `UInt32`; every offset is checked once when bytes are
/// opened (``init(bytes:)``), so a search never reads outside them.
///
/// - header: the tag `0x02`, the entry count, the count of word keys, the pool's length;
/// - records: each entry's offset in the pool;
/// - full names, e-mails, codes: the entry numbers, each list sorted by its key (then by full
///   name, then by id);
/// - words: pairs of an entry number and the place of a later name word in its full name (start
///   in the high 16 bits, length in the low 16), sorted by the word (then full name, then id);
/// - pool: per entry its id's 16 bytes, the byte lengths of its name, folded name, folded e-mail
///   and folded code (`UInt16` each), then those four texts in UTF-8.
///
/// A text longer than 65,535 bytes is cut at a character boundary below that (a search key
/// of that length is no one's name).
package struct RosterIndexLayout: Sendable {
    package static let tag: UInt8 = 0x02
    static let headerSize = 13
    static let recordHeaderSize = 24
    static let maximumText = Int(UInt16.max)

    /// The key lists, in the order the buffer holds them.
    package enum List: Int, Sendable, CaseIterable {
        case fullNames = 0
        case emails = 1
        case codes = 2
        case words = 3

        /// The record's text this list sorts by (the words sort by a part of the full name).
        var field: Int {
            switch self {
            case .fullNames, .words: 1
            case .emails: 2
            case .codes: 3
            }
        }
    }

    package private(set) var bytes: [UInt8]
    package let count: Int
    let wordKeys: Int

    /// Guests' records as the store opens them, a part of the roster per core: the pool's
    /// bytes and where each record starts, and the later words of each full name.
    package struct Segment: Sendable {
        var pool: [UInt8] = []
        var records: [UInt32] = []
        /// Per later word: the entry's number in this segment, the word's start and length.
        var words: [(entry: UInt32, start: UInt16, length: UInt16)] = []

        package init() {}

        package mutating func append(_ entry: RosterIndex.Entry) {
            let number = UInt32(records.count)
            records.append(UInt32(pool.count))
            withUnsafeBytes(of: entry.id.uuid.uuid) { pool.append(contentsOf: $0) }
            let texts = (entry.name.utf8, entry.fullName.utf8, entry.email.utf8, entry.code.utf8)
            let lengths = (
                RosterIndexLayout.cut(texts.0), RosterIndexLayout.cut(texts.1), RosterIndexLayout.cut(texts.2),
                RosterIndexLayout.cut(texts.3)
            )
            for length in [lengths.0, lengths.1, lengths.2, lengths.3] {
                RosterIndexLayout.append(UInt16(length), to: &pool)
            }
            pool.append(contentsOf: texts.0.prefix(lengths.0))
            pool.append(contentsOf: texts.1.prefix(lengths.1))
            pool.append(contentsOf: texts.2.prefix(lengths.2))
            pool.append(contentsOf: texts.3.prefix(lengths.3))
            // The later words of the folded name, as its split on what is not a letter or a
            // digit gives them.
            var offset = 0
            var start: Int?
            var seenWords = 0
            func ended(at end: Int) {
                guard let begun = start else { return }
                start = nil
                seenWords += 1
                guard seenWords > 1, end <= lengths.1 else { return }
                words.append((number, UInt16(begun), UInt16(end - begun)))
            }
            // One step per character: whether it is a letter or a digit, and its UTF-8 length.
            func step(isWord: Bool, width: Int) {
                if isWord {
                    if start == nil { start = offset }
                } else {
                    ended(at: offset)
                }
                offset += width
            }
            if entry.fullName.utf8.allSatisfy({ $0 < 0x80 }) {
                // ASCII (most names): a letter or a digit by its byte, not by Unicode's tables,
                // which were a tenth of building the index.
                for byte in entry.fullName.utf8 {
                    step(
                        isWord: (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), width: 1)
                }
            } else {
                for character in entry.fullName {
                    step(isWord: character.isLetter || character.isNumber, width: character.utf8.count)
                }
            }
            ended(at: offset)
        }
    }

    /// The bytes of `text` kept: all of them, or those before a character boundary at or below
    /// ``maximumText``.
    static func cut(_ text: String.UTF8View) -> Int {
        guard text.count > maximumText else { return text.count }
        var end = maximumText
        while end > 0, text[text.index(text.startIndex, offsetBy: end)] & 0xC0 == 0x80 { end -= 1 }
        return end
    }

    static func append(_ value: UInt16, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The buffer of `entries`, in one segment.
    init(entries: [RosterIndex.Entry]) {
        var segment = Segment()
        for entry in entries { segment.append(entry) }
        self.init(segments: [segment])
    }

    /// Builds the buffer: the segments' records and pools one after another, then the four key
    /// lists sorted on every core.
    init(segments: [RosterIndexLayout.Segment]) {
        count = segments.reduce(0) { $0 + $1.records.count }
        wordKeys = segments.reduce(0) { $0 + $1.words.count }
        let poolLength = segments.reduce(0) { $0 + $1.pool.count }
        var bytes: [UInt8] = [Self.tag]
        bytes.reserveCapacity(Self.headerSize + 16 * count + 8 * wordKeys + poolLength)
        for value in [count, wordKeys, poolLength] { Self.append(UInt32(value), to: &bytes) }
        var base = 0
        for segment in segments {
            for record in segment.records { Self.append(UInt32(base) + record, to: &bytes) }
            base += segment.pool.count
        }
        // The lists' places, filled once they are sorted.
        let listsAt = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 12 * count + 8 * wordKeys))
        for segment in segments { bytes.append(contentsOf: segment.pool) }
        self.bytes = bytes
        var words: [UInt64] = []
        words.reserveCapacity(wordKeys)
        var first = 0
        for segment in segments {
            for word in segment.words {
                words.append(
                    UInt64(first + Int(word.entry)) << 32 | UInt64(word.start) << 16 | UInt64(word.length))
            }
            first += segment.records.count
        }
        let sorted: [[UInt32]]
        do {
            // Sorting reads the records already written; each list is sorted on a core of its
            // own. The sort throws nothing: the map's `try` is its signature's.
            let built = self
            let words = words
            sorted =
                (try? ParallelMap.map(List.allCases, minimumChunk: 1) { list in
                    built.read { $0.sorted(list, words: words) }
                }) ?? []
        }
        self.bytes.withUnsafeMutableBytes { raw in
            for (list, values) in zip(List.allCases, sorted) {
                var at = listsAt + 4 * count * list.rawValue
                for value in values {
                    raw.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt32.self)
                    at += 4
                }
            }
        }
    }

    /// Opens bytes made by ``bytes``: every offset and length checked against them.
    package init(bytes: [UInt8]) throws {
        guard bytes.count >= Self.headerSize else { throw ByteLayout.Failure.truncated }
        guard bytes[0] == Self.tag else { throw ByteLayout.Failure.malformed("tag") }
        func header(_ at: Int) -> Int {
            Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }.littleEndian)
        }
        let count = header(1)
        let wordKeys = header(5)
        let poolLength = header(9)
        let expected = Self.headerSize + 16 * count + 8 * wordKeys + poolLength
        guard bytes.count >= expected else { throw ByteLayout.Failure.truncated }
        guard bytes.count == expected else { throw ByteLayout.Failure.malformed("trailing bytes") }
        self.bytes = bytes
        self.count = count
        self.wordKeys = wordKeys
        try read { try $0.check() }
    }

    /// `body` over the buffer's bytes.
    package func read<Value>(_ body: (Reader) throws -> Value) rethrows -> Value {
        try bytes.withUnsafeBytes { raw in try body(Reader(raw: raw, count: count, wordKeys: wordKeys)) }
    }

    /// Every entry as it went in (their folded keys as stored).
    func entries() -> [RosterIndex.Entry] {
        read { index in
            (0..<count).map { entry in
                RosterIndex.Entry(
                    id: index.guestId(entry), name: index.name(entry), fullName: index.text(entry, field: 1),
                    email: index.text(entry, field: 2), code: index.text(entry, field: 3))
            }
        }
    }
}
