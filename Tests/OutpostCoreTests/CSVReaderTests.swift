import OutpostCore
import Testing

@Suite("CSV reader (RFC 4180)")
struct CSVReaderTests {
    func read(_ text: String) -> [CSVRecord] { CSVReader.records(Array(text.utf8)) }

    @Test("quotes, commas, escaped quotes, CRLF, BOM, line breaks in fields and blank lines")
    func wellFormed() {
        let records = CSVReader.records(
            [0xEF, 0xBB, 0xBF] + Array("a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n\r\n\"two\nlines\",Å\n\nlast,\r\n".utf8))
        #expect(records.map(\.line) == [1, 2, 4, 7])
        #expect(records[0].fields == .success(["a", "b"]))
        #expect(records[1].fields == .success(["x, y", "say \"hi\""]))
        #expect(records[2].fields == .success(["two\nlines", "Å"]))
        #expect(records[3].fields == .success(["last", ""]))
    }

    @Test("a bad record is reported by its line and the next line is read")
    func recovery() {
        let records = read("h1,h2\nok,1\nba\"d,2\n\"open,3\nfine,4\n\"closed\"x,5\nend,6")
        #expect(records.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
        #expect(records[2].fields == .failure(.quoteInUnquotedField))
        #expect(
            records[3].fields == .failure(.textAfterClosingQuote) || records[3].fields == .failure(.unterminatedQuote))
        #expect(records[4].fields == .success(["fine", "4"]))
        #expect(records[5].fields == .failure(.textAfterClosingQuote))
        #expect(records[6].fields == .success(["end", "6"]))
    }

    @Test("an unterminated quote at the end and invalid UTF-8 are errors, not crashes")
    func endErrors() {
        #expect(read("a\n\"never closed").last?.fields == .failure(.unterminatedQuote))
        #expect(CSVReader.records([0x61, 0x2C, 0xFF, 0x0A]).first?.fields == .failure(.invalidUTF8))
        #expect(read("").isEmpty)
        #expect(read("\r\n\n\r").isEmpty)
    }
}

@Suite("Base32")
struct Base32Tests {
    @Test("RFC 4648 test vectors without padding, strict decoding")
    func vectors() {
        let pairs = [
            ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI"),
        ]
        for (plain, encoded) in pairs {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base32.decode("MZ") == nil)  // non-zero unused bits
        #expect(Base32.decode("mzxw6") == nil)
        #expect(Base32.decode("MZXW6===") == nil)
        #expect(Base32.decode("M") == nil)
    }
}
