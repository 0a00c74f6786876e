import Foundation
import OutpostCore
import OutpostProtocol
import Testing

/// The server writes a check-in's answer by hand (``CheckInResponse/json``); every device and
/// client reads what `JSONEncoder` with the API's conventions wrote before, so the two must be
/// the same bytes, whatever a staff member's name or a device id holds.
@Suite("Check-in answer JSON")
struct CheckInResponseJSONTests {
    /// Text that JSON escapes, or that an encoder might: quotes, backslashes, slashes, every
    /// control character, DEL, non-ASCII, a combining mark, emoji, the line and paragraph
    /// separators, a byte-order mark.
    static let awkward: [String] = [
        "", "Ada", #"Åse "Door" Ng"#, #"back\slash"#, "a/b</script>", "tab\tnew\nline\rfeed\u{8}\u{C}",
        String((0..<0x20).map { Character(UnicodeScalar(UInt8($0))) }), "\u{7F}", "e\u{301}", "日本語 👩🏽‍💻",
        "\u{2028}\u{2029}", "\u{FEFF}", "d1:x y", "\\u0041",
    ]

    static func record(_ byName: String, _ deviceId: String, at: Int64, clientAt: Int64) -> CheckInRecord {
        CheckInRecord(
            id: .random(), guestId: .random(), at: Date(millisecondsSince1970: at),
            clientAt: Date(millisecondsSince1970: clientAt), byName: byName, deviceId: deviceId)
    }

    @Test(
        "checkin-answer-json: the hand-written answer is JSONEncoder's byte for byte, for every result, awkward names and device ids, and 2,000 seeded random ones"
    )
    func sameBytesAsTheEncoder() throws {
        var random = SeededRandom(seed: 15)
        // Characters drawn for the random texts: all of the awkward ones, taken apart.
        let pool = Array(Self.awkward.joined()) + ["x", "Z", "0", " "]
        var cases: [(String, String)] = Self.awkward.map { ($0, $0) }
        for _ in 0..<2_000 {
            func text() -> String {
                String((0..<Int(random.next() % 12)).map { _ in pool[Int(random.next() % UInt64(pool.count))] })
            }
            cases.append((text(), text()))
        }
        for (index, (byName, deviceId)) in cases.enumerated() {
            // Instants from before 1970 to far ahead, to the millisecond.
            let at = Int64(bitPattern: random.next() % 8_000_000_000_000) - 1_000_000_000_000
            let record = Self.record(byName, deviceId, at: at, clientAt: at - Int64(index))
            for result in CheckInResult.allCases {
                let response = CheckInResponse(result: result, checkIn: record)
                let expected = Array(try OutpostJSON.encode(response))
                #expect(
                    response.json == expected,
                    "\(String(decoding: response.json, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))"
                )
                guard response.json == expected else { return }
            }
        }
        // And it reads back as the same answer.
        let response = CheckInResponse(
            result: .checkedIn, checkIn: Self.record(Self.awkward[4], "d1", at: 1_800_000_000_123, clientAt: 0))
        #expect(try OutpostJSON.decode(CheckInResponse.self, from: Data(response.json)) == response)
    }
}
