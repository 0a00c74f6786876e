import Foundation
import OutpostCore
import Testing

@Suite("UUID text")
struct UUIDTextTests {
    @Test(
        "uuid-lowercased-text: the wire form written from the bytes is Foundation's text lower-cased, for every nibble in every position, the nil UUID, the all-ones UUID and 20,000 random ones, and parses back"
    )
    func lowercasedText() {
        var uuids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        uuids.append(UUID(bytes: [UInt8](repeating: 0xFF, count: 16))!)
        for position in 0..<16 {
            for nibble in UInt8(0)...15 {
                var bytes = [UInt8](repeating: 0, count: 16)
                bytes[position] = nibble << 4 | (15 - nibble)
                uuids.append(UUID(bytes: bytes)!)
            }
        }
        for _ in 0..<20_000 { uuids.append(UUID()) }
        for uuid in uuids {
            let text = uuid.lowercasedString
            #expect(text == uuid.uuidString.lowercased(), "\(uuid.uuidString)")
            #expect(UUID(wire: text) == uuid)
        }
    }

    @Test(
        "uuid-wire-parse: the id read from its bytes is Foundation's on the canonical text in either case, and text cut short, too long, without or with moved hyphens, with a space or a character that is not hex is refused"
    )
    func wireParse() {
        for _ in 0..<5_000 {
            let uuid = UUID()
            #expect(UUID(wire: uuid.lowercasedString) == uuid)
            #expect(UUID(wire: uuid.uuidString) == uuid)
            #expect(UUID(wire: String(uuid.lowercasedString.dropLast())) == nil)
        }
        let sample = UUID().lowercasedString
        // Foundation's parser on Linux takes the leading space; the wire form is strict.
        let body = String(sample.dropFirst())
        var refused: [String] = ["", sample + "0", sample.replacingOccurrences(of: "-", with: "")]
        refused += [body + "-", "{" + body, " " + body, sample.replacingOccurrences(of: "-", with: "+")]
        refused += [String(sample.prefix(35)) + "g", String(sample.prefix(34)) + "é"]
        refused += ["0000000-00000-0000-0000-000000000000", "00000000-0000-0000-0000-00000000000G"]
        for position in [0, 8, 13, 20, 35] {
            var bytes = Array(sample.utf8)
            bytes[position] = UInt8(ascii: "x")
            refused.append(String(decoding: bytes, as: UTF8.self))
        }
        for text in refused { #expect(UUID(wire: text) == nil, "\(text)") }
    }
}
