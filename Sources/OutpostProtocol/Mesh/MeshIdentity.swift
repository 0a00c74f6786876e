import Foundation
import OutpostCore
import X509

/// Who a mesh certificate names: one signed-in device of one user, at one event of one tenant.
/// Peers accept each other only for the same tenant and event; the device id is the author of
/// every entry that device signs.
public struct MeshIdentity: Hashable, Sendable, Codable {
    public var tenant: TenantID
    public var event: EventID
    public var user: UserID
    /// The device's id as its check-ins carry it (1–64 characters, no control characters).
    public var device: String
    public var role: String

    public init(tenant: TenantID, event: EventID, user: UserID, device: String, role: String) {
        self.tenant = tenant
        self.event = event
        self.user = user
        self.device = device
        self.role = role
    }

    /// A device id that can stand in a certificate and an entry: 1–64 characters of letters,
    /// digits and `-_.:@`.
    public static func isValidDevice(_ device: String) -> Bool {
        (1...64).contains(device.count)
            && device.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
                    || "-_.:@".unicodeScalars.contains($0)
            }
    }

    /// The certificate's subject alternative names: one `urn:outpost:` URI per part.
    var alternativeNames: SubjectAlternativeNames {
        SubjectAlternativeNames([
            .uniformResourceIdentifier("urn:outpost:tenant:\(tenant.wire)"),
            .uniformResourceIdentifier("urn:outpost:event:\(event.wire)"),
            .uniformResourceIdentifier("urn:outpost:user:\(user.wire)"),
            .uniformResourceIdentifier("urn:outpost:device:\(device)"),
            .uniformResourceIdentifier("urn:outpost:role:\(role)"),
        ])
    }

    /// Reads the identity back from a certificate's alternative names; nil when any part is
    /// missing, repeated or malformed.
    public init?(certificate: Certificate) {
        guard let names = try? certificate.extensions.subjectAlternativeNames else { return nil }
        var parts: [String: String] = [:]
        for name in names {
            guard case .uniformResourceIdentifier(let uri) = name, uri.hasPrefix("urn:outpost:") else { return nil }
            let rest = uri.dropFirst("urn:outpost:".count)
            guard let colon = rest.firstIndex(of: ":") else { return nil }
            let key = String(rest[..<colon])
            guard parts[key] == nil else { return nil }
            parts[key] = String(rest[rest.index(after: colon)...])
        }
        guard parts.count == 5, let tenant = parts["tenant"].flatMap(TenantID.init(wire:)),
            let event = parts["event"].flatMap(EventID.init(wire:)),
            let user = parts["user"].flatMap(UserID.init(wire:)),
            let device = parts["device"], Self.isValidDevice(device), let role = parts["role"], !role.isEmpty
        else { return nil }
        self.init(tenant: tenant, event: event, user: user, device: device, role: role)
    }
}
