import HTTPTypes
import Hummingbird
import OutpostProtocol

extension RouterMethods {
    /// Registers `handler` under an endpoint of the route description (``API``, ``ConsolePages``):
    /// its method and its path, taken from that one table.
    @discardableResult
    func on<Body, Answer, each Parameter: PathValue>(
        _ endpoint: Endpoint<Body, Answer, repeat each Parameter>,
        use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        on(RouterPath(endpoint.template), method: HTTPRequest.Method(endpoint.method), use: handler)
    }
}

extension HTTPRequest.Method {
    init(_ verb: HTTPVerb) {
        switch verb {
        case .get: self = .get
        case .post: self = .post
        case .put: self = .put
        case .patch: self = .patch
        case .delete: self = .delete
        }
    }
}

extension Endpoint {
    /// This request's path parameters, typed and in order; one that does not parse (an id that
    /// is not a UUID) is the API's plain 404, as an unknown id is.
    func parameters(in context: some RequestContext) throws -> (repeat each Parameter) {
        var names = parameterNames.makeIterator()
        return (repeat try Self.parameter((each Parameter).self, named: names.next(), in: context))
    }

    private static func parameter<Value: PathValue>(
        _ type: Value.Type, named name: String?, in context: some RequestContext
    ) throws -> Value {
        guard let name, let text = context.parameters.get(name), let value = Value(pathSegment: Substring(text)) else {
            throw APIError.notFound
        }
        return value
    }
}
