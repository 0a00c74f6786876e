import Crypto
import Foundation
import Logging
import OutpostCore
import OutpostProtocol

/// What every route handler shares: configuration, store, clock, hasher, metrics, tokens.
public final class ServerDependencies: Sendable {
    public let configuration: ServerConfiguration
    public let store: Store
    public let metrics: ServerMetrics
    let hasher: PasswordHasher
    let logger: Logger
    /// The key ring that wraps tenants' data keys (``ServerConfiguration/keyEncryptionKeys``).
    let keyEncryptionKeys: KeyEncryptionKeys
    private let tokenCache = TokenCache()
    /// The sign-ins that ended, as this instance last read them (refreshed every second).
    let revokedSessions: RevokedSessions
    /// The durable mail queue's sender (``MailQueue``).
    let mailQueue: MailQueue
    /// Single sign-on's HTTP to tenants' identity providers, and their cached signing keys.
    let identityProvider: IdentityProviderClient
    let providerKeys: ProviderKeys
    /// Check-ins of one event decided and committed together (group commit).
    let checkInGroups: CheckInGroups

    public init(
        configuration: ServerConfiguration, store: Store, metrics: ServerMetrics = ServerMetrics(), logger: Logger
    ) {
        self.configuration = configuration
        self.store = store
        self.metrics = metrics
        self.hasher = PasswordHasher(cost: configuration.bcryptCost)
        self.logger = logger
        self.keyEncryptionKeys = configuration.keyEncryptionKeys ?? .generate(id: "process")
        self.revokedSessions = RevokedSessions(store: store, tokenLifetime: configuration.accessTokenLifetime)
        self.mailQueue = MailQueue.make(store: store, configuration: configuration, logger: logger, metrics: metrics)
        let identityProvider = IdentityProviderClient.shared
        let clock = configuration.clock
        self.identityProvider = identityProvider
        self.checkInGroups = CheckInGroups(
            store: store, metrics: metrics, enabled: configuration.groupCommit, render: CheckInRoutes.render)
        self.providerKeys = ProviderKeys(fetch: { try await identityProvider.keys(at: $0) }, now: { clock.now() })
    }

    var clock: WallClock { configuration.clock }

    /// The attendees' consent links, keyed by their own secret shared through the database.
    func contactConsentLinks() async throws -> ContactConsentLink {
        ContactConsentLink(key: SymmetricKey(data: try await store.secret(named: "contact-consent-hmac")))
    }

    /// The access-token signer, keyed by a secret shared through the database.
    func accessTokens() async throws -> AccessTokens {
        if let tokens = tokenCache.value { return tokens }
        let secret = try await store.secret(named: "access-token-hmac")
        let tokens = AccessTokens(key: SymmetricKey(data: secret), lifetime: configuration.accessTokenLifetime)
        tokenCache.value = tokens
        return tokens
    }

    private final class TokenCache: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: AccessTokens?
        var value: AccessTokens? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
