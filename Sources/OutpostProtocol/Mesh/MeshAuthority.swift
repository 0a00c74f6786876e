import Crypto
import Foundation
import OutpostCore
import SwiftASN1
import X509

/// A tenant's mesh certificate authority: the server keeps one per tenant and certifies each
/// signed-in device for one event; peers trust its certificate and nothing else. P-256 keys
/// throughout (the curve a phone's secure enclave signs with).
public struct MeshAuthority: Sendable {
    public let key: P256.Signing.PrivateKey
    public let certificate: Certificate

    /// Loads an authority from its stored key and certificate (both DER).
    public init(keyDER: [UInt8], certificateDER: [UInt8]) throws {
        key = try P256.Signing.PrivateKey(derRepresentation: keyDER)
        certificate = try Certificate(derEncoded: certificateDER)
        guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
            throw MeshCertificateError.keyDoesNotMatch
        }
    }

    private init(key: P256.Signing.PrivateKey, certificate: Certificate) {
        self.key = key
        self.certificate = certificate
    }

    /// A new authority for `tenant`, valid for ten years from `now` (an hour back for clocks
    /// a little behind).
    public static func make(tenant: TenantID, now: Date) throws -> MeshAuthority {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            OrganizationName("Outpost mesh")
            CommonName("tenant \(tenant.wire)")
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(10 * 365 * 86400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return MeshAuthority(key: key, certificate: certificate)
    }

    public var keyDER: [UInt8] { Array(key.derRepresentation) }
    public var certificateDER: [UInt8] { MeshCertificates.der(certificate) }

    /// The authority's fingerprint (SHA-256 of its certificate, hex): what a join QR code
    /// carries so that a device can tell it is joining its own tenant's mesh.
    public var fingerprint: String { MeshCertificates.fingerprint(certificateDER) }

    /// Certifies `publicKey` as `identity` from `notBefore` to `notAfter`, under `serial`.
    public func certify(
        _ identity: MeshIdentity, publicKey: P256.Signing.PublicKey, serial: [UInt8], notBefore: Date, notAfter: Date
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: serial),
            publicKey: Certificate.PublicKey(publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter,
            issuer: certificate.subject,
            subject: try DistinguishedName { CommonName(identity.device) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth, .clientAuth])
                identity.alternativeNames
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    /// A signed statement that the certificate `serial` is revoked from `at` on.
    public func revoke(serial: [UInt8], at: Date) -> MeshRevocation {
        var revocation = MeshRevocation(serial: serial, at: at.millisecondsSince1970, signature: [])
        revocation.signature = Array((try? key.signature(for: revocation.signedBytes))?.rawRepresentation ?? Data())
        return revocation
    }
}

/// Why a stored authority or a certificate request could not be used.
public enum MeshCertificateError: Error, Equatable, Sendable {
    case keyDoesNotMatch
    case notAP256Key
    case invalidDevice
}

/// Helpers over certificates in their DER and PEM forms.
public enum MeshCertificates {
    /// A certificate's DER bytes (serializing a parsed or made certificate cannot fail).
    public static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// SHA-256 of a certificate's DER, in hex: how a join code names the authority.
    public static func fingerprint(_ der: [UInt8]) -> String { MeshBytes.hex(Array(SHA256.hash(data: der))) }

    /// A P-256 public key from its SubjectPublicKeyInfo DER (how a device sends it).
    public static func publicKey(spkiDER: [UInt8]) throws -> P256.Signing.PublicKey {
        do {
            return try P256.Signing.PublicKey(derRepresentation: spkiDER)
        } catch {
            throw MeshCertificateError.notAP256Key
        }
    }
}
