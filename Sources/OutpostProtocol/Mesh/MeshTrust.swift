import Crypto
import Foundation
import OutpostCore
import X509

/// What a device trusts in its event's mesh: its tenant's authority, for one event, minus what
/// the authority revoked. Every peer's certificate and every entry pass through here; each
/// refusal names its ``MeshRefusal``. The same check decides a TLS handshake and an entry a
/// peer forwards, so a certificate refused for one is refused for the other.
public struct MeshTrust: Sendable {
    public let authority: Certificate
    public let tenant: TenantID
    public let event: EventID
    /// Revoked serials (hex), from revocations the authority signed.
    public private(set) var revoked: Set<String> = []
    /// Accepted certificates by device: the keys entries are checked against.
    public private(set) var authors: [String: Certificate] = [:]

    public init(authority: Certificate, tenant: TenantID, event: EventID) {
        self.authority = authority
        self.tenant = tenant
        self.event = event
    }

    /// Learns a revocation if the authority signed it; true when it is new. A certificate
    /// already accepted under that serial is forgotten, so its author's entries from now on
    /// are ``MeshRefusal/unknownAuthor`` (those already kept stay: they happened).
    @discardableResult
    public mutating func learn(_ revocation: MeshRevocation) throws -> Bool {
        guard let key = P256.Signing.PublicKey(authority.publicKey),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: revocation.signature),
            key.isValidSignature(signature, for: revocation.signedBytes)
        else { throw MeshRefusal.badSignature }
        let (inserted, _) = revoked.insert(revocation.serialHex)
        authors = authors.filter { MeshBytes.hex(Array($0.value.serialNumber.bytes)) != revocation.serialHex }
        return inserted
    }

    /// Checks a peer's certificate at `now` (the device's trusted time) and returns whom it
    /// names.
    public func check(_ certificate: Certificate, at now: Date) throws(MeshRefusal) -> MeshIdentity {
        guard certificate.issuer == authority.subject,
            authority.publicKey.isValidSignature(certificate.signature, for: certificate),
            (try? certificate.extensions.basicConstraints) == .notCertificateAuthority,
            (try? certificate.extensions.keyUsage)?.digitalSignature == true,
            P256.Signing.PublicKey(certificate.publicKey) != nil,
            let identity = MeshIdentity(certificate: certificate)
        else { throw .uncertified }
        guard identity.tenant == tenant else { throw .wrongTenant }
        guard identity.event == event else { throw .wrongEvent }
        guard now >= certificate.notValidBefore else { throw .notYetValid }
        guard now <= certificate.notValidAfter else { throw .expired }
        guard !revoked.contains(MeshBytes.hex(Array(certificate.serialNumber.bytes))) else { throw .revoked }
        return identity
    }

    /// Checks and remembers a certificate: its device may then author entries here.
    @discardableResult
    public mutating func accept(_ certificate: Certificate, at now: Date) throws(MeshRefusal) -> MeshIdentity {
        let identity = try check(certificate, at: now)
        authors[identity.device] = certificate
        return identity
    }

    /// Checks an entry: for this event, by an author whose certificate is accepted and still
    /// valid at `now`, and signed by that author.
    public func verify(_ entry: MeshEntry, at now: Date) throws(MeshRefusal) {
        guard entry.event == event else { throw .foreignEvent }
        guard let certificate = authors[entry.author] else { throw .unknownAuthor }
        _ = try check(certificate, at: now)
        guard let key = P256.Signing.PublicKey(certificate.publicKey), entry.isSigned(by: key) else {
            throw .badSignature
        }
    }
}
