import Foundation

extension UUID {
    /// The canonical wire form: lower-case, hyphenated; the same text as
    /// `uuidString.lowercased()`, written straight from the bytes. Every id the server binds
    /// passes through here, and Foundation's upper-case form lower-cased again was 8 % of the
    /// server's samples in a batch of check-ins.
    public var lowercasedString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = Self.hexDigit(byte >> 4)
                    text[at + 1] = Self.hexDigit(byte & 0x0F)
                    at += 2
                }
                return at
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// The sixteen bytes of the UUID in network order.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    /// An id's text as a store keeps it where the id's size matters: the UUID's sixteen bytes.
    /// Text that is not a UUID (never written so; a damaged row) keeps its own bytes, so a
    /// migration to this form loses nothing.
    public static func storedData(wire text: String) -> Data {
        UUID(wire: text).map { Data($0.bytes) } ?? Data(text.utf8)
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

    /// Parses only the canonical hyphenated form the API uses (lower case; upper case is
    /// accepted too), as Foundation's `UUID(uuidString:)` does, read straight from the bytes:
    /// every guest of a roster page is parsed here, and Foundation's parser was half of reading
    /// a guest off its page when the search index is built.
    public init?(wire: String) {
        var wire = wire
        let parsed = wire.withUTF8 { text -> uuid_t? in
            guard text.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let ok = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard text[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = Self.nibble(text[at]), let low = Self.nibble(text[at + 1]) else { return false }
                    out[index] = high << 4 | low
                    at += 2
                }
                return true
            }
            return ok ? bytes : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
