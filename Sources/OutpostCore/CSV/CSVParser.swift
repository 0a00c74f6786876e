/// The one CSV state machine behind ``CSVReader`` (a whole document) and ``CSVStreamReader``
/// (a document arriving in pieces): bytes are appended, and ``drain(final:)`` returns every
/// record they complete. A record that may still change with more bytes (an open quote, a `"`
/// that may be the first of `""`, a CR that may be the first of CRLF, no line end yet) waits,
/// and its scan resumes where it stopped, so a long record arriving in many pieces is read once.
/// Because both readers run this, their records, errors and line numbers are the same however
/// the bytes are cut, for malformed documents too.
struct CSVParser: Sendable {
    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    /// Bytes from the start of the current record on (earlier ones are dropped as records end).
    private var bytes: [UInt8] = []
    /// Where the current record starts in `bytes`, and its physical line.
    private var position = 0
    private var line = 1
    /// The current record's scan, when one has started.
    private var scan: RecordScan?
    /// A record failed; parsing resumes after the line end following its first line.
    private var failure: CSVError?
    private var searchFrom = 0

    /// Bytes held for records not yet complete.
    var heldBytes: Int { bytes.count - position }

    mutating func append(_ more: some Collection<UInt8>) {
        if position > 0, position >= bytes.count / 2 {
            bytes.removeFirst(position)
            scan?.index -= position
            searchFrom -= position
            position = 0
        }
        bytes.append(contentsOf: more)
    }

    /// The records the bytes so far complete; with `final`, the document ended and everything
    /// left is read.
    mutating func drain(final: Bool) -> [CSVRecord] {
        var records: [CSVRecord] = []
        while position < bytes.count {
            if let error = failure {
                guard let next = lineEnd(from: max(position, searchFrom), final: final) else {
                    if final {
                        records.append(CSVRecord(line: line, fields: .failure(error)))
                        position = bytes.count
                        failure = nil
                    } else {
                        searchFrom = max(position, bytes.count - 1)  // a last CR is looked at again
                    }
                    break
                }
                records.append(CSVRecord(line: line, fields: .failure(error)))
                failure = nil
                position = next
                line += 1
                continue
            }
            if scan == nil {
                // A blank line is skipped.
                let byte = bytes[position]
                if byte == Self.lf || byte == Self.cr {
                    guard let next = lineEnd(from: position, final: final) else { break }
                    position = next
                    line += 1
                    continue
                }
                scan = RecordScan(index: position)
            }
            switch scan!.advance(bytes, final: final) {
            case .needMore:
                return records
            case .complete(let fields, let end, let lines):
                records.append(CSVRecord(line: line, fields: Self.decode(fields)))
                scan = nil
                position = end
                line += lines
            case .failed(let error):
                scan = nil
                failure = error
                searchFrom = position
            }
        }
        return records
    }

    /// The index after the first line end at or after `start`; nil when none is in the bytes
    /// yet (or a CR is the last byte and an LF may follow).
    private func lineEnd(from start: Int, final: Bool) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == Self.lf { return index + 1 }
            if bytes[index] == Self.cr {
                if index + 1 < bytes.count { return bytes[index + 1] == Self.lf ? index + 2 : index + 1 }
                return final ? index + 1 : nil
            }
            index += 1
        }
        return nil
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

    /// One record's scan, resumable: what it has read so far and where it stopped.
    private struct RecordScan: Sendable {
        enum Outcome {
            case complete(fields: [[UInt8]], end: Int, lines: Int)
            case failed(CSVError)
            case needMore
        }

        var index: Int
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var lines = 0
        var quoted = false
        var afterClosingQuote = false
        var fieldStart = true

        init(index: Int) { self.index = index }

        mutating func advance(_ bytes: [UInt8], final: Bool) -> Outcome {
            while index < bytes.count {
                let byte = bytes[index]
                let hasNext = index + 1 < bytes.count
                if quoted {
                    if byte == quote {
                        guard hasNext || final else { return .needMore }  // the first of `""`?
                        if hasNext, bytes[index + 1] == quote {
                            field.append(quote)
                            index += 2
                            continue
                        }
                        quoted = false
                        afterClosingQuote = true
                        index += 1
                        continue
                    }
                    if byte == cr, !hasNext, !final { return .needMore }  // the first of CRLF?
                    if byte == lf || (byte == cr && !(hasNext && bytes[index + 1] == lf)) { lines += 1 }
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
                    if byte == cr, !hasNext, !final { return .needMore }
                    fields.append(field)
                    let after = (byte == cr && hasNext && bytes[index + 1] == lf) ? index + 2 : index + 1
                    return .complete(fields: fields, end: after, lines: lines + 1)
                case quote:
                    guard fieldStart else {
                        return .failed(afterClosingQuote ? .textAfterClosingQuote : .quoteInUnquotedField)
                    }
                    quoted = true
                    fieldStart = false
                    index += 1
                default:
                    if afterClosingQuote { return .failed(.textAfterClosingQuote) }
                    field.append(byte)
                    fieldStart = false
                    index += 1
                }
            }
            guard final else { return .needMore }
            if quoted { return .failed(.unterminatedQuote) }
            fields.append(field)
            return .complete(fields: fields, end: index, lines: lines)
        }

        private var quote: UInt8 { CSVParser.quote }
        private var comma: UInt8 { CSVParser.comma }
        private var cr: UInt8 { CSVParser.cr }
        private var lf: UInt8 { CSVParser.lf }
    }
}
