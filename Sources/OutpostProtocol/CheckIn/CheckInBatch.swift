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

/// One entry's answer as a batch carried it: the status and the body exactly as the server
/// stored them for the entry's key (not decoded and encoded again), so the device keeps the
/// same bytes a single request would have got.
public struct CheckInBatchAnswer: Sendable, Hashable {
    public var idempotencyKey: String
    public var status: Int
    public var body: Data

    public init(idempotencyKey: String, status: Int, body: Data) {
        self.idempotencyKey = idempotencyKey
        self.status = status
        self.body = body
    }

    /// The entries of a batch's answer (`{"results":[{"idempotencyKey":…,"status":…,"answer":…}]}`),
    /// in order. Throws on anything else (a portal's page, a truncated body).
    public static func split(_ body: Data) throws -> [CheckInBatchAnswer] {
        var scanner = JSONScanner(body)
        var answers: [CheckInBatchAnswer]?
        try scanner.members { key, scanner in
            guard key == "results" else {
                try scanner.value()
                return
            }
            var results: [CheckInBatchAnswer] = []
            try scanner.elements { scanner in
                var key: String?
                var status: Int?
                var answer: Data?
                try scanner.members { name, scanner in
                    switch name {
                    case "idempotencyKey": key = try scanner.string()
                    case "status": status = try scanner.integer()
                    case "answer": answer = try scanner.value()
                    default: try scanner.value()
                    }
                }
                guard let key, let status, let answer else { throw JSONScanner.Malformed(offset: 0) }
                results.append(CheckInBatchAnswer(idempotencyKey: key, status: status, body: answer))
            }
            answers = results
        }
        try scanner.end()
        guard let answers else { throw JSONScanner.Malformed(offset: 0) }
        return answers
    }
}
