import Foundation
import OutpostCore

/// The JSON conventions of the Outpost API: RFC 3339 UTC timestamps with milliseconds, sorted
/// keys (so a stored answer is byte-for-byte reproducible), no escaped slashes.
public enum OutpostJSON {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let withoutFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: .gmt)

    /// Formats an instant as `2026-11-21T19:41:07.123Z` (exact: computed from whole milliseconds,
    /// so a stored timestamp always prints the same text).
    public static func format(_ date: Date) -> String {
        let millis = date.millisecondsSince1970
        let (days, msOfDay) = floorDivision(millis, 86_400_000)
        // Civil date from days since 1970 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let hour = msOfDay / 3_600_000
        let minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60
        let ms = msOfDay % 1000
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(ms, 3))Z"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Parses an RFC 3339 timestamp with or without fractional seconds, to whole milliseconds.
    /// Strict: the calendar fields must exist as written (Foundation's parser reads 2026-02-30 as
    /// 2 March and 25:00 as the next day; this refuses both), checked by ``fieldsExist(_:)``.
    public static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 40, fieldsExist(text),
            let date = (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
        else { return nil }
        return Date(millisecondsSince1970: date.millisecondsSince1970)
    }

    /// True when `text` starts `YYYY-MM-DDTHH:MM:SS` (`t` or a space allowed for the `T`) with a
    /// month of 1–12, a day that month has, an hour of 0–23 and minutes and seconds of 0–59, and
    /// any numeric offset is at most ±23:59.
    static func fieldsExist(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16),
            let second = number(17..<19), (1...12).contains(month), hour <= 23, minute <= 59, second <= 59
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        // A numeric offset at the end (+HH:MM or -HH:MM) names a real one.
        if bytes.count >= 25, [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[bytes.count - 6]),
            bytes[bytes.count - 3] == UInt8(ascii: ":")
        {
            guard let hours = number(bytes.count - 5..<bytes.count - 3),
                let minutes = number(bytes.count - 2..<bytes.count), hours <= 23, minutes <= 59
            else { return false }
        }
        return true
    }

    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(format(date))
        }
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an RFC 3339 timestamp, got \(text.prefix(40))")
            }
            return date
        }
        return decoder
    }

    /// Appends `text` as a JSON string exactly as ``encode(_:)`` writes one: `"` and `\`
    /// escaped, the control characters as `\b \f \n \r \t` or `\u00xx` (lower-case hex), every
    /// other character (slashes, DEL, U+2028, all of Unicode) as its UTF-8 bytes. For answers the
    /// server writes by hand (``CheckInResponse/json``).
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Encodes a value with the API's conventions.
    public static func encode(_ value: some Encodable) throws -> Data {
        try makeEncoder().encode(value)
    }

    /// Decodes a value with the API's conventions.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try makeDecoder().decode(type, from: data)
    }
}
