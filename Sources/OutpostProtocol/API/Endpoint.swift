import Foundation
import OutpostCore

/// One route of the HTTP API, described once: its method, its path template (the names in
/// braces are its path parameters, in order), the body it takes and the answer it gives. The
/// server registers its handlers under these, and every client (the device's, the lab's, the
/// console's in-process calls) builds its requests from them; `openapi.yaml` documents the same
/// table, and a test holds the two equal.
///
/// `Body` and `Answer` are the JSON types on the wire (``NoBody`` when there is none, ``Bytes``
/// for CSV and PDF); each `Parameter` is the typed value of one path parameter.
public struct Endpoint<Body, Answer, each Parameter: PathValue>: Sendable, CustomStringConvertible {
    public let method: HTTPVerb
    /// The path with its parameters in braces: `/v1/events/{eventId}/checkins`.
    public let template: String

    public init(_ method: HTTPVerb, _ template: String) {
        self.method = method
        self.template = template
    }

    /// The path for these parameters, with the query (names and values percent-encoded; a nil
    /// value is left out).
    public func path(_ parameter: repeat each Parameter, query: [(String, String?)] = []) -> String {
        var values: [String] = []
        for value in repeat each parameter { values.append(value.pathSegment) }
        return Self.fill(template, with: values) + Self.queryString(query)
    }

    /// The request line for these parameters: this endpoint's method and ``path(_:query:)``.
    public func line(_ parameter: repeat each Parameter, query: [(String, String?)] = []) -> RequestLine {
        RequestLine(method: method, path: path(repeat each parameter, query: query))
    }

    /// The route without its types, for tables and tests.
    public var route: Route { Route(method: method, template: template, parameterTypes: parameterTypes) }

    /// The names of the path parameters, in order (`["eventId", "guestId"]`).
    public var parameterNames: [String] { Route.placeholders(in: template) }

    /// The types of the path parameters, in order: as many as the template names.
    public var parameterTypes: [String] {
        var types: [String] = []
        for type in repeat (each Parameter).self { types.append("\(type)") }
        return types
    }

    public var description: String { "\(method.rawValue) \(template)" }

    static func fill(_ template: String, with values: [String]) -> String {
        var out = ""
        var values = values.makeIterator()
        var inside = false
        for character in template {
            switch character {
            case "{": inside = true
            case "}":
                inside = false
                out += values.next() ?? ""
            default: if !inside { out.append(character) }
            }
        }
        return out
    }

    /// `?a=1&b=2`, or nothing when no value is given.
    public static func queryString(_ items: [(String, String?)]) -> String {
        let given = items.compactMap { name, value in value.map { (name, $0) } }
        guard !given.isEmpty else { return "" }
        return "?" + given.map { "\(escape($0))=\(escape($1))" }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }

    private static var queryAllowed: CharacterSet {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return allowed
    }
}

/// A request's method and path (with its query), made by ``Endpoint/line(_:query:)``: what the
/// clients send.
public struct RequestLine: Sendable, Hashable, CustomStringConvertible {
    public let method: HTTPVerb
    public let path: String

    /// The route this line is of, when its path has no parameters and no query (the sign-in
    /// routes'), else a route no endpoint has.
    public var route: Route { Route(method: method, template: path) }

    /// A line by hand: for a probe that sends what no endpoint would (a malformed id).
    public init(method: HTTPVerb, path: String) {
        self.method = method
        self.path = path
    }

    public var description: String { "\(method.rawValue) \(path)" }
}

/// A route's method and template, without its body and answer types (``API/all``).
public struct Route: Sendable, Hashable, CustomStringConvertible {
    public let method: HTTPVerb
    public let template: String
    /// The path parameters' types, in order (`["TypedID<EventIDKind>"]`).
    public let parameterTypes: [String]

    public init(method: HTTPVerb, template: String, parameterTypes: [String] = []) {
        self.method = method
        self.template = template
        self.parameterTypes = parameterTypes
    }

    /// The names of the path parameters, in order (`["eventId", "guestId"]`).
    public var parameterNames: [String] { Self.placeholders(in: template) }

    public var description: String { "\(method.rawValue) \(template)" }

    static func placeholders(in template: String) -> [String] {
        template.split(separator: "{").dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) }
    }
}

/// The HTTP methods the API uses.
public enum HTTPVerb: String, Sendable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
}

/// A value that is one segment of a path: written as `pathSegment`, read back by
/// `init?(pathSegment:)` (nil for text that is not one, which the server answers as not found).
public protocol PathValue: Sendable {
    init?(pathSegment: Substring)
    var pathSegment: String { get }
}

extension TypedID: PathValue {
    public init?(pathSegment: Substring) { self.init(wire: String(pathSegment)) }
    public var pathSegment: String { wire }
}

/// A segment the route checks itself (a day, a week, a device's own id).
extension String: PathValue {
    public init?(pathSegment: Substring) { self = String(pathSegment) }
    public var pathSegment: String {
        addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? self
    }
}

/// No body, or an answer without one (204).
public struct NoBody: Sendable, Codable, Equatable {
    public init() {}
}

/// A body that is not JSON (CSV, PDF): its bytes as they are.
public struct Bytes: Sendable, Equatable {
    public var data: Data
    public init(_ data: Data) { self.data = data }
}
