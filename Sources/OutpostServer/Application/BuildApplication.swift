import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOSSL
import OutpostCore
import OutpostProtocol
import PostgresNIO
import ServiceLifecycle

/// The pieces a configuration turns into: the store, and the services that must run beside
/// the HTTP server (the PostgreSQL pool).
public struct ServerParts: Sendable {
    public var store: Store
    public var services: [any Service]
    /// The PostgreSQL gateway, when the store is PostgreSQL.
    public var postgres: PostgresDatabase?
}

public enum OutpostServer {
    /// Opens the configured database gateway (nothing is migrated yet).
    public static func makeParts(_ configuration: ServerConfiguration, logger: Logger) throws -> ServerParts {
        switch configuration.store {
        case .sqlite(let path):
            return ServerParts(store: Store(database: try SQLiteDatabase(path: path)), services: [], postgres: nil)
        case .sqliteInMemory:
            return ServerParts(store: Store(database: try SQLiteDatabase()), services: [], postgres: nil)
        case .postgres(let url):
            let database = try PostgresDatabase(url: url, poolSize: configuration.postgresPoolSize, logger: logger)
            return ServerParts(store: Store(database: database), services: [database], postgres: database)
        }
    }

    /// The composition root: the exact application `outpost serve` runs. Migrations run before
    /// the server accepts connections; SIGTERM and SIGINT drain in-flight requests, then stop.
    /// Throws when the TLS files cannot be read.
    public static func buildApplication(
        _ configuration: ServerConfiguration, parts: ServerParts, logger: Logger
    ) throws -> some ApplicationProtocol {
        let dependencies = ServerDependencies(configuration: configuration, store: parts.store, logger: logger)
        let router = buildRouter(dependencies)
        var app = Application(
            router: router,
            server: try httpServer(configuration),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "outpost",
                availableConnectionsDelegate: .maximum(configuration.maxConnections, logger: logger)),
            services: parts.services + [
                IdempotencyRetentionService(store: parts.store, clock: configuration.clock, logger: logger)
            ]
                + (configuration.mailQueuePoll.map { [MailQueueService(queue: dependencies.mailQueue, interval: $0)] }
                    ?? []),
            logger: logger)
        app.beforeServerStarts {
            try await parts.store.migrate()
            logger.info("storage ready", metadata: ["store": "\(parts.store.database.dialect.rawValue)"])
            dependencies.mailQueue.markReady()
        }
        return app
    }

    /// HTTP/1.1 with the idle timeout and ``CloseWhenClientLeaves``, inside TLS when the
    /// configuration names its files.
    static func httpServer(_ configuration: ServerConfiguration) throws -> HTTPServerBuilder {
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [CloseWhenClientLeaves()],
            idleTimeout: .nanoseconds(Int64(configuration.idleTimeout * 1_000_000_000)))
        guard let files = configuration.tls else { return .http1(configuration: http) }
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(files.certificateChain).map {
                NIOSSLCertificateSource.certificate($0)
            }
            let key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
            tls.minimumTLSVersion = .tlsv12
            return try .tls(.http1(configuration: http), tlsConfiguration: tls)
        } catch {
            throw TLSFilesUnreadable(files: files, reason: "\(error)")
        }
    }

    /// Every route of the API, behind error translation and metrics.
    public static func buildRouter(_ dependencies: ServerDependencies) -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: dependencies.metrics))
        let routes = RouteTable()
        router.add(middleware: ErrorMiddleware(routes: routes))
        HealthRoutes(dependencies: dependencies).register(on: router)
        AuthRoutes(dependencies: dependencies).register(on: router.group())
        TwoFactorRoutes(dependencies: dependencies).registerSignIn(on: router.group())
        PasswordLinkRoutes(dependencies: dependencies).registerUse(on: router.group())
        EmailCodeRoutes(dependencies: dependencies).register(on: router.group())
        SSOSignInRoutes(dependencies: dependencies).register(on: router.group())
        AttendeeConsentRoutes(dependencies: dependencies).register(on: router)
        let authenticated = router.group()
            .add(
                middleware: AuthenticatorMiddleware(
                    tokens: { try await dependencies.accessTokens() }, revoked: dependencies.revokedSessions,
                    store: dependencies.store, clock: dependencies.clock)
            )
            .group(context: AuthenticatedContext.self)
        EventRoutes(dependencies: dependencies).register(on: authenticated)
        TwoFactorRoutes(dependencies: dependencies).register(on: authenticated)
        RosterRoutes(dependencies: dependencies).register(on: authenticated)
        CheckInRoutes(dependencies: dependencies).register(on: authenticated)
        WalkInRoutes(dependencies: dependencies).register(on: authenticated)
        NoteRoutes(dependencies: dependencies).register(on: authenticated)
        BadgeRoutes(dependencies: dependencies).register(on: authenticated)
        GuestRoutes(dependencies: dependencies).register(on: authenticated)
        TicketRoutes(dependencies: dependencies).register(on: authenticated)
        DashboardRoutes(dependencies: dependencies).register(on: authenticated)
        DeviceRoutes(dependencies: dependencies).register(on: authenticated)
        ExportRoutes(dependencies: dependencies).register(on: authenticated)
        TicketMailRoutes(dependencies: dependencies).register(on: authenticated)
        KioskRoutes(dependencies: dependencies).register(on: authenticated)
        UserRoutes(dependencies: dependencies).register(on: authenticated)
        PasswordLinkRoutes(dependencies: dependencies).register(on: authenticated)
        AuditRoutes(dependencies: dependencies).register(on: authenticated)
        ContactRoutes(dependencies: dependencies).register(on: authenticated)
        ActivityRoutes(dependencies: dependencies).register(on: authenticated)
        TenantSettingsRoutes(dependencies: dependencies).register(on: authenticated)
        SSOSettingsRoutes(dependencies: dependencies).register(on: authenticated)
        ZoneRoutes(dependencies: dependencies).register(on: authenticated)
        PickupRoutes(dependencies: dependencies).register(on: authenticated)
        LeadRoutes(dependencies: dependencies).register(on: authenticated)
        TicketBlockRoutes(dependencies: dependencies).register(on: authenticated)
        StationRoutes(dependencies: dependencies).register(on: authenticated)
        MeshRoutes(dependencies: dependencies).register(on: authenticated)
        ConsentRoutes(dependencies: dependencies).register(on: authenticated)
        TrackingRoutes(dependencies: dependencies).register(on: authenticated)
        PrivacyRoutes(dependencies: dependencies).register(on: authenticated)
        // The organizer console: pages over the API, which it calls in process through this
        // router once it is built.
        let responder = ConsoleAPI.Responder()
        ConsoleRoutes(dependencies: dependencies, responder: responder).register(on: router)
        routes.record(router.routes.map { ("\($0.path)", $0.method.rawValue) })
        responder.set(router.buildResponder())
        return router
    }

    /// Creates the first tenant and organizer (`outpost admin bootstrap`).
    public static func bootstrap(
        store: Store, tenant: String, email: String, password: String, name: String, bcryptCost: UInt8 = 12
    ) async throws -> BootstrapResult {
        try await store.migrate()
        let hash = try await PasswordHasher(cost: bcryptCost).hashPassword(password)
        do {
            let created = try await store.bootstrap(tenantName: tenant, email: email, name: name, passwordHash: hash)
            return BootstrapResult(tenantId: created.tenantId, userId: created.userId)
        } catch StoreError.emailTaken {
            throw BootstrapError.emailTaken(email)
        }
    }
}

/// Why `outpost admin bootstrap` refused.
public enum BootstrapError: Error, CustomStringConvertible {
    case emailTaken(String)

    public var description: String {
        switch self {
        case .emailTaken(let email):
            "A user with the e-mail \(email) already exists; bootstrap creates only new organizers."
        }
    }
}

extension OutpostServer {
    /// Runs `body` with an open store, running the PostgreSQL pool beside it when needed, and
    /// checks first that PostgreSQL is reachable so the caller gets one clear error.
    public static func withStore<T: Sendable>(
        _ location: ServerConfiguration.StoreLocation, logger: Logger,
        _ body: @Sendable @escaping (Store) async throws -> T
    ) async throws -> T {
        var configuration = ServerConfiguration()
        configuration.store = location
        let parts = try makeParts(configuration, logger: logger)
        guard let postgres = parts.postgres else { return try await body(parts.store) }
        try await postgres.checkReachableOrExplain()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await postgres.run()
                return nil
            }
            defer { group.cancelAll() }
            let value = try await body(parts.store)
            return value
        }
    }
}

extension PostgresDatabase {
    /// ``checkReachable()``, with failures turned into one sentence naming host, port and cause.
    public func checkReachableOrExplain() async throws {
        do {
            try await checkReachable()
        } catch {
            throw PostgresUnreachable(
                host: configuration.host ?? "?", port: configuration.port ?? 5432, reason: Self.reason(error))
        }
    }

    static func reason(_ error: any Error) -> String {
        var detail = "\(error)"
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            detail = error.underlying.map { "\($0)" } ?? "\(error.code)"
        }
        let lowered = detail.lowercased()
        if lowered.contains("connection refused") { return "connection refused" }
        if lowered.contains("timed out") || lowered.contains("timeout") { return "connection timed out" }
        if lowered.contains("resolve") || lowered.contains("name or service") { return "unknown host" }
        return detail
    }
}

/// The TLS certificate chain or key could not be loaded.
public struct TLSFilesUnreadable: Error, CustomStringConvertible {
    public let files: ServerConfiguration.TLSFiles
    public let reason: String

    public var description: String {
        "Cannot load the TLS certificate chain \(files.certificateChain) or key \(files.privateKey) (\(reason)); both must be PEM files readable by the server."
    }
}

/// PostgreSQL could not be reached or refused the credentials.
public struct PostgresUnreachable: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let reason: String

    public var description: String {
        "Cannot connect to PostgreSQL at \(host):\(port) (\(reason)); check the --postgres URL and that the database is running."
    }
}
