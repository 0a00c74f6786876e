import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// Seals and opens a contact's sensitive fields under its tenant's data key (AES-256-GCM). The
/// contact's tenant and id are bound as associated data, so a sealed box moved to another
/// contact's row does not open.
enum ContactCipher {
    static func seal(
        _ fields: ContactSensitive, contactId: ContactID, tenantId: TenantID, dataKey: SymmetricKey
    ) throws -> [UInt8] {
        let box = try AES.GCM.seal(
            try OutpostJSON.encode(fields), using: dataKey, authenticating: context(contactId, tenantId))
        guard let combined = box.combined else { throw EnvelopeError.cannotWrap }
        return Array(combined)
    }

    static func open(
        _ sealed: [UInt8], contactId: ContactID, tenantId: TenantID, dataKey: SymmetricKey
    ) throws
        -> ContactSensitive
    {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plain = try AES.GCM.open(box, using: dataKey, authenticating: context(contactId, tenantId))
            return try OutpostJSON.decode(ContactSensitive.self, from: plain)
        } catch {
            throw EnvelopeError.cannotOpen
        }
    }

    private static func context(_ contactId: ContactID, _ tenantId: TenantID) -> Data {
        Data("outpost contact|\(tenantId.wire)|\(contactId.wire)".utf8)
    }
}
