import Foundation
import OutpostCore

/// The mesh's canonical binary form: what is signed and what is sent are the same bytes, so no
/// two encoders can disagree about what a signature covers. Integers are big-endian; strings
/// and byte strings carry a 16-bit length.
public struct MeshBytes: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    mutating func append(tag: String) {
        bytes.append(contentsOf: Array(tag.utf8))
        bytes.append(0)
    }

    mutating func append(byte: UInt8) { bytes.append(byte) }

    mutating func append(int value: Int64) { append(unsigned: UInt64(bitPattern: value)) }

    mutating func append(unsigned value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    mutating func append(uuid: UUID) { bytes.append(contentsOf: uuid.bytes) }

    mutating func append(fixed: [UInt8]) { bytes.append(contentsOf: fixed) }

    mutating func append(bytes value: [UInt8]) {
        precondition(value.count <= Int(UInt16.max))
        bytes.append(UInt8(value.count >> 8))
        bytes.append(UInt8(value.count & 0xff))
        bytes.append(contentsOf: value)
    }

    mutating func append(string: String) { append(bytes: Array(string.utf8)) }

    public static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// Bytes from lower- or upper-case hex; nil for anything else.
    public static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Reads ``MeshBytes`` back; every read checks what is left, so short or malformed input is a
/// thrown ``MeshRefusal/malformed``, never a trap.
struct MeshReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func fixed(_ count: Int) throws -> [UInt8] {
        guard count >= 0, remaining >= count else { throw MeshRefusal.malformed }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func tag(_ expected: String) throws {
        guard try fixed(expected.utf8.count + 1) == Array(expected.utf8) + [0] else { throw MeshRefusal.malformed }
    }

    mutating func byte() throws -> UInt8 { try fixed(1)[0] }

    mutating func unsigned() throws -> UInt64 { try fixed(8).reduce(0) { $0 << 8 | UInt64($1) } }

    mutating func int() throws -> Int64 { Int64(bitPattern: try unsigned()) }

    mutating func uuid() throws -> UUID {
        guard let uuid = UUID(bytes: try fixed(16)) else { throw MeshRefusal.malformed }
        return uuid
    }

    mutating func lengthPrefixed() throws -> [UInt8] {
        let length = try fixed(2)
        return try fixed(Int(length[0]) << 8 | Int(length[1]))
    }

    mutating func string() throws -> String {
        guard let text = String(bytes: try lengthPrefixed(), encoding: .utf8) else { throw MeshRefusal.malformed }
        return text
    }
}
