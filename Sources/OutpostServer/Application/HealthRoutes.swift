import Hummingbird
import NIOCore
import OutpostProtocol

/// `GET /health`, `GET /metrics`, `GET /v1/client-policy`: no authentication.
struct HealthRoutes {
    let dependencies: ServerDependencies

    func register(on router: Router<AppRequestContext>) {
        router.get("health") { _, _ in try HTTPHelpers.json(HealthStatus()) }
        router.get("v1/client-policy") { [dependencies] _, _ in
            try HTTPHelpers.json(dependencies.configuration.clientPolicy)
        }
        router.get("metrics") { [dependencies] _, context in
            if dependencies.configuration.metricsLoopbackOnly, let address = context.remoteAddress,
                !Self.isLoopback(address)
            {
                throw APIError.notFound
            }
            return HTTPHelpers.bytes(
                dependencies.metrics.exposition(), status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return true }  // Unix sockets are local.
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
