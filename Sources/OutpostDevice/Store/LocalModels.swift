import Foundation
import OutpostCore
import OutpostProtocol

/// A guest as the device keeps it (sealed at rest).
public struct LocalGuest: Codable, Sendable, Hashable {
    public var id: GuestID
    public var eventId: EventID
    public var accessTypeId: AccessTypeID
    public var name: String
    public var email: String
    public var code: String
    public var notes: String
    public var status: GuestStatus
    public var checkIn: LocalCheckIn?
}

/// The first check-in of a guest as the device knows it.
public struct LocalCheckIn: Codable, Sendable, Hashable {
    /// Server time once the server answered; until then the device's time of the scan.
    public var at: Date
    public var byName: String
    public var deviceId: String
    /// True while only this device knows of it (its outbox entry is not answered yet).
    public var pending: Bool
}

/// A check-in waiting in the outbox.
public struct OutboxEntry: Sendable, Hashable {
    public var id: Int64
    public var eventId: EventID
    public var idempotencyKey: String
    public var request: CheckInRequest
    public var attempts: Int
    public var nextAttemptAt: Date
    public var state: State
    public var lastError: String?

    public enum State: String, Sendable {
        /// Waiting to be sent (or re-sent).
        case pending
        /// The server refused it for good (404, 409, 422); shown to staff, never retried.
        case rejected
        /// It cannot be read (damaged on disk): kept, counted, never sent.
        case quarantined
    }
}

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

/// Why the store could not be opened or written.
public enum DeviceStoreError: Error, CustomStringConvertible {
    case migrationFailed(String)
    case simulatedMigrationFailure
    case damaged(String)

    public var description: String {
        switch self {
        case .migrationFailed(let reason): "the local data could not be upgraded: \(reason)"
        case .simulatedMigrationFailure: "a simulated migration failure"
        case .damaged(let reason): "the local data is damaged: \(reason)"
        }
    }
}
