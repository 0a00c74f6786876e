import Foundation

/// Reads the structure of a JSON document and hands out the bytes of its values unchanged,
/// without decoding them: for answers that embed other JSON documents byte for byte (the
/// check-in batch's answers, ``CheckInBatchAnswer``). Anything that is not well-formed JSON is
/// an error, never a crash; a value's contents are checked only as far as finding its end
/// needs (its own decoder checks the rest).
public struct JSONScanner {
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public var offset: Int
        public var description: String { "malformed JSON at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var index = 0

    public init(_ data: Data) { bytes = Array(data) }

    /// Reads an object, calling `member` with each key, positioned at its value (which `member`
    /// must read: ``skipValue()``, ``string()``, ``integer()``, ``elements(_:)``, …).
    public mutating func members(_ member: (String, inout JSONScanner) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if consume(UInt8(ascii: "}")) { return }
        repeat {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(key, &self)
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// Reads an array, calling `element` positioned at each element (which it must read).
    public mutating func elements(_ element: (inout JSONScanner) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        if consume(UInt8(ascii: "]")) { return }
        repeat {
            try element(&self)
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    /// Reads a string value.
    public mutating func string() throws -> String {
        skipWhitespace()
        let start = index
        try skipString()
        let body = bytes[(start + 1)..<(index - 1)]
        guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
        // Escapes: the standard decoder reads the token.
        do {
            return try JSONDecoder().decode(String.self, from: Data(bytes[start..<index]))
        } catch {
            throw Malformed(offset: start)
        }
    }

    /// Reads an integer value.
    public mutating func integer() throws -> Int {
        skipWhitespace()
        let start = index
        let range = try skipValue()
        guard let value = Int(String(decoding: bytes[range], as: UTF8.self)) else { throw Malformed(offset: start) }
        return value
    }

    /// Skips one value of any kind and returns its bytes, exactly as they are in the document.
    @discardableResult
    public mutating func value() throws -> Data {
        Data(bytes[try skipValue()])
    }

    /// Checks that nothing but whitespace is left.
    public mutating func end() throws {
        skipWhitespace()
        guard index == bytes.count else { throw Malformed(offset: index) }
    }

    /// Skips one value; its range in the document.
    private mutating func skipValue() throws -> Range<Int> {
        skipWhitespace()
        let start = index
        guard index < bytes.count else { throw Malformed(offset: index) }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // Brackets must pair up; strings may hold any of them.
            var closers: [UInt8] = []
            repeat {
                guard index < bytes.count else { throw Malformed(offset: index) }
                switch bytes[index] {
                case UInt8(ascii: "{"):
                    closers.append(UInt8(ascii: "}"))
                    index += 1
                case UInt8(ascii: "["):
                    closers.append(UInt8(ascii: "]"))
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard closers.popLast() == bytes[index] else { throw Malformed(offset: index) }
                    index += 1
                case UInt8(ascii: "\""):
                    try skipString()
                default:
                    index += 1
                }
            } while !closers.isEmpty
        default:
            // A number, true, false or null: up to the next delimiter.
            while index < bytes.count, !Self.delimiters.contains(bytes[index]) { index += 1 }
            guard index > start, Self.scalarStarts.contains(bytes[start]) else { throw Malformed(offset: start) }
        }
        return start..<index
    }

    private static let delimiters: Set<UInt8> = Set(",:[]{}\" \t\r\n".utf8)
    private static let scalarStarts: Set<UInt8> = Set("-0123456789tfn".utf8)

    /// Skips a string token (the index at its opening quote).
    private mutating func skipString() throws {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed(offset: index) }
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 2
            case 0..<0x20:
                throw Malformed(offset: index)
            default:
                index += 1
            }
        }
        throw Malformed(offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard consume(byte) else { throw Malformed(offset: index) }
    }
}
