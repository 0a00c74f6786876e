import Hummingbird
import NIOCore
import OutpostProtocol

/// `GET /health`, `GET /metrics`, `GET /v1/client-policy`: no authentication.
struct HealthRoutes {
    let dependencies: ServerDependencies

    func register(on router: Router<AppRequestContext>) {
        router.on(API.health) { _, _ in try HTTPHelpers.json(HealthStatus()) }
        router.on(API.clientPolicy) { [dependencies] _, _ in
            try HTTPHelpers.json(dependencies.configuration.clientPolicy)
        }
        // Private by default: only a loopback client that no proxy forwarded. A reverse proxy on
        // this machine is a loopback peer, so a forwarded request is refused whoever sent it.
        router.on(API.metrics) { [dependencies] request, context in
            let configuration = dependencies.configuration
            if configuration.metricsLoopbackOnly,
                request.isForwarded
                    || !ClientAddress.isLoopback(
                        context.clientAddress(of: request, trustedProxies: configuration.trustedProxies))
            {
                throw APIError.notFound
            }
            return HTTPHelpers.bytes(
                dependencies.metrics.exposition(), status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}
