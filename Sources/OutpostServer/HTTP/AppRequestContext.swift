import Hummingbird
import NIOCore
import OutpostProtocol

/// The request context of every route: who is calling (once authenticated) and from where.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var remoteAddress: SocketAddress?
    public var caller: Caller?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        caller = nil
    }
}

/// The context of routes behind the authenticator: `caller` is not optional.
public struct AuthenticatedContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let caller: Caller

    public init(context: AppRequestContext) throws {
        guard let caller = context.caller else { throw APIError.unauthorized }
        coreContext = context.coreContext
        self.caller = caller
    }

    /// Throws `forbidden` unless the caller has one of `roles`.
    func require(_ roles: Set<UserRole>) throws {
        guard roles.contains(caller.role) else { throw APIError.forbidden }
    }
}
