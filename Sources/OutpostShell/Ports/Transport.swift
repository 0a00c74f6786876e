import Foundation
import OutpostProtocol

/// An HTTP request as the engine builds it.
public struct TransportRequest: Sendable, Hashable {
    public var method: String
    /// Path and query, e.g. `/v1/events?range=all`.
    public var path: String
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// An HTTP answer.
public struct TransportResponse: Sendable, Hashable {
    public var status: Int
    public var body: Data
    /// The answer's `Content-Type`, when it has one (the roster comes in two forms).
    public var contentType: String?

    public init(status: Int, body: Data, contentType: String? = nil) {
        self.status = status
        self.body = body
        self.contentType = contentType
    }
}

/// The request did not get an answer: the network, not the server, decided.
public enum TransportError: Error, Sendable, Equatable {
    /// The device knows it is offline; nothing was sent.
    case offline
    /// Sent, no answer in time (the server may or may not have applied it).
    case timedOut
    /// The connection failed.
    case connectionFailed(String)
    /// The server's TLS certificate is not trusted (unknown authority, expired, wrong name):
    /// nothing was sent. Not a moment's failure: retrying will not help until someone acts.
    case untrustedServer(String)
}

/// The HTTP port. Live: ``LiveTransport`` (URLSession on Apple platforms, SwiftNIO on Linux).
/// Tests: transports that record, drop, delay or hang.
public protocol Transport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// The transport of a device that knows it is offline: nothing leaves.
public struct OfflineTransport: Transport {
    public init() {}
    public func send(_ request: TransportRequest) async throws -> TransportResponse { throw TransportError.offline }
}

extension TransportRequest {
    /// A request to a route of the API (``API``): its method and path from the route description.
    public init(_ line: RequestLine, headers: [String: String] = [:], body: Data? = nil) {
        self.init(method: line.method.rawValue, path: line.path, headers: headers, body: body)
    }
}
