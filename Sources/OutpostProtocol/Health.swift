/// `GET /health`.
public struct HealthStatus: Codable, Sendable, Hashable {
    public var status: String
    public init(status: String = "ok") { self.status = status }
}

/// `GET /v1/client-policy`: the oldest OS versions a device may run Outpost on.
public struct ClientPolicy: Codable, Sendable, Hashable {
    public var minIOS: String
    public var minAndroidAPI: Int

    public init(minIOS: String = "16.0", minAndroidAPI: Int = 30) {
        self.minIOS = minIOS
        self.minAndroidAPI = minAndroidAPI
    }
}
