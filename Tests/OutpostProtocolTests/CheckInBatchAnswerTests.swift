import Foundation
import OutpostProtocol
import Testing

/// A batch's answer embeds each entry's stored answer byte for byte; the device takes those
/// bytes out as they are (``CheckInBatchAnswer/split(_:)``), so what it stores for an entry is
/// what a single request would have got.
@Suite("Check-in batch answers")
struct CheckInBatchAnswerTests {
    /// Two stored answers as the server writes them (sorted keys, escaped text, nested objects).
    static let first =
        #"{"checkIn":{"at":"2026-12-01T18:00:00.000Z","byName":"Åse \"Door]\" Ng","deviceId":"d1"},"result":"checked_in"}"#
    static let second = #"{"error":"not_found","message":"No guest {x} [y], here."}"#

    static func body(spaced: Bool = false) -> Data {
        let gap = spaced ? " \n\t" : ""
        return Data(
            (#"{"results":["# + gap + #"{"idempotencyKey":"d1:a:1","status":201,"answer":"# + first + "}" + gap + ","
                + #"{"status":404,"idempotencyKey":"d1:b\u003a2","answer":"# + gap + second + gap + "}]}").utf8)
    }

    @Test(
        "outbox-batch-answer-bytes: each entry's answer comes out of the batch's answer byte for byte, with its key (escapes decoded) and status, in order"
    )
    func splitsExactly() throws {
        for spaced in [false, true] {
            let answers = try CheckInBatchAnswer.split(Self.body(spaced: spaced))
            #expect(
                answers == [
                    CheckInBatchAnswer(idempotencyKey: "d1:a:1", status: 201, body: Data(Self.first.utf8)),
                    CheckInBatchAnswer(idempotencyKey: "d1:b:2", status: 404, body: Data(Self.second.utf8)),
                ])
        }
        #expect(try CheckInBatchAnswer.split(Data(#"{"results":[]}"#.utf8)).isEmpty)
        #expect(try CheckInBatchAnswer.split(Data(#"{"other":[1,{"a":"]"}],"results":[]}"#.utf8)).isEmpty)
    }

    @Test(
        "outbox-batch-answer-malformed: a portal's page, a truncated answer at every length and mismatched brackets are refused with an error, never a crash"
    )
    func refusesMalformed() {
        let body = Self.body()
        for length in 0..<body.count {
            #expect(throws: JSONScanner.Malformed.self) { try CheckInBatchAnswer.split(body.prefix(length)) }
        }
        for text in [
            "<html><body>Sign in to the hotel Wi-Fi</body></html>",
            #"{"results":[{"idempotencyKey":"k","status":201,"answer":{"a":[1}]}]}"#,
            #"{"results":[{"idempotencyKey":"k","status":"201","answer":{}}]}"#,
            #"{"results":[{"idempotencyKey":"k","answer":{}}]}"#,
            #"{"results":[{"idempotencyKey":"k","status":201,"answer":{}}]} trailing"#,
            #"{"results":[{"idempotencyKey":"k","status":201,"answer":}]}"#,
            #"{"nothing":1}"#,
        ] {
            #expect(throws: JSONScanner.Malformed.self, "\(text)") { try CheckInBatchAnswer.split(Data(text.utf8)) }
        }
    }
}
