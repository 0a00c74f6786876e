/// Why a peer, a certificate, an entry or a message was refused. Each is counted under its
/// ``reason`` and the mesh stays up: a refusal ends one message or one session, never the
/// device's mesh.
public enum MeshRefusal: Error, Hashable, Sendable, CaseIterable {
    /// Not issued by this tenant's authority, or not a mesh certificate at all.
    case uncertified
    /// Certified for another tenant.
    case wrongTenant
    /// Certified for another event.
    case wrongEvent
    /// Its validity has not begun (by the device's trusted time).
    case notYetValid
    /// Its validity has ended.
    case expired
    /// The authority revoked it.
    case revoked
    /// An entry whose signature does not verify under its author's certificate: forged, or
    /// changed on the way.
    case badSignature
    /// An entry whose author has no accepted certificate here.
    case unknownAuthor
    /// An entry for another event than the mesh's.
    case foreignEvent
    /// Bytes that do not decode.
    case malformed
    /// A message over the frame limit.
    case oversize
    /// A peer sending faster than the limit.
    case flood
    /// An author's sequence number too far past what is known of them (a device cannot have
    /// made that many check-ins): quarantined, not stored.
    case implausible

    /// The counter's name.
    public var reason: String {
        switch self {
        case .uncertified: "uncertified"
        case .wrongTenant: "wrong_tenant"
        case .wrongEvent: "wrong_event"
        case .notYetValid: "not_yet_valid"
        case .expired: "expired"
        case .revoked: "revoked"
        case .badSignature: "bad_signature"
        case .unknownAuthor: "unknown_author"
        case .foreignEvent: "foreign_event"
        case .malformed: "malformed"
        case .oversize: "oversize"
        case .flood: "flood"
        case .implausible: "implausible"
        }
    }
}
