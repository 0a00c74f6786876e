import Foundation

extension UUID {
    /// The canonical wire form: lower-case, hyphenated.
    public var lowercasedString: String { uuidString.lowercased() }

    /// The sixteen bytes of the UUID in network order.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    /// Builds a UUID from exactly sixteen bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        let b = Array(bytes)
        self.init(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }

    /// Parses only the canonical lower-case form the API uses (upper case is accepted too).
    public init?(wire: String) {
        guard wire.utf8.count == 36 else { return nil }
        self.init(uuidString: wire)
    }
}
