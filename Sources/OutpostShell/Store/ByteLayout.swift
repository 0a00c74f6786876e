import Foundation

/// The small binary layout the device seals its bulk records in (a guest, the roster's search
/// index): LEB128 unsigned integers and length-prefixed UTF-8 strings, read back with every
/// length checked, so damaged bytes are an error, never a crash.
package enum ByteLayout {
    package enum Failure: Error, Equatable {
        case truncated
        case malformed(String)
    }

    package static func append(_ value: UInt, to bytes: inout [UInt8]) {
        var value = value
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value > 0
    }

    /// Eight bytes, most significant first (a time or a version: fixed width, no varint).
    package static func append(bigEndian value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    package static func append(_ text: String, to bytes: inout [UInt8]) {
        append(UInt(text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    /// A UUID's sixteen bytes (an id in 16 bytes, not its 36 of text).
    package static func append(_ uuid: UUID, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
    }

    package struct Reader {
        package let bytes: UnsafeBufferPointer<UInt8>
        package var offset: Int

        package init(bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0) {
            self.bytes = bytes
            self.offset = offset
        }

        package var isAtEnd: Bool { offset == bytes.count }

        package mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw Failure.truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// Eight bytes written by ``ByteLayout/append(bigEndian:to:)``.
        package mutating func bigEndian64() throws -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
            return value
        }

        /// A LEB128 integer of at most 35 bits.
        package mutating func integer() throws -> Int {
            var value = 0
            var shift = 0
            while true {
                let byte = try self.byte()
                guard shift < 35 else { throw Failure.malformed("length") }
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }

        /// An integer that must be below `bound` (an index into something already read).
        package mutating func integer(below bound: Int, _ what: String) throws -> Int {
            let value = try integer()
            guard value < bound else { throw Failure.malformed(what) }
            return value
        }

        /// Sixteen bytes written by ``ByteLayout/append(_:to:)-(UUID,_)``.
        package mutating func uuid() throws -> UUID {
            guard bytes.count - offset >= 16, let uuid = UUID(bytes: bytes[offset..<(offset + 16)]) else {
                throw Failure.truncated
            }
            offset += 16
            return uuid
        }

        package mutating func string() throws -> String {
            let length = try integer()
            guard length <= bytes.count - offset else { throw Failure.truncated }
            defer { offset += length }
            // The bytes were authenticated by AES-GCM and written by this layout, so they are UTF-8.
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        }
    }
}
