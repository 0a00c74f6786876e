import Foundation

/// One check-in this device confirmed, as the store knows it now: answered (with the
/// server's answer), still waiting in the outbox, or refused for good.
public struct CheckInLedgerEntry: Codable, Sendable, Hashable {
    public enum State: String, Codable, Sendable {
        case answered
        case pending
        case rejected
        /// The entry cannot be read (damaged on disk): kept, counted, shown, never sent.
        case quarantined
    }

    public var idempotencyKey: String
    public var state: State
    /// The HTTP status of the stored answer (answered and rejected entries).
    public var status: Int?
    /// `checked_in`, `already_checked_in` or `reconfirmed` for a 200/201 answer.
    public var result: String?
    /// The device that made the server's check-in row, from a 200/201 answer.
    public var checkInDeviceId: String?
    /// The server's `error` code, or the last transport error for a pending entry.
    public var error: String?

    public init(
        idempotencyKey: String, state: State, status: Int? = nil, result: String? = nil,
        checkInDeviceId: String? = nil, error: String? = nil
    ) {
        self.idempotencyKey = idempotencyKey
        self.state = state
        self.status = status
        self.result = result
        self.checkInDeviceId = checkInDeviceId
        self.error = error
    }
}
