#if canImport(Darwin)
import Foundation

/// URLSession, as the iOS app uses it: the platform's own stack on Apple platforms only. On Linux
/// FoundationNetworking traps the process when an answer is cut after its status line
/// (swift-corelibs-foundation #5285), so Linux uses ``HTTPClientTransport``.
public struct URLSessionTransport: Transport {
    public let baseURL: URL
    private let session: URLSession

    /// `connections`: at most this many connections to the server at once (the lab's load
    /// generators raise it).
    public init(baseURL: URL, timeout: TimeInterval = 10, connections: Int = 8) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connections
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
#endif
