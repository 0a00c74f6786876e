import Foundation
import OutpostCore
import OutpostProtocol

/// Everything that shapes a server, as one plain value (the composition root's input).
public struct ServerConfiguration: Sendable {
    /// Where the server keeps its data.
    public enum StoreLocation: Sendable, Equatable {
        /// An SQLite file, created with its directory if missing.
        case sqlite(path: String)
        /// A private in-memory SQLite database (tests).
        case sqliteInMemory
        /// A PostgreSQL database URL.
        case postgres(url: String)
    }

    /// The certificate chain and private key (PEM files) of a server that speaks HTTPS itself.
    public struct TLSFiles: Sendable, Equatable {
        public var certificateChain: String
        public var privateKey: String

        public init(certificateChain: String, privateKey: String) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }

    public var store: StoreLocation
    public var host: String
    public var port: Int
    /// A second scan of a checked-in guest within this many seconds is recorded as `concurrent`.
    public var dedupeWindow: TimeInterval
    public var clock: WallClock
    public var bcryptCost: UInt8
    public var accessTokenLifetime: TimeInterval
    public var refreshTokenLifetime: TimeInterval
    /// A refresh token presented again this soon after its rotation, while its successor is
    /// unused, gets the same successor instead of revoking the sign-in (a lost answer).
    public var refreshGraceWindow: TimeInterval
    /// Failed sign-ins allowed per e-mail, and per client address, within ``signInWindow``.
    public var signInFailuresPerEmail: Int
    public var signInFailuresPerAddress: Int
    public var signInWindow: TimeInterval
    /// Serve `/metrics` only to loopback clients.
    public var metricsLoopbackOnly: Bool
    public var clientPolicy: ClientPolicy
    /// Most PostgreSQL connections one server instance opens. 8 by default: on 2 cores shared
    /// with PostgreSQL, 64 clients checked in 1.6-1.9x faster through 4-8 connections than
    /// through 32, with a third of the p99 (PERFORMANCE.md, "pool size").
    public var postgresPoolSize: Int
    /// Check-ins of one event that arrive while a transaction for it runs are decided and
    /// committed together (``CheckInGroups``). Off, each request is its own transaction, as
    /// before group commit (`serve --no-group-commit`, for measuring one beside the other).
    public var groupCommit = true
    /// HTTPS with these files; nil serves plain HTTP (loopback, or behind a TLS proxy).
    public var tls: TLSFiles?
    /// Peers whose `X-Forwarded-For` names the client (reverse proxies), by exact IP address.
    public var trustedProxies: Set<String>
    /// The console's cookies are always `Secure` (a TLS proxy the server cannot see is in front);
    /// without it they are when the server serves TLS or a trusted proxy says the request came
    /// over HTTPS (`X-Forwarded-Proto: https`).
    public var secureCookies = false
    /// An open connection with no request in progress is closed after this many seconds.
    public var idleTimeout: TimeInterval
    /// Most client connections open at once; past it new connections wait to be accepted.
    public var maxConnections: Int
    /// Most guests one CSV import reads (the body is capped at 32 MiB besides).
    public var importRowLimit: Int
    /// The key-encryption keys that wrap each tenant's data key (contacts' sensitive fields).
    /// Every instance on one database needs the same ring; nil makes a fresh one-key ring for
    /// this process (tests and in-memory stores only: what it wraps is unreadable after a restart).
    public var keyEncryptionKeys: KeyEncryptionKeys?
    /// The SMTP relay the mail queue sends through (sign-in codes, tickets); nil: the server
    /// sends no mail.
    public var smtpRelay: SMTPClient?
    /// How often this instance's mail sender looks for retries that fell due (a queued mail
    /// wakes it at once); nil: this instance queues mail but leaves the sending to others (and
    /// tests drive a ``MailQueue`` themselves).
    public var mailQueuePoll: Duration? = .seconds(2)
    /// The From of the server's mail.
    public var mailFrom: String
    /// The server's address as browsers reach it (`https://checkin.example.org`): single sign-on
    /// gives identity providers its callback under it. Nil: the request's own host and scheme.
    public var publicURL: URL?
    /// How long one door-dashboard stream (server-sent events) stays open before the browser
    /// reconnects (it also ends when its access token does, so the reconnect refreshes it).
    public var consoleStreamLifetime: TimeInterval = 300
    /// How often an open dashboard stream looks for a change (the event's change counter and
    /// the devices' reports; any server instance's writes).
    public var consoleStreamPoll: Duration = .seconds(1)

    public static let defaultSQLitePath = "./outpost-data/outpost.sqlite"

    public init(
        store: StoreLocation = .sqlite(path: ServerConfiguration.defaultSQLitePath),
        host: String = "127.0.0.1",
        port: Int = 8080,
        dedupeWindow: TimeInterval = 30,
        clock: WallClock = .system,
        bcryptCost: UInt8 = 12,
        accessTokenLifetime: TimeInterval = 15 * 60,
        refreshTokenLifetime: TimeInterval = 30 * 24 * 3600,
        refreshGraceWindow: TimeInterval = 60,
        signInFailuresPerEmail: Int = 5,
        signInFailuresPerAddress: Int = 20,
        signInWindow: TimeInterval = 15 * 60,
        metricsLoopbackOnly: Bool = true,
        clientPolicy: ClientPolicy = ClientPolicy(),
        postgresPoolSize: Int = 8,
        tls: TLSFiles? = nil,
        trustedProxies: Set<String> = [],
        idleTimeout: TimeInterval = 60,
        maxConnections: Int = 1_000,
        importRowLimit: Int = 100_000,
        keyEncryptionKeys: KeyEncryptionKeys? = nil,
        smtpRelay: SMTPClient? = nil,
        mailFrom: String = "Outpost <no-reply@outpost.localhost>"
    ) {
        self.store = store
        self.host = host
        self.port = port
        self.dedupeWindow = dedupeWindow
        self.clock = clock
        self.bcryptCost = bcryptCost
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.refreshGraceWindow = refreshGraceWindow
        self.signInFailuresPerEmail = signInFailuresPerEmail
        self.signInFailuresPerAddress = signInFailuresPerAddress
        self.signInWindow = signInWindow
        self.metricsLoopbackOnly = metricsLoopbackOnly
        self.clientPolicy = clientPolicy
        self.postgresPoolSize = postgresPoolSize
        self.tls = tls
        self.trustedProxies = trustedProxies
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.importRowLimit = importRowLimit
        self.keyEncryptionKeys = keyEncryptionKeys
        self.smtpRelay = smtpRelay
        self.mailFrom = mailFrom
    }
}
