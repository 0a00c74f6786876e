import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOHTTP1
import OutpostProtocol

/// An error answer of the API: a status, a stable snake_case `error` code and a sentence.
public struct APIError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: APIErrorCode
    public var message: String
    public var rules: [String]?
    public var challenge: String?
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, _ code: APIErrorCode, _ message: String, rules: [String]? = nil,
        challenge: String? = nil, headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.rules = rules
        self.challenge = challenge
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try body())))
    }

    /// The answer as a batch entry carries it: the status and the body the single route sends.
    func storedAnswer() throws -> StoredAnswer {
        StoredAnswer(status: Int(status.code), body: try body())
    }

    /// The JSON body this error answers with (also embedded in a batch's answer for one entry).
    func body() throws -> [UInt8] {
        Array(try OutpostJSON.encode(ErrorBody(code: code, message: message, rules: rules, challenge: challenge)))
    }

    static let notFound = APIError(.notFound, .notFound, "Not found.")
    static let unauthorized = APIError(
        .unauthorized, .unauthorized, "Sign in again: the access token is missing, expired or invalid.")
    static let forbidden = APIError(.forbidden, .forbidden, "Your role does not allow this.")
    static let accountRemoved = APIError(
        .unauthorized, .accountRemoved,
        "Your account was removed by your organizer; it cannot sign in, and the server no longer accepts its entries.")

    static func invalidRequest(_ message: String, status: HTTPResponse.Status = .badRequest) -> APIError {
        APIError(status, .invalidRequest, message)
    }
}

/// Turns whatever a route throws into the API's error shape: unmatched routes become
/// `not_found`, and unexpected failures a logged 500 that reveals nothing.
/// A known path asked with a method it does not serve is `405 method_not_allowed` with `Allow`;
/// a request the client cut short or garbled is a 400, logged at debug level only (it is the
/// client's network, not the server, that failed).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPParserError {
            context.logger.debug("malformed or truncated request", metadata: ["error": "\(error)"])
            throw APIError.invalidRequest("The request was malformed or ended early.")
        } catch let error as HTTPError {
            switch error.status {
            case .notFound:
                let allowed = routes.methods(forPath: request.uri.path)
                guard allowed.isEmpty else {
                    throw APIError(
                        .methodNotAllowed, .methodNotAllowed,
                        "\(request.method.rawValue) is not allowed here; use \(allowed.joined(separator: ", ")).",
                        headers: [.allow: allowed.joined(separator: ", ")])
                }
                throw APIError.notFound
            case .methodNotAllowed:
                throw APIError(.methodNotAllowed, .methodNotAllowed, "This method is not allowed here.")
            case .contentTooLarge:
                throw APIError(.contentTooLarge, .payloadTooLarge, "The request body is too large.")
            case .unauthorized: throw APIError.unauthorized
            default: throw APIError(error.status, .invalidRequest, error.body ?? "The request could not be handled.")
            }
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError(.internalServerError, .internalError, "Something went wrong on the server; try again.")
        }
    }
}

/// The methods each route path serves, recorded once the routes are registered.
final class RouteTable: Sendable {
    private let patterns = NIOLockedValueBox<[(segments: [String], methods: Set<String>)]>([])

    /// Records the router's routes (call after every route is registered).
    func record(_ routes: [(path: String, method: String)]) {
        var byPath: [[String]: Set<String>] = [:]
        for route in routes {
            byPath[Self.segments(route.path), default: []].insert(route.method)
        }
        patterns.withLockedValue { $0 = byPath.map { ($0.key, $0.value) } }
    }

    /// The methods served at `path` (sorted), empty when no route has this path. Where a
    /// literal segment and a parameter both match (`/v1/contacts/changes` and
    /// `/v1/contacts/{contactId}`), the router takes the literal one, and so does this: only the
    /// most literal matching patterns count.
    func methods(forPath path: String) -> [String] {
        let asked = Self.segments(path)
        var matched: [(literal: [Bool], methods: Set<String>)] = []
        for pattern in patterns.withLockedValue({ $0 }) where pattern.segments.count == asked.count {
            let matches = zip(pattern.segments, asked).allSatisfy { expected, actual in
                Self.isParameter(expected) ? !actual.isEmpty : expected == actual
            }
            if matches { matched.append((pattern.segments.map { !Self.isParameter($0) }, pattern.methods)) }
        }
        guard let best = matched.map(\.literal).max(by: Self.lessLiteral) else { return [] }
        return Set(matched.filter { $0.literal == best }.flatMap(\.methods)).sorted()
    }

    /// Whether `a` is less literal than `b`: at the first place they differ, `b` has the literal.
    static func lessLiteral(_ a: [Bool], _ b: [Bool]) -> Bool {
        for (left, right) in zip(a, b) where left != right { return right }
        return false
    }

    private static func isParameter(_ segment: String) -> Bool {
        segment.hasPrefix("{") || segment.hasPrefix(":")
    }

    private static func segments(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}
