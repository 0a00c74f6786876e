import Foundation

/// `POST /v1/events/{eventId}/mesh/certificate`: a signed-in device asks the tenant's authority
/// to certify its key for the event.
public struct MeshCertificateRequest: Codable, Sendable, Equatable {
    /// The device's id, as its check-ins carry it.
    public var device: String
    /// The device's P-256 public key: SubjectPublicKeyInfo DER, base64.
    public var publicKey: String

    public init(device: String, publicKey: String) {
        self.device = device
        self.publicKey = publicKey
    }
}

/// The answer: the device's certificate, the authority's (what peers are checked against), the
/// validity and what the authority has revoked for the event so far.
public struct MeshCredentials: Codable, Sendable, Equatable {
    /// The device's certificate, DER, base64.
    public var certificate: String
    /// The tenant authority's certificate, DER, base64.
    public var authority: String
    /// SHA-256 of the authority's certificate, hex.
    public var fingerprint: String
    /// The certificate's serial number, hex.
    public var serial: String
    public var notBefore: Date
    public var notAfter: Date
    public var revocations: [MeshRevocation]
    /// The server's time when it answered: the door checks certificates at no earlier a time
    /// than this plus the monotonic time since (a kiosk without a real-time clock boots in the
    /// past, where every certificate would look not yet valid).
    public var serverTime: Date?

    public init(
        certificate: String, authority: String, fingerprint: String, serial: String, notBefore: Date, notAfter: Date,
        revocations: [MeshRevocation], serverTime: Date? = nil
    ) {
        self.certificate = certificate
        self.authority = authority
        self.fingerprint = fingerprint
        self.serial = serial
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.revocations = revocations
        self.serverTime = serverTime
    }
}

/// `GET /v1/events/{eventId}/mesh/revocations`: every certificate of the event the authority
/// revoked, each signed, for a device to learn and pass on.
public struct MeshRevocationList: Codable, Sendable, Equatable {
    public var revocations: [MeshRevocation]

    public init(revocations: [MeshRevocation]) { self.revocations = revocations }
}

extension MeshRevocation {
    enum CodingKeys: String, CodingKey { case serial, at, signature }

    /// On the wire: the serial in hex, the time in milliseconds, the signature in base64.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let serial = try container.decode(String.self, forKey: .serial)
        guard let serialBytes = MeshBytes.bytes(hex: serial), !serialBytes.isEmpty, serialBytes.count <= 20,
            let signature = Data(base64Encoded: try container.decode(String.self, forKey: .signature))
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .serial, in: container, debugDescription: "not a revocation's serial and signature")
        }
        self.init(serial: serialBytes, at: try container.decode(Int64.self, forKey: .at), signature: Array(signature))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(serialHex, forKey: .serial)
        try container.encode(at, forKey: .at)
        try container.encode(Data(signature).base64EncodedString(), forKey: .signature)
    }
}
