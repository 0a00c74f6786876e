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
}
