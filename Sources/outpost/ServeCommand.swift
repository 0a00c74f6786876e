import ArgumentParser
import Foundation
import Hummingbird
import Logging
import OutpostServer

/// `outpost serve`: the HTTP server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Outpost server.",
        discussion: """
            With neither --sqlite nor --postgres the server keeps its data in \
            ./outpost-data/outpost.sqlite. Schema migrations run before the server accepts \
            connections. SIGTERM or SIGINT stops it after in-flight requests finish.

            On a venue network serve HTTPS: either give --tls-cert and --tls-key, or run behind \
            a TLS reverse proxy on the same machine and name it with --trusted-proxy so the \
            per-address sign-in limit sees the real client. Devices refuse plain http:// to \
            any server but this machine's loopback.
            """
    )

    @OptionGroup var store: StoreOptions

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free port).")
    var port = 8080

    @Option(
        name: .customLong("dedupe-window"),
        help: "Seconds after a first check-in during which another scan of the guest counts as concurrent.")
    var dedupeWindow: Double = 30

    @Option(name: .customLong("bcrypt-cost"), help: "bcrypt work factor for new password and passcode hashes (4-31).")
    var bcryptCost: UInt8 = 12

    @Option(
        name: .customLong("access-ttl"),
        help: "Seconds an access token lasts (the soak makes them short so devices refresh often).")
    var accessTTL: Double = 15 * 60

    @Option(
        name: .customLong("refresh-grace"),
        help: "Seconds after a refresh in which the same refresh token gets the same successor (0-60).")
    var refreshGrace: Double = 60

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("Serve HTTPS with this PEM certificate chain (the server's first).", valueName: "file"))
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy's IP address whose X-Forwarded-For names the client (repeatable).", valueName: "ip"))
    var trustedProxies: [String] = []

    @Flag(
        name: .customLong("secure-cookies"),
        help: "Mark the console's cookies Secure always (behind a TLS proxy; also when it sends X-Forwarded-Proto).")
    var secureCookies = false

    @Option(name: .customLong("idle-timeout"), help: "Seconds an idle client connection stays open.")
    var idleTimeout: Double = 60

    @Option(name: .customLong("max-connections"), help: "Most client connections open at once.")
    var maxConnections = 1_000

    @Option(
        name: .customLong("postgres-pool"),
        help: "Most connections to PostgreSQL at once (with --postgres; PERFORMANCE.md has what sizes gave).")
    var postgresPool = 8

    @Flag(
        name: .customLong("no-group-commit"),
        help:
            "Give each check-in request a transaction of its own instead of committing concurrent ones together (for measuring)."
    )
    var noGroupCommit = false

    @Option(name: .customLong("import-rows"), help: "Most guest rows one CSV import reads.")
    var importRows = 100_000

    @Option(
        name: .customLong("kek-file"),
        help: ArgumentHelp(
            "The key-encryption keys that wrap each tenant's data key for contacts' sensitive fields, one "
                + "'<id>:<base64 32 bytes>' per line, current first (created with one key if missing; "
                + "default: contact-keys beside the SQLite file, or ./outpost-data/contact-keys). "
                + "OUTPOST_KEK, in the same form, overrides it. Every instance on one database needs the same keys.",
            valueName: "file"))
    var kekFile: String?

    @Option(
        name: .customLong("smtp-relay"),
        help: ArgumentHelp(
            "The SMTP relay that carries sign-in codes, HOST:PORT (without it, passwordless sign-in is off).",
            valueName: "host:port"))
    var smtpRelay: String?

    @Option(name: .customLong("mail-from"), help: "The From of the server's mail.")
    var mailFrom = "Outpost <no-reply@outpost.localhost>"

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The server's address as browsers reach it, e.g. https://checkin.example.org: single sign-on's callback is under it (without it, each request's own host).",
            valueName: "url"))
    var publicURL: String?

    @Flag(name: .customLong("metrics-public"), help: "Serve /metrics to every client, not only loopback ones.")
    var metricsPublic = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard dedupeWindow >= 0 else { throw ValidationError("--dedupe-window must not be negative.") }
        guard accessTTL >= 5 else { throw ValidationError("--access-ttl must be at least 5 seconds.") }
        guard (0...60).contains(refreshGrace) else { throw ValidationError("--refresh-grace must be from 0 to 60.") }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be from 4 to 31.") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together.")
        }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be positive.") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive.") }
        guard importRows > 0 else { throw ValidationError("--import-rows must be positive.") }
        guard (1...1_000).contains(postgresPool) else {
            throw ValidationError("--postgres-pool must be from 1 to 1000.")
        }
        if let smtpRelay, SMTPClient(relay: smtpRelay) == nil {
            throw ValidationError("--smtp-relay is HOST:PORT, e.g. 127.0.0.1:2525.")
        }
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
                url.query == nil
            else {
                throw ValidationError("--public-url is the server's http(s) address, e.g. https://checkin.example.org.")
            }
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
    }

    func run() async throws {
        var logger = Logger(label: "outpost")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = ServerConfiguration(
            store: store.location, host: host, port: port, dedupeWindow: dedupeWindow, bcryptCost: bcryptCost,
            accessTokenLifetime: accessTTL, refreshGraceWindow: refreshGrace, metricsLoopbackOnly: !metricsPublic,
            postgresPoolSize: postgresPool,
            tls: tlsCert.map { ServerConfiguration.TLSFiles(certificateChain: $0, privateKey: tlsKey ?? "") },
            trustedProxies: Set(trustedProxies), idleTimeout: idleTimeout, maxConnections: maxConnections,
            importRowLimit: importRows,
            keyEncryptionKeys: try KeyEncryptionKeys.configured(file: kekFile, store: store.location),
            smtpRelay: smtpRelay.flatMap(SMTPClient.init(relay:)), mailFrom: mailFrom)
        configuration.secureCookies = secureCookies
        configuration.groupCommit = !noGroupCommit
        configuration.publicURL = publicURL.flatMap(URL.init(string:))
        let parts = try OutpostServer.makeParts(configuration, logger: logger)
        if let postgres = parts.postgres { try await postgres.checkReachableOrExplain() }
        let app = try OutpostServer.buildApplication(configuration, parts: parts, logger: logger)
        try await app.runService()
        logger.info("server stopped")
    }
}
