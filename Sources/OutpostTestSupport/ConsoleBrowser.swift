import Foundation
import HTTPTypes
import OutpostServer

/// A browser of the organizer console in a test: it keeps the cookies the console sets, sends
/// them back, reads a page's CSRF token, and posts forms as a same-origin page would (or, when
/// told, as another site would).
public final class ConsoleBrowser: @unchecked Sendable {
    public let api: TestAPI
    public private(set) var cookies: [String: String] = [:]
    /// The last page's CSRF token.
    public private(set) var csrf: String?

    public init(_ api: TestAPI) { self.api = api }

    /// GET `path` with the cookies; remembers what it sets and the page's CSRF token.
    @discardableResult
    public func get(_ path: String) async throws -> APIResponse {
        try await request(path)
    }

    /// GET `path` with the cookies and `extra` headers (an EventSource's `Last-Event-ID`).
    @discardableResult
    public func request(_ path: String, headers extra: HTTPFields = [:]) async throws -> APIResponse {
        var headers = cookieHeader()
        for field in extra { headers[field.name] = field.value }
        let response = try await api.request(.get, path, headers: headers)
        remember(response)
        return response
    }

    /// A form post (`application/x-www-form-urlencoded`); `csrf` is the page's token unless
    /// given, `origin` the console's own unless given.
    @discardableResult
    public func post(
        _ path: String, _ fields: [(String, String)], csrf token: String? = nil, withToken: Bool = true,
        origin: String? = "http://localhost", headers extra: HTTPFields = [:]
    ) async throws -> APIResponse {
        var fields = fields
        if withToken, let value = token ?? csrf { fields.append(("_csrf", value)) }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }.joined(separator: "&")
        var headers = cookieHeader()
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let origin { headers[.origin] = origin }
        for field in extra { headers[field.name] = field.value }
        let response = try await api.request(.post, path, body: Array(body.utf8), headers: headers)
        remember(response)
        return response
    }

    /// An upload as the import page's script sends it: the body as it is, with the browser's
    /// cookies, origin and the page's CSRF token in `X-CSRF-Token`.
    public func upload(
        _ path: String, body: [UInt8], contentType: String = "text/csv", origin: String? = "http://localhost"
    ) async throws -> APIResponse {
        var headers = cookieHeader()
        headers[.contentType] = contentType
        headers[HTTPField.Name("X-CSRF-Token")!] = csrf ?? ""
        if let origin { headers[.origin] = origin }
        let response = try await api.request(.post, path, body: body, headers: headers)
        remember(response)
        return response
    }

    /// Signs in through the console's form.
    public func signIn(email: String, password: String) async throws -> APIResponse {
        try await get(ConsolePages.signInPage.path())
        return try await post(ConsolePages.signIn.path(), [("email", email), ("password", password)])
    }

    public func cookieHeader() -> HTTPFields {
        guard !cookies.isEmpty else { return [:] }
        return [.cookie: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")]
    }

    /// Forgets a cookie (as a browser does when it expires).
    public func drop(_ name: String) { cookies[name] = nil }

    public func set(_ name: String, _ value: String) { cookies[name] = value }

    private func remember(_ response: APIResponse) {
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = String(pair[0])
            let attributes = header.lowercased()
            if pair[1].isEmpty || attributes.contains("max-age=0") {
                cookies[name] = nil
            } else {
                cookies[name] = String(pair[1])
            }
        }
        // The page's own form comes after the header's sign-out form: its token is the last one
        // (an empty one, as a page that forgot it would send, is kept as empty).
        let tokens = response.text.matches(of: /(?:name="_csrf" value|data-csrf)="([^"]*)"/).map { String($0.1) }
        if let last = tokens.last { csrf = last }
    }
}
