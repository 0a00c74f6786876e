import Foundation
import OutpostProtocol
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

@Suite("Server answers: only the API's error body is the server's word")
struct ServerAnswerTests {
    static func body(_ code: String) -> Data {
        try! OutpostJSON.encode(ErrorBody(error: code, message: "words"))
    }

    static let html = Data("<html><body>Log in to the hotel Wi-Fi</body></html>".utf8)
    static let id = OutboxMachine.EntryID(1)

    /// (status, body) → the outbox event's kind.
    static let table: [(Int, Data, String)] = [
        (201, Data("{}".utf8), "answered"),
        (200, html, "transport"),  // a portal's 200 page is not an answer
        (302, html, "transport"),
        (401, html, "transport"),
        (403, html, "transport"),
        (404, html, "transport"),
        (407, html, "transport"),
        (413, html, "transport"),
        (500, html, "transport"),
        (502, Data(), "transport"),
        (404, body("not_found"), "refused"),
        (409, body("guest_not_admissible"), "refused"),
        (422, body("idempotency_key_reused"), "refused"),
        (400, body("invalid_request"), "refused"),
        (403, body("forbidden"), "refused"),
        (413, body("payload_too_large"), "refused"),
        (429, body("rate_limited"), "transport"),
        (500, body("internal_error"), "transport"),
        (503, body("not_found"), "transport"),  // a final code under a 5xx is not a verdict
        (409, body("some_future_code"), "transport"),  // never drop work on a code we cannot read
        (404, Data(#"{"error":"not_found"}"#.utf8), "transport"),  // not the API's shape (no message)
    ]

    @Test("captive-portal: the outbox event for each status and body")
    func classification() {
        for (status, body, expected) in Self.table {
            let event = ServerAnswer.outboxEvent(
                for: Self.id, response: TransportResponse(status: status, body: body),
                accepts: { (try? JSONSerialization.jsonObject(with: $0.body)) is [String: Any] })
            let kind =
                switch event {
                case .answered: "answered"
                case .refused: "refused"
                case .transportFailed: "transport"
                default: "other"
                }
            #expect(kind == expected, "HTTP \(status) \(String(decoding: body.prefix(30), as: UTF8.self))")
        }
    }

    @Test("only the server's own 401 ends or refreshes a session")
    func unauthorized() {
        #expect(ServerAnswer(TransportResponse(status: 401, body: Self.body("unauthorized"))).isUnauthorized)
        #expect(ServerAnswer(TransportResponse(status: 401, body: Self.body("token_reused"))).isUnauthorized)
        #expect(!ServerAnswer(TransportResponse(status: 401, body: Self.html)).isUnauthorized)
        #expect(!ServerAnswer(TransportResponse(status: 200, body: Self.body("unauthorized"))).isUnauthorized)
    }
}
