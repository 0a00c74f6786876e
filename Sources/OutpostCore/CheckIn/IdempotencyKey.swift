import Foundation

/// The `Idempotency-Key` of a check-in: `deviceId:guestId:scannedAtMillis`.
///
/// A device fixes the key when it creates the outbox entry, so every retry of that entry carries
/// the same key and the server applies it at most once. The device id may itself contain colons;
/// the guest id and the milliseconds are the last two fields.
public struct IdempotencyKey: Hashable, Sendable, CustomStringConvertible {
    public var deviceId: String
    public var guestId: UUID
    public var scannedAtMillis: Int64

    public init(deviceId: String, guestId: UUID, scannedAtMillis: Int64) {
        self.deviceId = deviceId
        self.guestId = guestId
        self.scannedAtMillis = scannedAtMillis
    }

    /// Parses the header value; nil when it is not of the documented shape.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, text.utf8.count <= 512 else { return nil }
        let millisText = parts[parts.count - 1]
        let guestText = parts[parts.count - 2]
        let device = parts[0..<(parts.count - 2)].joined(separator: ":")
        guard !device.isEmpty, device.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }),
            !millisText.isEmpty, millisText.utf8.count <= 18, millisText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let millis = Int64(millisText),
            let guest = UUID(wire: String(guestText))
        else { return nil }
        self.init(deviceId: device, guestId: guest, scannedAtMillis: millis)
    }

    public var description: String { "\(deviceId):\(guestId.lowercasedString):\(scannedAtMillis)" }

    /// True when `deviceId` can head a key (not empty, ASCII without spaces, short enough for a
    /// whole key): what routes that take a device id without a key (walk-in leases, notes) check.
    public static func accepts(deviceId: String) -> Bool {
        IdempotencyKey(parsing: "\(deviceId):\(UUID().lowercasedString):0") != nil
    }
}
