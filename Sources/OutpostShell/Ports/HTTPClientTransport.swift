import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The live transport on Linux: AsyncHTTPClient on SwiftNIO, TLS through NIOSSL with the
/// system's trust store (Debian's `/etc/ssl/certs/ca-certificates.crt`, as curl reads it).
///
/// Every failure is thrown as a ``TransportError``; nothing here traps. FoundationNetworking's
/// URLSession does trap on Linux when a connection is cut right after the request
/// (`fatalError("Transfer completed, but there's no response.")`, swift-corelibs-foundation
/// #5285), which ended a door's station on hotel Wi-Fi.
///
/// Redirects are not followed: the API never redirects, so a 3xx is a captive portal's or a
/// proxy's answer, and ``ServerAnswer`` classifies it as not the server's.
public struct HTTPClientTransport: Transport {
    public let baseURL: URL
    private let timeout: TimeAmount
    private let client: HTTPClient

    /// The largest answer the device reads (a full roster page is far below it); a larger one is a
    /// transport failure, not an allocation the OS kills the app for.
    package static let maximumBodyBytes = 256 << 20

    /// `timeout`: from connecting to the answer's head; its body then has 60 s between reads.
    /// `connections`: at most this many connections to one server at once (the lab's load
    /// generators raise it).
    public init(baseURL: URL, timeout: TimeInterval = 10, connections: Int = 8) {
        self.baseURL = baseURL
        self.timeout = .milliseconds(Int64((timeout * 1000).rounded()))
        client = Self.sharedClient(connections: connections)
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let url = URL(string: request.path, relativeTo: baseURL) else {
            throw TransportError.connectionFailed("bad path \(request.path)")
        }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maximumBodyBytes)
            return TransportResponse(
                status: Int(response.status.code), body: Data(body.readableBytesView),
                contentType: response.headers.first(name: "Content-Type"))
        } catch {
            throw Self.transportError(error)
        }
    }

    /// What a failure of the HTTP stack means to the engine. Pure; the tests feed it real errors.
    package static func transportError(_ error: any Error) -> TransportError {
        if let error = error as? TransportError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .tlsHandshakeTimeout,
                .getConnectionFromPoolTimeout:
                return .timedOut
            case .remoteConnectionClosed:
                return .connectionFailed("the connection was closed before an answer came")
            case .bodyLengthMismatch:
                return .connectionFailed("the answer was cut short or too large")
            default:
                return .connectionFailed("\(error)")
            }
        }
        if error is NIOTooManyBytesError { return .connectionFailed("the answer was larger than the device reads") }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return .untrustedServer("the server's certificate is not for this address (\(error))")
        }
        if let error = error as? NIOSSLError {
            let text = "\(error)"
            if case .handshakeFailed = error, text.contains("CERTIFICATE_VERIFY_FAILED") {
                return .untrustedServer("SSL certificate problem: \(text)")
            }
            return .connectionFailed("TLS: \(text)")
        }
        if error is NIOConnectionError || error is IOError || error is ChannelError {
            return .connectionFailed("could not connect to the server (\(error))")
        }
        if error is CancellationError { return .connectionFailed("cancelled") }
        return .connectionFailed("\(error)")
    }

    /// One client per connection limit for the whole process, never shut down: an HTTPClient must
    /// be shut down before it is released (a debug build asserts it), and a process-wide client
    /// that lives as long as the process never is. Connections are pooled across every transport.
    private static func sharedClient(connections: Int) -> HTTPClient {
        clients.withLockedValue { clients in
            if let client = clients[connections] { return client }
            var configuration = HTTPClient.Configuration(
                tlsConfiguration: .makeClientConfiguration(),
                redirectConfiguration: .disallow,
                timeout: .init(connect: .seconds(10), read: .seconds(60)),
                // An idle connection is closed by the device well before the server's idle
                // timeout (60 s by default) would close it under a request being sent.
                connectionPool: .init(
                    idleTimeout: .seconds(20), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, connections)),
                proxy: nil, ignoreUncleanSSLShutdown: false, decompression: .disabled)
            configuration.httpVersion = .http1Only
            let client = HTTPClient(
                eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup.singleton), configuration: configuration)
            clients[connections] = client
            return client
        }
    }

    private static let clients = NIOLockedValueBox<[Int: HTTPClient]>([:])
}

/// The platform's live transport: URLSession where it is the system's own stack (Apple
/// platforms), SwiftNIO elsewhere (URLSession on Linux traps on a cut connection).
public enum LiveTransport {
    public static func make(baseURL: URL, timeout: TimeInterval = 10, connections: Int = 8) -> any Transport {
        #if canImport(Darwin)
        URLSessionTransport(baseURL: baseURL, timeout: timeout, connections: connections)
        #else
        HTTPClientTransport(baseURL: baseURL, timeout: timeout, connections: connections)
        #endif
    }
}
