import Foundation
import OutpostProtocol

/// What an HTTP answer is, as far as the outbox and the session are concerned. Only a body in
/// the API's error shape (`{"error": …, "message": …}`) is the server's word; a captive portal,
/// a proxy or a load balancer answers with its own status and page, and that is never a reason
/// to drop work or end a session.
package enum ServerAnswer: Equatable, Sendable {
    /// A 2xx. The caller still decodes the body; a body it cannot read is not an answer.
    case success(status: Int)
    /// The server's error body.
    case apiError(status: Int, code: APIErrorCode)
    /// Anything else: HTML, a redirect, an empty or foreign body.
    case foreign(status: Int)

    package init(_ response: TransportResponse) {
        if (200..<300).contains(response.status) {
            self = .success(status: response.status)
            // Without the API's error body an error status is foreign (below): the decode's failure is the answer.
        } else if response.status >= 400, let body = try? OutpostJSON.decode(ErrorBody.self, from: response.body),
            !body.error.isEmpty
        {
            self = .apiError(status: response.status, code: body.code)
        } else {
            self = .foreign(status: response.status)
        }
    }

    /// True for the server's own 401 (an expired or refused token), not a portal's.
    package var isUnauthorized: Bool {
        if case .apiError(401, _) = self { return true }
        return false
    }

    /// The outbox event for this answer to entry `id`; `accepts` decodes a 2xx body for the
    /// entry's kind.
    package static func outboxEvent(
        for id: OutboxMachine.EntryID, response: TransportResponse, accepts: (TransportResponse) -> Bool
    ) -> OutboxMachine.Event {
        switch ServerAnswer(response) {
        case .success where accepts(response):
            .answered(id)
        case .success(let status):
            .transportFailed(id, reason: "HTTP \(status) with a body that is not the server's answer")
        case .apiError(let status, let code) where code.isFinal && (400..<500).contains(status):
            .refused(id, code: code.rawValue)
        case .apiError(let status, let code):
            .transportFailed(id, reason: "HTTP \(status) \(code)")
        case .foreign(let status):
            .transportFailed(id, reason: "HTTP \(status) not from the server (a portal or proxy?)")
        }
    }
}
