import Foundation
import Hummingbird
import OutpostProtocol

/// An error answer of the API: a status, a stable snake_case `error` code and a sentence.
public struct APIError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var rules: [String]?
    public var headers: HTTPFields

    public init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String, rules: [String]? = nil,
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.rules = rules
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let body = try OutpostJSON.encode(ErrorBody(error: code, message: message, rules: rules))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static let notFound = APIError(.notFound, "not_found", "Not found.")
    static let unauthorized = APIError(
        .unauthorized, "unauthorized", "Sign in again: the access token is missing, expired or invalid.")
    static let forbidden = APIError(.forbidden, "forbidden", "Your role does not allow this.")

    static func invalidRequest(_ message: String, status: HTTPResponse.Status = .badRequest) -> APIError {
        APIError(status, "invalid_request", message)
    }
}

/// Turns whatever a route throws into the API's error shape: unmatched routes become
/// `not_found`, and unexpected failures a logged 500 that reveals nothing.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            switch error.status {
            case .notFound: throw APIError.notFound
            case .methodNotAllowed:
                throw APIError(.methodNotAllowed, "method_not_allowed", "This method is not allowed here.")
            case .contentTooLarge:
                throw APIError(.contentTooLarge, "payload_too_large", "The request body is too large.")
            case .unauthorized: throw APIError.unauthorized
            default: throw APIError(error.status, "invalid_request", error.body ?? "The request could not be handled.")
            }
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError(.internalServerError, "internal_error", "Something went wrong on the server; try again.")
        }
    }
}
