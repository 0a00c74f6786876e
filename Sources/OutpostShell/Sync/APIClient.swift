import Foundation
import OutpostCore
import OutpostProtocol

/// A signed-in session as the device keeps it (sealed at rest).
public struct SessionState: Codable, Sendable, Hashable {
    public var serverURL: String
    public var accessToken: String
    public var refreshToken: String
    public var user: UserInfo
    /// Hours the app may unlock offline after the server last accepted this session (the
    /// tenant's setting, sent with every sign-in and refresh); nil from an older server.
    public var offlineUnlockHours: Int?
}

/// Why an API call did not give an answer the caller can use.
public enum APIClientError: Error, Sendable, Equatable {
    /// No answer: offline, timed out, connection failed. The session stays.
    case transport(TransportError)
    /// An HTTP answer that is an API error.
    case http(status: Int, code: String?)
    /// The server definitely refused the refresh token: the session is over (pending data stays).
    case sessionEnded(code: String?)
    /// The answer could not be read.
    case undecodable(String)
}

/// The API of API.md over a ``Transport``: sign-in, refresh, sign-out and the shared decoding.
/// The device's authenticated calls go through ``SessionKeeper``, which rotates an expired token
/// silently; the lab (bench, soak, demo, tests) drives the same client with a bearer token.
public struct APIClient: Sendable {
    public let transport: any Transport

    public init(transport: any Transport) {
        self.transport = transport
    }

    public func signIn(email: String, password: String, deviceId: String) async throws -> TokenPair {
        let response = try await send(
            TransportRequest(
                API.signIn.line(), headers: ["Content-Type": "application/json"],
                body: try OutpostJSON.encode(SignInRequest(email: email, password: password, deviceId: deviceId))))
        return try Self.decode(TokenPair.self, response)
    }

    /// Asks the server to mail a sign-in code (202: sent, or nothing to send).
    public func requestEmailCode(email: String, purpose: EmailCodeRequest.Purpose) async throws {
        let response = try await send(
            TransportRequest(
                API.emailCode.line(), headers: ["Content-Type": "application/json"],
                body: try OutpostJSON.encode(EmailCodeRequest(email: email, purpose: purpose))))
        guard response.status == 202 else {
            throw APIClientError.http(status: response.status, code: Self.errorCode(response.body))
        }
    }

    /// Trades a mailed code for a token pair (creating the account with a name and consent).
    public func signIn(
        email: String, code: String, deviceId: String, name: String? = nil, consentVersion: String? = nil
    ) async throws -> TokenPair {
        let response = try await send(
            TransportRequest(
                API.emailSignIn.line(), headers: ["Content-Type": "application/json"],
                body: try OutpostJSON.encode(
                    EmailSignInRequest(
                        email: email, code: code, deviceId: deviceId, name: name, consentVersion: consentVersion))))
        return try Self.decode(TokenPair.self, response)
    }

    /// The identity provider that signs in `email`'s organisation (404 `sso_not_configured`: none).
    public func singleSignOnProvider(email: String) async throws -> SSOProviderInfo {
        try Self.decode(
            SSOProviderInfo.self, try await send(TransportRequest(API.ssoProvider.line(query: [("email", email)]))))
    }

    /// Trades single sign-on's one-time code, with the PKCE verifier, for a token pair.
    public func signIn(ssoCode: String, codeVerifier: String, deviceId: String) async throws -> TokenPair {
        let response = try await send(
            TransportRequest(
                API.ssoToken.line(), headers: ["Content-Type": "application/json"],
                body: try OutpostJSON.encode(
                    SSOTokenRequest(code: ssoCode, codeVerifier: codeVerifier, deviceId: deviceId))))
        return try Self.decode(TokenPair.self, response)
    }

    public func clientPolicy() async throws -> ClientPolicy {
        try Self.decode(ClientPolicy.self, try await send(TransportRequest(API.clientPolicy.line())))
    }

    /// Best effort: offline, the device signs out all the same and the server's session ends at
    /// its expiry; a refresh token always encodes.
    public func signOut(refreshToken: String) async {
        // Best effort (above); the body is one string and always encodes.
        _ = try? await send(
            TransportRequest(
                API.signOut.line(), headers: ["Content-Type": "application/json"],
                body: try? OutpostJSON.encode(RefreshRequest(refreshToken: refreshToken))))
    }

    /// Rotates the refresh token. Only the server's own 401 ends the session; a portal's page,
    /// a 5xx or no answer at all keeps it (the caller tries again later).
    public func refreshed(_ session: SessionState) async throws -> SessionState {
        let response = try await send(
            TransportRequest(
                API.refresh.line(), headers: ["Content-Type": "application/json"],
                body: try OutpostJSON.encode(RefreshRequest(refreshToken: session.refreshToken))))
        let answer = ServerAnswer(response)
        if answer.isUnauthorized { throw APIClientError.sessionEnded(code: Self.errorCode(response.body)) }
        // A 2xx that is not a token pair is not the server's (a portal): no answer, as below.
        guard case .success = answer, let pair = try? OutpostJSON.decode(TokenPair.self, from: response.body) else {
            throw APIClientError.transport(.connectionFailed("the refresh was answered with HTTP \(response.status)"))
        }
        var updated = session
        updated.accessToken = pair.accessToken
        updated.refreshToken = pair.refreshToken
        updated.user = pair.user
        updated.offlineUnlockHours = pair.offlineUnlockHours ?? updated.offlineUnlockHours
        return updated
    }

    /// One request with `token` as its bearer and `json` (or `body`) as its body; the raw answer.
    public func request(
        _ line: RequestLine, token: String?, json: (any Encodable & Sendable)? = nil,
        body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> TransportResponse {
        var headers = headers
        if let token { headers["Authorization"] = "Bearer \(token)" }
        var payload = body
        if let json {
            headers["Content-Type"] = "application/json"
            payload = try OutpostJSON.encode(json)
        }
        return try await send(TransportRequest(line, headers: headers, body: payload))
    }

    /// ``request(_:token:json:body:headers:)`` decoded as `Answer`; an API error or an
    /// unreadable body throws.
    public func call<Answer: Decodable>(
        _ line: RequestLine, token: String?, json: (any Encodable & Sendable)? = nil,
        as answer: Answer.Type = Answer.self
    ) async throws -> Answer {
        try Self.decode(answer, try await request(line, token: token, json: json))
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            return try await transport.send(request)
        } catch let error as TransportError {
            throw APIClientError.transport(error)
        } catch is CancellationError {
            throw APIClientError.transport(.timedOut)
        } catch {
            throw APIClientError.transport(.connectionFailed("\(error)"))
        }
    }

    public static func decode<T: Decodable>(_ type: T.Type, _ response: TransportResponse) throws -> T {
        guard (200..<300).contains(response.status) else {
            throw APIClientError.http(status: response.status, code: errorCode(response.body))
        }
        do {
            return try OutpostJSON.decode(type, from: response.body)
        } catch {
            throw APIClientError.undecodable("\(T.self): \(error)")
        }
    }

    /// The API's error code of an answer; nil for a body that is not the API's error (a portal's
    /// page), which callers treat as no code.
    public static func errorCode(_ body: Data) -> String? {
        // Not the API's error body: no code (above).
        (try? OutpostJSON.decode(ErrorBody.self, from: body))?.error
    }
}
