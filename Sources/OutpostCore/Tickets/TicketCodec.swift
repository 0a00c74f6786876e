import Crypto
import Foundation

/// Encodes and verifies Outpost tickets.
///
/// A ticket is `OP1` followed by the unpadded base32 of 121 bytes:
///
/// | bytes | field |
/// |---|---|
/// | 1 | format version (1) |
/// | 4 | key id (``TicketKeyID``) |
/// | 16 | tenant id |
/// | 16 | event id |
/// | 16 | guest id |
/// | 4 | issued-at, seconds since 1970, big-endian |
/// | 64 | Ed25519 signature over the 57 bytes above |
///
/// The text is 197 characters from the QR alphanumeric set (`A`–`Z`, `0`–`9`); libqrencode
/// encodes it as a version 8 symbol (49×49 modules) at error-correction level M.
///
/// Decoding never traps: any text gives a payload or a ``TicketError``.
public enum TicketCodec {
    public static let prefix = "OP1"
    public static let version: UInt8 = 1
    static let signedLength = 57
    static let totalLength = signedLength + 64
    /// Length of every valid ticket text.
    public static let textLength = prefix.utf8.count + (totalLength * 8 + 4) / 5

    /// Signs a payload and returns the ticket text.
    public static func encode(
        _ payload: TicketPayload, signingKey: Curve25519.Signing.PrivateKey
    ) throws -> String {
        let signed = signedBytes(payload)
        let signature = try signingKey.signature(for: signed)
        return prefix + Base32.encode(signed + Array(signature))
    }

    /// Reads a ticket without checking its signature.
    public static func parse(
        _ text: String
    ) throws(TicketError) -> (payload: TicketPayload, signed: [UInt8], signature: [UInt8]) {
        guard text.utf8.count == textLength, text.hasPrefix(prefix),
            let bytes = Base32.decode(text.dropFirst(prefix.count)),
            bytes.count == totalLength, bytes[0] == version
        else { throw .malformed }
        let keyID = TicketKeyID(rawValue: bigEndian(bytes[1..<5]))
        guard let tenant = UUID(bytes: bytes[5..<21]),
            let event = UUID(bytes: bytes[21..<37]),
            let guest = UUID(bytes: bytes[37..<53])
        else { throw .malformed }
        let issued = Date(timeIntervalSince1970: TimeInterval(bigEndian(bytes[53..<57])))
        let payload = TicketPayload(keyID: keyID, tenantId: tenant, eventId: event, guestId: guest, issuedAt: issued)
        return (payload, Array(bytes[0..<signedLength]), Array(bytes[signedLength...]))
    }

    /// Verifies a ticket for one event.
    ///
    /// A ticket naming another tenant or event is `otherEvent` before any key is consulted, so a
    /// ticket of another event is recognised as such even when its key was never synced here.
    public static func verify(
        _ text: String,
        tenantId: UUID,
        eventId: UUID,
        keys: [TicketKeyID: Curve25519.Signing.PublicKey]
    ) throws(TicketError) -> TicketPayload {
        let (payload, signed, signature) = try parse(text)
        guard payload.tenantId == tenantId, payload.eventId == eventId else { throw .otherEvent }
        guard let key = keys[payload.keyID] else { throw .unknownKey }
        guard key.isValidSignature(signature, for: signed) else { throw .badSignature }
        return payload
    }

    static func signedBytes(_ payload: TicketPayload) -> [UInt8] {
        var bytes: [UInt8] = [version]
        bytes.reserveCapacity(signedLength)
        appendBigEndian(payload.keyID.rawValue, to: &bytes)
        bytes += payload.tenantId.bytes
        bytes += payload.eventId.bytes
        bytes += payload.guestId.bytes
        let seconds = UInt32(clamping: Int64(payload.issuedAt.timeIntervalSince1970))
        appendBigEndian(seconds, to: &bytes)
        return bytes
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { ($0 << 8) | UInt32($1) }
    }
}
