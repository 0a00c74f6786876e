import OutpostCore
import Testing

/// The upload is parsed as it arrives; wherever the pieces are cut, the records are the same.
@Suite("CSV stream reader")
struct CSVStreamReaderTests {
    /// A well-formed document with every hard case: quoted commas, quoted line breaks (CRLF, LF,
    /// CR), escaped quotes, blank lines, all three line ends, and a byte-order mark.
    /// With `malformed`, also stray quotes, text after a closing quote, quotes that never close
    /// and bytes that are not UTF-8.
    static func document(_ random: inout SeededRandom, malformed: Bool = false) -> [UInt8] {
        let ends = ["\r\n", "\n", "\r"]
        var fields = [
            "plain", "\"quoted, comma\"", "\"two\r\nlines\"", "\"lf\nline\"", "\"cr\rline\"", "\"say \"\"hi\"\"\"", "",
            "Åse Zoë 李雷", "\"\"",
        ]
        if malformed { fields += ["a\"b", "\"closed\"after", "\"never\r\nclosed", "\"x\"\r\n\"y", "\u{FFFD}"] }
        var text = random.next() % 2 == 0 ? "\u{FEFF}" : ""
        for _ in 0..<Int(random.next() % 40 + 1) {
            let count = Int(random.next() % 4 + 1)
            text += (0..<count).map { _ in fields[Int(random.next() % UInt64(fields.count))] }.joined(separator: ",")
            text += ends[Int(random.next() % UInt64(ends.count))]
            if random.next() % 7 == 0 { text += "\n" }  // a blank line
        }
        // U+FFFD stands for a byte that is not UTF-8.
        return Array(text.utf8).replacingFFFD()
    }

    @Test(
        "csv-stream-equals-whole: any cutting of a document, well-formed or not, gives CSVReader's records, errors and lines",
        arguments: [false, true])
    func streamEqualsWhole(malformed: Bool) {
        var random = SeededRandom(seed: malformed ? 0xBAD : 0xC5F)
        for _ in 0..<400 {
            let bytes = Self.document(&random, malformed: malformed)
            let whole = CSVReader.records(bytes)
            var reader = CSVStreamReader()
            var streamed: [CSVRecord] = []
            var position = 0
            while position < bytes.count {
                let size = Int(random.next() % 9) + (random.next() % 5 == 0 ? 0 : 1)
                let end = min(bytes.count, position + size)
                streamed += reader.feed(bytes[position..<end])
                position = end
            }
            streamed += reader.finish()
            #expect(streamed == whole, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            if streamed != whole { return }
        }
    }

    @Test("csv-stream-holds-little: records leave as soon as they end; only the unfinished one is held")
    func holdsOnlyTheTail() {
        var reader = CSVStreamReader()
        #expect(reader.feed(Array("name,email\r\nAda,ada@example.org\r\nBo".utf8)).count == 2)
        #expect(reader.heldBytes == 2)
        // A quoted line break does not end the record.
        #expect(reader.feed(Array("b,\"x\r\n".utf8)).isEmpty)
        let last = reader.feed(Array("y\"\r\n".utf8))
        #expect(last == [CSVRecord(line: 3, fields: .success(["Bob", "x\r\ny"]))])
        #expect(reader.heldBytes == 0)
        // A malformed record is reported on its line.
        let bad = reader.feed(Array("a\"b,c\nfine,row\n".utf8)) + reader.finish()
        #expect(bad.first?.line == 5 && bad.first?.fields == .failure(.quoteInUnquotedField))
    }
}

extension Array where Element == UInt8 {
    /// Replaces each U+FFFD (EF BF BD) with the single byte FF, which is never UTF-8.
    fileprivate func replacingFFFD() -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < count {
            if index + 2 < count, self[index] == 0xEF, self[index + 1] == 0xBF, self[index + 2] == 0xBD {
                out.append(0xFF)
                index += 3
            } else {
                out.append(self[index])
                index += 1
            }
        }
        return out
    }
}
