import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// What the server asks of a tenant's identity provider over HTTP: its discovery document (at
/// save), its keys (``ProviderKeys``) and the code exchange (at the callback). Redirects are not
/// followed (a provider answers these directly), every call has a deadline, and bodies are capped.
struct IdentityProviderClient: Sendable {
    /// The endpoints of a provider's discovery document (OpenID Connect Discovery 1.0 §3).
    struct Discovery: Decodable, Sendable, Equatable {
        var issuer: String
        var authorizationEndpoint: String
        var tokenEndpoint: String
        var jwksURI: String

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
        }
    }

    /// The token endpoint's answer (OIDC Core §3.1.3.3): only the ID token matters here.
    struct TokenAnswer: Decodable, Sendable {
        var idToken: String

        enum CodingKeys: String, CodingKey { case idToken = "id_token" }
    }

    /// Why the provider gave no usable answer: one sentence each.
    enum Failure: Error, CustomStringConvertible, Equatable {
        case unreachable(String)
        case status(Int, String?)
        case unreadable(String)

        var description: String {
            switch self {
            case .unreachable(let detail): "The identity provider did not answer (\(detail))."
            case .status(let status, let error?): "The identity provider answered \(status) (\(error))."
            case .status(let status, nil): "The identity provider answered \(status)."
            case .unreadable(let what): "The identity provider's \(what) could not be read."
            }
        }
    }

    static let timeout: TimeAmount = .seconds(10)
    static let maximumBody = 1 << 20

    let client: HTTPClient

    static let shared = IdentityProviderClient(
        client: HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: .init(connect: .seconds(3), read: timeout))))

    /// The provider's discovery document, which must name `issuer` exactly (Discovery §4.3).
    func discover(issuer: String) async throws -> Discovery {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let (status, body, _) = try await send(HTTPClientRequest(url: base + "/.well-known/openid-configuration"))
        guard status == 200 else { throw Failure.status(status, nil) }
        guard let discovery = try? JSONDecoder().decode(Discovery.self, from: body) else {
            throw Failure.unreadable("discovery document")
        }
        return discovery
    }

    /// The JWKS at `url` and the `max-age` of its `Cache-Control`.
    func keys(at url: URL) async throws -> (body: Data, maxAge: TimeInterval?) {
        let (status, body, headers) = try await send(HTTPClientRequest(url: url.absoluteString))
        guard status == 200 else { throw Failure.status(status, nil) }
        let maxAge = headers["Cache-Control"].lazy.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("max-age=") }
            .flatMap { TimeInterval($0.dropFirst("max-age=".count)) }
        return (body, maxAge)
    }

    /// Exchanges an authorization code (with the PKCE verifier and the client's secret, sent as
    /// HTTP Basic: RFC 6749 §2.3.1) for the ID token.
    func exchange(
        code: String, verifier: String, redirectURI: String, tokenEndpoint: String, clientId: String,
        clientSecret: String
    ) async throws -> String {
        var request = HTTPClientRequest(url: tokenEndpoint)
        request.method = .POST
        let credentials = Data("\(Self.formEncoded(clientId)):\(Self.formEncoded(clientSecret))".utf8)
        request.headers.add(name: "Authorization", value: "Basic " + credentials.base64EncodedString())
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        let form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", verifier),
        ].map { "\($0)=\(Self.formEncoded($1))" }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: form))
        let (status, body, _) = try await send(request)
        guard status == 200 else {
            struct ErrorAnswer: Decodable { var error: String }
            throw Failure.status(status, (try? JSONDecoder().decode(ErrorAnswer.self, from: body))?.error)
        }
        guard let answer = try? JSONDecoder().decode(TokenAnswer.self, from: body) else {
            throw Failure.unreadable("token answer")
        }
        return answer.idToken
    }

    /// `application/x-www-form-urlencoded` for one name or value (RFC 6749 Appendix B).
    static func formEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    private func send(_ request: HTTPClientRequest) async throws -> (Int, Data, HTTPHeaders) {
        // Every request on a connection of its own, closed after its answer: a sign-in makes a
        // few, minutes apart, and the code exchange (a POST, never sent twice) went out on a
        // kept-alive connection the provider had just closed, under a loaded test run
        // (remoteConnectionClosed). A connection per request costs a handshake per sign-in step.
        var request = request
        request.headers.replaceOrAdd(name: "Connection", value: "close")
        var attempt = 1
        while true {
            do {
                let response = try await client.execute(request, timeout: Self.timeout)
                let body = try await response.body.collect(upTo: Self.maximumBody)
                return (Int(response.status.code), Data(body.readableBytesView), response.headers)
            } catch let failure as Failure {
                throw failure
            } catch  where attempt == 1 && request.method == .GET && Self.closedUnderneath(error) {
                // A kept-alive connection the provider (or a proxy in front of it) closed just as
                // this request went out on it: a GET goes once more, on a fresh connection. The
                // code exchange (a POST; its code is single-use) never does.
                attempt += 1
            } catch {
                throw Failure.unreachable(String(describing: error))
            }
        }
    }

    /// The connection was closed under the request, before any answer came.
    static func closedUnderneath(_ error: any Error) -> Bool {
        if let channel = error as? ChannelError, channel == .ioOnClosedChannel { return true }
        if let client = error as? HTTPClientError, client == .remoteConnectionClosed { return true }
        return false
    }
}
