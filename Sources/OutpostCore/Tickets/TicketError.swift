/// Why a ticket text was refused. Devices show the same banner shape for every case
/// (anti-probing), but keep the reason for logs and tests.
public enum TicketError: String, Error, Sendable, CaseIterable {
    /// Not an Outpost ticket of a known version, or not decodable at all.
    case malformed
    /// Signed with a key this verifier does not hold.
    case unknownKey
    /// The signature does not match the payload.
    case badSignature
    /// A ticket of another event or another tenant.
    case otherEvent
}
