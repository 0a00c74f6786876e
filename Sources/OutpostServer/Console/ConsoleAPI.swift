import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import OutpostProtocol

/// The console's one client of the API: each page's data and each form's change is an API call
/// made in process, through the same router (its authenticator, role checks, tenant isolation,
/// validation and audit), with the session's access token. An expired access token is refreshed
/// once with the session's refresh token (the rotated pair goes back into the cookie); a refused
/// refresh ends the session.
struct ConsoleAPI: Sendable {
    /// The router's responder, set once the router is built (the console's routes are on it too).
    final class Responder: Sendable {
        private let box = NIOLockedValueBox<RouterResponder<AppRequestContext>?>(nil)
        func set(_ responder: RouterResponder<AppRequestContext>) { box.withLockedValue { $0 = responder } }
        var value: RouterResponder<AppRequestContext>? { box.withLockedValue { $0 } }
    }

    struct Answer: Sendable {
        var status: HTTPResponse.Status
        var body: Data
        /// The session after the call (rotated tokens), when it changed.
        var renewed: ConsoleSession?

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try OutpostJSON.makeDecoder().decode(type, from: body) }

        /// The API's error sentence (its `message`), or a plain one.
        var message: String {
            (try? JSONDecoder().decode(ErrorBody.self, from: body).message) ?? "The server answered \(status.code)."
        }

        var errorCode: String? { try? JSONDecoder().decode(ErrorBody.self, from: body).error }

        private struct ErrorBody: Decodable {
            var error: String
            var message: String?
        }
    }

    /// The session ended (its refresh token was refused): the browser signs in again.
    struct SessionEnded: Error {}

    /// The router has not been built yet (never while the server serves).
    struct NotReady: Error {}

    let responder: Responder

    /// One call without a session (sign-in, refresh).
    func call(
        _ line: RequestLine, json: Data? = nil, from request: Request,
        context: AppRequestContext, bearer: String? = nil, contentType: String = "application/json",
        body: RequestBody? = nil
    ) async throws -> (HTTPResponse.Status, Data) {
        guard let responder = responder.value else { throw NotReady() }
        var fields = HTTPFields()
        if let bearer { fields[.authorization] = "Bearer \(bearer)" }
        if json != nil || body != nil { fields[.contentType] = contentType }
        // Where the browser is: the API's rate limits count it, as for any client.
        if let forwarded = request.headers[.xForwardedFor] { fields[.xForwardedFor] = forwarded }
        if let length = request.headers[.contentLength], body != nil { fields[.contentLength] = length }
        let head = HTTPRequest(
            method: HTTPRequest.Method(line.method), scheme: "http", authority: "console", path: line.path,
            headerFields: fields)
        let requestBody =
            body ?? json.map { RequestBody(buffer: ByteBuffer(bytes: $0)) } ?? RequestBody(buffer: ByteBuffer())
        var inner = context
        inner.caller = nil
        let innerRequest = Request(head: head, body: requestBody)
        let response: Response
        do {
            response = try await responder.respond(to: innerRequest, context: inner)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: innerRequest, context: inner)
        }
        let collector = Collector()
        try await response.body.write(CollectingWriter(collector: collector))
        return (response.status, collector.data)
    }

    /// A call as the session's user; refreshes an expired access token once.
    func call(
        _ line: RequestLine, json: Data? = nil, session: ConsoleSession, from request: Request,
        context: AppRequestContext, contentType: String = "application/json", body: RequestBody? = nil
    ) async throws -> Answer {
        let (status, data) = try await call(
            line, json: json, from: request, context: context, bearer: session.accessToken,
            contentType: contentType, body: body)
        guard status == .unauthorized, body == nil else { return Answer(status: status, body: data, renewed: nil) }
        let renewed = try await refresh(session, from: request, context: context)
        let (again, answer) = try await call(
            line, json: json, from: request, context: context, bearer: renewed.accessToken,
            contentType: contentType)
        return Answer(status: again, body: answer, renewed: renewed)
    }

    /// A rotated pair for `session`, or ``SessionEnded``.
    func refresh(
        _ session: ConsoleSession, from request: Request, context: AppRequestContext
    ) async throws
        -> ConsoleSession
    {
        let body = try JSONEncoder().encode(["refreshToken": session.refreshToken])
        let (status, data) = try await call(API.refresh.line(), json: body, from: request, context: context)
        guard status == .ok, let pair = try? OutpostJSON.makeDecoder().decode(TokenPair.self, from: data) else {
            throw SessionEnded()
        }
        return ConsoleSession(
            nonce: session.nonce, accessToken: pair.accessToken, refreshToken: pair.refreshToken,
            name: pair.user.name)
    }

    private final class Collector: @unchecked Sendable {
        var data = Data()
    }

    private struct CollectingWriter: ResponseBodyWriter {
        let collector: Collector
        mutating func write(_ buffer: ByteBuffer) async throws {
            collector.data.append(contentsOf: buffer.readableBytesView)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
