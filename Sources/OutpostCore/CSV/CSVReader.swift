/// A record of a CSV document, or why the record starting at `line` could not be read.
public struct CSVRecord: Sendable, Hashable {
    /// The physical line (1-based) where the record starts.
    public var line: Int
    public var fields: Result<[String], CSVError>

    public init(line: Int, fields: Result<[String], CSVError>) {
        self.line = line
        self.fields = fields
    }
}

/// A malformed CSV record.
public enum CSVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `"` inside an unquoted field.
    case quoteInUnquotedField
    /// Text between a closing quote and the next comma or line end.
    case textAfterClosingQuote
    /// A quoted field still open at the end of the document.
    case unterminatedQuote
    /// Bytes that are not UTF-8.
    case invalidUTF8

    public var description: String {
        switch self {
        case .quoteInUnquotedField: "a quote character inside an unquoted field"
        case .textAfterClosingQuote: "text after a closing quote"
        case .unterminatedQuote: "a quoted field that is never closed"
        case .invalidUTF8: "text that is not valid UTF-8"
        }
    }
}

/// Reads RFC 4180 CSV: quoted fields with `""` escapes, commas and line breaks inside quotes,
/// CRLF, LF or CR line ends, an optional UTF-8 byte-order mark; blank lines are skipped.
///
/// Written here rather than taken from SwiftCSV or CSV.swift because import needs what neither
/// gives: every record tagged with its physical starting line, and a malformed record reported
/// and stepped over (parsing resumes on the next line) instead of ending the whole document.
public enum CSVReader {
    /// Every record of the document, good or bad, in order.
    public static func records(_ data: some Collection<UInt8>) -> [CSVRecord] {
        var bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var parser = CSVParser()
        parser.append(bytes)
        return parser.drain(final: true)
    }
}
