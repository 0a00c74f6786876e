import OutpostCore
import Testing

@Suite("CSV writer")
struct CSVWriterTests {
    @Test("csv-formula-safe: cells starting with = + - @ are neutralised; quoting is RFC 4180; CSVReader reads it back")
    func formulaSafe() throws {
        let rows = [
            ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "plain"],
            ["a,b", "say \"hi\"", "two\nlines", "Ærø", ""],
        ]
        let text = CSVWriter.document(header: ["A", "B", "C", "D", "E"], rows: rows)
        #expect(text.hasPrefix("A,B,C,D,E\r\n"))
        #expect(text.contains("\"'=HYPERLINK(\"\"http://x\"\")\",'+1,'-2,'@SUM(A1),plain\r\n"))
        #expect(text.contains("\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",Ærø,\r\n"))
        let parsed = try CSVReader.records(Array(text.utf8)).map { try $0.fields.get() }
        #expect(parsed.count == 3)
        #expect(parsed[2] == rows[1])
        #expect(parsed[1][0] == "'=HYPERLINK(\"http://x\")")
    }
}
