import Foundation
import OutpostCore

/// `POST /v1/events/{eventId}/checkins:batch`: a device's queued check-ins, in order. Each entry
/// is applied on its own (atomically per entry, not per batch) under its own Idempotency-Key,
/// `deviceId:guestId:scannedAtMillis` of the entry, exactly as if it had been sent alone.
public struct CheckInBatchRequest: Codable, Sendable, Hashable {
    public var entries: [CheckInRequest]

    public init(entries: [CheckInRequest]) { self.entries = entries }

    /// Entries one batch holds at most.
    public static let maxEntries = 500
}

/// One entry's answer: its key, the status and the body it would have had alone (byte for byte
/// the stored answer for the key, so a lost batch answer replays the same bytes).
public struct CheckInBatchResult: Decodable, Sendable, Hashable {
    public var idempotencyKey: String
    public var status: Int
    /// The answer of a 2xx entry.
    public var checkIn: CheckInResponse?
    /// The error of any other.
    public var error: ErrorBody?

    private enum CodingKeys: String, CodingKey {
        case idempotencyKey, status, answer
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idempotencyKey = try container.decode(String.self, forKey: .idempotencyKey)
        status = try container.decode(Int.self, forKey: .status)
        if (200..<300).contains(status) {
            checkIn = try container.decode(CheckInResponse.self, forKey: .answer)
        } else {
            error = try container.decode(ErrorBody.self, forKey: .answer)
        }
    }
}

/// The batch's answer: a result per entry, in the entries' order.
public struct CheckInBatchResponse: Decodable, Sendable, Hashable {
    public var results: [CheckInBatchResult]
}
