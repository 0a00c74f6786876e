/// ``CSVReader`` over a document that arrives in pieces (an upload read as it comes): bytes go
/// in, whole records come out as soon as they are complete, numbered by their physical line in
/// the whole document. Only the unfinished tail is held.
///
/// A piece is cut after the last line end that lies outside quotes (an even number of `"`
/// since the cut before; `""` escapes count twice, so they never flip it), so a quoted field
/// with line breaks is never split. A CR at the very end waits for the next byte (it may be a
/// CRLF). For a well-formed document the records are exactly ``CSVReader/records(_:)``'s; a
/// malformed one is reported on its line either way.
public struct CSVStreamReader: Sendable {
    private var pending: [UInt8] = []
    /// Physical lines before `pending`.
    private var linesBefore = 0
    /// Whether the document's first bytes (and a byte-order mark there) have been seen.
    private var started = false
    /// How much of `pending` has been scanned for line ends, and whether a quote is open there.
    private var scanned = 0
    private var quoted = false

    public init() {}

    /// Bytes held while waiting for the end of their record.
    public var heldBytes: Int { pending.count }

    /// Adds bytes; returns the records they completed.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [CSVRecord] {
        pending.append(contentsOf: bytes)
        if !started {
            guard pending.count >= 3 || !pending.allSatisfy({ [0xEF, 0xBB, 0xBF].contains($0) }) else { return [] }
            if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
            started = true
        }
        guard let cut = lastCut() else { return [] }
        return take(upTo: cut)
    }

    /// The document ended: the records of what is left.
    public mutating func finish() -> [CSVRecord] {
        started = true
        return take(upTo: pending.count)
    }

    private mutating func take(upTo cut: Int) -> [CSVRecord] {
        guard cut > 0 else { return [] }
        let piece = pending[..<cut]
        let records = CSVReader.records(piece).map {
            CSVRecord(line: $0.line + linesBefore, fields: $0.fields)
        }
        linesBefore += Self.lineEnds(in: piece)
        pending.removeFirst(cut)
        scanned = max(0, scanned - cut)
        return records
    }

    /// The index after the last line end outside quotes, if any. Scanning resumes where the
    /// last feed stopped, so a long quoted field arriving in many pieces is read once.
    private mutating func lastCut() -> Int? {
        var cut: Int?
        while scanned < pending.count {
            let byte = pending[scanned]
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if !quoted, byte == UInt8(ascii: "\n") {
                cut = scanned + 1
            } else if !quoted, byte == UInt8(ascii: "\r") {
                guard scanned + 1 < pending.count else { break }  // a CRLF's LF may be next
                if pending[scanned + 1] == UInt8(ascii: "\n") { scanned += 1 }
                cut = scanned + 1
            }
            scanned += 1
        }
        return cut
    }

    /// Line ends (LF, CR, CRLF as one) in `bytes`, as ``CSVReader`` counts physical lines.
    private static func lineEnds(in bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") {
                count += 1
            } else if bytes[index] == UInt8(ascii: "\r") {
                count += 1
                if index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
            }
            index += 1
        }
        return count
    }
}
