import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

/// The HTTP port. Live: URLSession. Tests: transports that record, drop, delay or hang.
public protocol Transport: Sendable {
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// URLSession (FoundationNetworking on Linux), as the iOS app would use.
public struct URLSessionTransport: Transport {
    public let baseURL: URL
    private let session: URLSession

    /// `connections`: at most this many connections to the server at once (the lab's load
    /// generators raise it).
    public init(baseURL: URL, timeout: TimeInterval = 10, connections: Int? = nil) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        if let connections { configuration.httpMaximumConnectionsPerHost = connections }
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let url = URL(string: request.path, relativeTo: baseURL) else {
            throw TransportError.connectionFailed("bad path \(request.path)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            let http = response as? HTTPURLResponse
            return TransportResponse(
                status: http?.statusCode ?? 0, body: data, contentType: http?.value(forHTTPHeaderField: "Content-Type"))
        } catch let error as URLError where error.code == .timedOut {
            throw TransportError.timedOut
        } catch let error as URLError {
            let certificateCodes: Set<URLError.Code> = [
                .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .clientCertificateRejected,
            ]
            // FoundationNetworking on Linux reports curl's "SSL certificate problem" with no code.
            if certificateCodes.contains(error.code) || error.localizedDescription.contains("SSL certificate") {
                throw TransportError.untrustedServer(error.localizedDescription)
            }
            throw TransportError.connectionFailed(error.localizedDescription)
        }
    }
}

/// The transport of a device that knows it is offline: nothing leaves.
public struct OfflineTransport: Transport {
    public init() {}
    public func send(_ request: TransportRequest) async throws -> TransportResponse { throw TransportError.offline }
}
