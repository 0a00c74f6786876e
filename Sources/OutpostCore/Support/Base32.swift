/// RFC 4648 base32 (upper-case alphabet, no padding), strict in both directions.
///
/// Outpost tickets use base32 because its alphabet (`A`–`Z`, `2`–`7`) is a subset of the QR
/// alphanumeric mode and contains no symbol that a keyboard-wedge scanner could type differently
/// on a non-US keyboard layout. Decoding is canonical: lower-case letters, padding, unused
/// non-zero trailing bits and impossible lengths are rejected, so every byte string has exactly
/// one text form.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    static let decodeTable: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = Int8(index) }
        return table
    }()

    /// Encodes bytes as unpadded upper-case base32.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int((buffer >> UInt32(bits)) & 0x1F)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes canonical unpadded upper-case base32, or returns nil.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let symbols = Array(text.utf8)
        // Lengths whose last symbol would carry no whole byte cannot come from `encode`.
        switch symbols.count % 8 {
        case 1, 3, 6: return nil
        default: break
        }
        var output: [UInt8] = []
        output.reserveCapacity(symbols.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            let value = decodeTable[Int(symbol)]
            guard value >= 0 else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits must be zero, or two texts would decode to the same bytes.
        guard buffer == 0 else { return nil }
        return output
    }
}
