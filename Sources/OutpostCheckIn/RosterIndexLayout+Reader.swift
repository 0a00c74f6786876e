import Foundation
import OutpostCore
import OutpostShell

extension RosterIndexLayout {
    /// The buffer's bytes while ``RosterIndexLayout/read(_:)`` lends them: its sections found by
    /// arithmetic, its texts compared as bytes where they lie.
    package struct Reader {
        let raw: UnsafeRawBufferPointer
        let count: Int
        let wordKeys: Int

        /// Where a text lies in the buffer.
        struct Text {
            var start: Int
            var length: Int
        }

        var recordsAt: Int { RosterIndexLayout.headerSize }
        var listsAt: Int { recordsAt + 4 * count }
        var wordsAt: Int { listsAt + 12 * count }
        var poolAt: Int { wordsAt + 8 * wordKeys }

        func integer(_ at: Int) -> Int { Int(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian) }
        func short(_ at: Int) -> Int { Int(raw.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian) }

        func record(_ entry: Int) -> Int { poolAt + integer(recordsAt + 4 * entry) }

        /// Text `field` of an entry's record: 0 the name, 1 the folded name, 2 the e-mail, 3 the code.
        func field(_ entry: Int, _ field: Int) -> Text {
            let record = record(entry)
            var start = record + RosterIndexLayout.recordHeaderSize
            for earlier in 0..<field { start += short(record + 16 + 2 * earlier) }
            return Text(start: start, length: short(record + 16 + 2 * field))
        }

        func size(_ list: List) -> Int { list == .words ? wordKeys : count }

        /// The entry of a list's key at `position`.
        func entry(_ list: List, _ position: Int) -> Int {
            list == .words ? integer(wordsAt + 8 * position) : integer(listsAt + 4 * (count * list.rawValue + position))
        }

        /// The text of a list's key at `position`.
        func key(_ list: List, _ position: Int) -> Text {
            guard list == .words else { return field(entry(list, position), list.field) }
            let place = integer(wordsAt + 8 * position + 4)
            let name = field(integer(wordsAt + 8 * position), 1)
            return Text(start: name.start + place >> 16, length: place & 0xFFFF)
        }

        func guestId(_ entry: Int) -> GuestID {
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let record = record(entry)
            withUnsafeMutableBytes(of: &uuid) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[record..<record + 16]))
            }
            return GuestID(UUID(uuid: uuid))
        }

        func text(_ entry: Int, field number: Int) -> String {
            let text = field(entry, number)
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: raw[text.start..<text.start + text.length]), as: UTF8.self)
        }

        func name(_ entry: Int) -> String { text(entry, field: 0) }

        /// Byte order of two texts of the buffer, or of one and `other`: negative, zero or positive.
        func compare(_ text: Text, _ other: UnsafeRawBufferPointer) -> Int {
            let common = min(text.length, other.count)
            if common > 0 {
                let order = memcmp(raw.baseAddress! + text.start, other.baseAddress!, common)
                if order != 0 { return Int(order) }
            }
            return text.length - other.count
        }

        func compare(_ text: Text, _ other: Text) -> Int {
            compare(text, UnsafeRawBufferPointer(rebasing: raw[other.start..<other.start + other.length]))
        }

        /// Entry `a` before entry `b`: by folded name, then by id (the order of its text).
        var entryBefore: (Int, Int) -> Bool {
            { a, b in
                let order = compare(field(a, 1), field(b, 1))
                if order != 0 { return order < 0 }
                let first = record(a)
                let second = record(b)
                return compare(Text(start: first, length: 16), Text(start: second, length: 16)) < 0
            }
        }

        func key(_ list: List, _ position: Int, equals needle: [UInt8]) -> Bool {
            needle.withUnsafeBytes { compare(key(list, position), $0) == 0 }
        }

        /// The contiguous range of a list's keys starting with `needle` (two binary searches).
        func prefixRange(_ list: List, _ needle: [UInt8]) -> Range<Int> {
            needle.withUnsafeBytes { needle in
                var low = 0
                var high = size(list)
                while low < high {
                    let middle = (low + high) / 2
                    if compare(key(list, middle), needle) < 0 { low = middle + 1 } else { high = middle }
                }
                // Keys with the prefix are contiguous from `low`: binary search for where they stop.
                var end = low
                high = size(list)
                while end < high {
                    let middle = (end + high) / 2
                    let text = key(list, middle)
                    let prefixed =
                        text.length >= needle.count
                        && compare(Text(start: text.start, length: needle.count), needle) == 0
                    if prefixed { end = middle + 1 } else { high = middle }
                }
                return low..<end
            }
        }

        /// A list's entries in its order (the words' as pairs of entry and place), for the build.
        func sorted(_ list: List, words: [UInt64]) -> [UInt32] {
            let before = entryBefore
            guard list == .words else {
                var order = Array(0..<UInt32(count))
                order.sort { a, b in
                    let order = compare(field(Int(a), list.field), field(Int(b), list.field))
                    return order != 0 ? order < 0 : before(Int(a), Int(b))
                }
                return order
            }
            func word(_ packed: UInt64) -> Text {
                let name = field(Int(packed >> 32), 1)
                return Text(start: name.start + Int(packed >> 16 & 0xFFFF), length: Int(packed & 0xFFFF))
            }
            let order = words.sorted { a, b in
                let order = compare(word(a), word(b))
                return order != 0 ? order < 0 : before(Int(a >> 32), Int(b >> 32))
            }
            var pairs: [UInt32] = []
            pairs.reserveCapacity(2 * order.count)
            for packed in order { pairs += [UInt32(packed >> 32), UInt32(packed & 0xFFFF_FFFF)] }
            return pairs
        }

        /// Every record inside the pool, every key's entry inside the entries, every word inside
        /// its name: what a search may read, checked once.
        func check() throws {
            let poolLength = raw.count - poolAt
            for entry in 0..<count {
                let offset = integer(recordsAt + 4 * entry)
                guard offset + RosterIndexLayout.recordHeaderSize <= poolLength else {
                    throw ByteLayout.Failure.malformed("record")
                }
                let texts = (0..<4).reduce(0) { $0 + short(poolAt + offset + 16 + 2 * $1) }
                guard offset + RosterIndexLayout.recordHeaderSize + texts <= poolLength else {
                    throw ByteLayout.Failure.malformed("record")
                }
            }
            for list in [List.fullNames, .emails, .codes] {
                for position in 0..<count where entry(list, position) >= count {
                    throw ByteLayout.Failure.malformed("key")
                }
            }
            for position in 0..<wordKeys {
                guard entry(.words, position) < count else { throw ByteLayout.Failure.malformed("word key") }
                let place = integer(wordsAt + 8 * position + 4)
                guard place >> 16 + place & 0xFFFF <= field(entry(.words, position), 1).length else {
                    throw ByteLayout.Failure.malformed("word")
                }
            }
        }
    }
}
