import HTTPTypes
import Hummingbird

/// The console's security headers on every answer under `/admin`: scripts, styles and requests
/// only from the console's own origin and nothing inline (`Content-Security-Policy`), never in a
/// frame (`frame-ancestors`, `X-Frame-Options`), types as declared, no referrer to elsewhere, and
/// pages never stored (they hold guests' names and e-mails).
struct ConsoleHeaders: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Whether the browser reached the console over HTTPS: then every cookie is `Secure`.
    let secure: @Sendable (Request, Context) -> Bool

    /// HTTPS here, `--secure-cookies`, or a trusted proxy's `X-Forwarded-Proto: https` (the
    /// header is ignored from any other peer).
    static func isSecure(_ request: Request, _ context: Context, configuration: ServerConfiguration) -> Bool {
        if configuration.tls != nil || configuration.secureCookies { return true }
        guard let peer = context.remoteAddress?.ipAddress, configuration.trustedProxies.contains(peer) else {
            return false
        }
        return request.headers[.xForwardedProto]?.split(separator: ",").last?
            .trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        let cookies = response.headers[values: .setCookie]
        if !cookies.isEmpty, secure(request, context) {
            response.headers[values: .setCookie] = cookies.map { cookie in
                let attributes = cookie.lowercased().split(separator: ";").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                return attributes.contains("secure") ? cookie : cookie + "; Secure"
            }
        }
        return response
    }
}

extension HTTPField.Name {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
