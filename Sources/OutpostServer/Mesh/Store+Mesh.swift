import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import X509

/// A certificate the tenant's mesh authority issued.
struct MeshCertificateRecord: Sendable {
    var serial: String
    var certificate: [UInt8]
    var notAfter: Date
}

extension Store {
    /// The tenant's mesh authority, made on first use (once, even with several server instances:
    /// the insert keeps the first and every instance reads that one back).
    func meshAuthority(tenantId: TenantID, now: Date) async throws -> MeshAuthority {
        if let stored = try await database.read({ try await Self.meshAuthority($0, tenantId: tenantId) }) {
            return stored
        }
        let made = try MeshAuthority.make(tenant: tenantId, now: now)
        return try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO mesh_authorities (tenant_id, private_key, certificate, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (tenant_id) DO NOTHING
                """,
                [.id(tenantId), .blob(made.keyDER), .blob(made.certificateDER), .date(now)])
            guard let stored = try await Self.meshAuthority(connection, tenantId: tenantId) else {
                throw StoreError.notFound
            }
            return stored
        }
    }

    private static func meshAuthority(
        _ connection: any SQLConnection, tenantId: TenantID
    ) async throws -> MeshAuthority? {
        guard
            let row = try await connection.queryOne(
                "SELECT private_key, certificate FROM mesh_authorities WHERE tenant_id = ?", [.id(tenantId)])
        else { return nil }
        return try MeshAuthority(keyDER: try row.blob("private_key"), certificateDER: try row.blob("certificate"))
    }

    /// Certifies a device's key for the event. The same device asking again with the same key
    /// gets its certificate again while more than an hour of it is left; with another key (the
    /// device was reset), the old certificate is revoked and a new one issued.
    func certifyMeshDevice(
        _ identity: MeshIdentity, publicKey: P256.Signing.PublicKey, authority: MeshAuthority, notBefore: Date,
        notAfter: Date, now: Date
    ) async throws -> MeshCertificateRecord {
        let keyDER = Array(publicKey.derRepresentation)
        return try await database.transaction { connection in
            let held = try await connection.query(
                """
                SELECT serial, public_key, certificate, not_after FROM mesh_certificates
                WHERE event_id = ? AND user_id = ? AND device = ? AND revoked_at IS NULL
                """,
                [.id(identity.event), .id(identity.user), .text(identity.device)])
            for row in held {
                let record = MeshCertificateRecord(
                    serial: try row.text("serial"), certificate: try row.blob("certificate"),
                    notAfter: try row.date("not_after"))
                if try row.blob("public_key") == keyDER, record.notAfter > now.addingTimeInterval(3600),
                    record.notAfter >= notAfter
                {
                    return record
                }
                try await connection.execute(
                    "UPDATE mesh_certificates SET revoked_at = ? WHERE serial = ?", [.date(now), .text(record.serial)])
            }
            var serial = (0..<16).map { _ in UInt8.random(in: 0...255) }
            serial[0] = serial[0] & 0x7f | 0x01
            let certificate = try authority.certify(
                identity, publicKey: publicKey, serial: serial, notBefore: notBefore, notAfter: notAfter)
            let record = MeshCertificateRecord(
                serial: MeshBytes.hex(serial), certificate: MeshCertificates.der(certificate), notAfter: notAfter)
            try await connection.execute(
                """
                INSERT INTO mesh_certificates (serial, tenant_id, event_id, user_id, device, public_key, certificate,
                    not_after, issued_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(record.serial), .id(identity.tenant), .id(identity.event), .id(identity.user),
                    .text(identity.device), .blob(keyDER), .blob(record.certificate), .date(notAfter), .date(now),
                ])
            return record
        }
    }

    /// The event's revoked certificates, signed by the authority, in the order they were revoked.
    func meshRevocations(eventId: EventID, authority: MeshAuthority) async throws -> [MeshRevocation] {
        let rows = try await database.read { connection in
            try await connection.query(
                """
                SELECT serial, revoked_at FROM mesh_certificates
                WHERE event_id = ? AND revoked_at IS NOT NULL ORDER BY revoked_at, serial
                """,
                [.id(eventId)])
        }
        return try rows.compactMap { row in
            guard let serial = MeshBytes.bytes(hex: try row.text("serial")) else { return nil }
            return authority.revoke(serial: serial, at: try row.date("revoked_at"))
        }
    }

    /// Revokes every mesh certificate of a user (every sign-in ended, removed, a new password).
    static func revokeMeshCertificates(_ connection: any SQLConnection, userId: UserID, now: Date) async throws {
        try await connection.execute(
            "UPDATE mesh_certificates SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
            [.date(now), .id(userId)])
    }

    /// Revokes the mesh certificates of the device a sign-in was on (that sign-in ended).
    static func revokeMeshCertificates(_ connection: any SQLConnection, familyId: SignInID, now: Date) async throws {
        try await connection.execute(
            """
            UPDATE mesh_certificates SET revoked_at = ?
            WHERE revoked_at IS NULL AND EXISTS (
                SELECT 1 FROM refresh_tokens t
                WHERE t.family_id = ? AND t.user_id = mesh_certificates.user_id AND t.device_id = mesh_certificates.device)
            """,
            [.date(now), .id(familyId)])
    }
}
