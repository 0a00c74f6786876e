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
    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    /// Every record of the document, good or bad, in order.
    public static func records(_ data: some Collection<UInt8>) -> [CSVRecord] {
        var bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var records: [CSVRecord] = []
        var position = 0
        var line = 1
        while position < bytes.count {
            // Skip blank lines.
            if let next = lineEnd(bytes, position), next.start == position {
                position = next.after
                line += 1
                continue
            }
            let startLine = line
            switch readRecord(bytes, from: position) {
            case .success(let (fields, end, linesConsumed)):
                records.append(CSVRecord(line: startLine, fields: decode(fields)))
                position = end
                line += linesConsumed
            case .failure(let error):
                records.append(CSVRecord(line: startLine, fields: .failure(error)))
                // Resume at the line after the one the bad record started on.
                if let next = lineEnd(bytes, position) {
                    position = next.after
                    line += 1
                } else {
                    position = bytes.count
                }
            }
        }
        return records
    }

    /// Finds the line end at or after `position`: where it starts and the index after it.
    private static func lineEnd(_ bytes: [UInt8], _ position: Int) -> (start: Int, after: Int)? {
        var index = position
        while index < bytes.count {
            if bytes[index] == lf { return (index, index + 1) }
            if bytes[index] == cr {
                return (index, index + 1 < bytes.count && bytes[index + 1] == lf ? index + 2 : index + 1)
            }
            index += 1
        }
        return nil
    }

    private static func readRecord(
        _ bytes: [UInt8], from start: Int
    ) -> Result<(fields: [[UInt8]], end: Int, lines: Int), CSVError> {
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var index = start
        var lines = 0
        var quoted = false
        var afterClosingQuote = false
        var fieldStart = true
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == quote {
                    if index + 1 < bytes.count, bytes[index + 1] == quote {
                        field.append(quote)
                        index += 2
                        continue
                    }
                    quoted = false
                    afterClosingQuote = true
                    index += 1
                    continue
                }
                if byte == lf || (byte == cr && !(index + 1 < bytes.count && bytes[index + 1] == lf)) {
                    lines += 1
                }
                field.append(byte)
                index += 1
                continue
            }
            switch byte {
            case comma:
                fields.append(field)
                field = []
                fieldStart = true
                afterClosingQuote = false
                index += 1
            case cr, lf:
                fields.append(field)
                let after = (byte == cr && index + 1 < bytes.count && bytes[index + 1] == lf) ? index + 2 : index + 1
                return .success((fields, after, lines + 1))
            case quote:
                guard fieldStart else {
                    return .failure(afterClosingQuote ? .textAfterClosingQuote : .quoteInUnquotedField)
                }
                quoted = true
                fieldStart = false
                index += 1
            default:
                if afterClosingQuote { return .failure(.textAfterClosingQuote) }
                field.append(byte)
                fieldStart = false
                index += 1
            }
        }
        if quoted { return .failure(.unterminatedQuote) }
        fields.append(field)
        return .success((fields, index, lines))
    }

    private static func decode(_ fields: [[UInt8]]) -> Result<[String], CSVError> {
        var strings: [String] = []
        strings.reserveCapacity(fields.count)
        for field in fields {
            guard let text = String(validating: field, as: UTF8.self) else { return .failure(.invalidUTF8) }
            strings.append(text)
        }
        return .success(strings)
    }
}
