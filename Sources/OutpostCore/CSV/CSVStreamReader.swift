/// ``CSVReader`` over a document that arrives in pieces (an upload read as it comes): bytes go
/// in, whole records come out as soon as they are complete, numbered by their physical line in
/// the whole document. Only the unfinished record is held.
///
/// Both readers run one state machine (``CSVParser``), so however the document is cut the
/// records are exactly ``CSVReader/records(_:)``'s, malformed ones and their lines included:
/// the same file uploaded twice gets the same error report whatever the network did to it.
public struct CSVStreamReader: Sendable {
    private var parser = CSVParser()
    /// Bytes of the document's start, until it is known whether they are a byte-order mark.
    private var head: [UInt8] = []
    private var started = false

    public init() {}

    /// Bytes held while waiting for the end of their record.
    public var heldBytes: Int { head.count + parser.heldBytes }

    /// Adds bytes; returns the records they completed.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [CSVRecord] {
        if !started {
            head.append(contentsOf: bytes)
            guard head.count >= 3 || !head.allSatisfy({ [0xEF, 0xBB, 0xBF].contains($0) }) else { return [] }
            startDocument()
        } else {
            parser.append(bytes)
        }
        return parser.drain(final: false)
    }

    /// The document ended: the records of what is left.
    public mutating func finish() -> [CSVRecord] {
        if !started { startDocument() }
        return parser.drain(final: true)
    }

    private mutating func startDocument() {
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        parser.append(head)
        head = []
        started = true
    }
}
