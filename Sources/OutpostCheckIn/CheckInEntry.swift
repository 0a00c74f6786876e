import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// A check-in in the outbox: waiting, refused for good, or set aside.
public struct CheckInEntry: Sendable, Hashable {
    public var id: Int64
    public var eventId: EventID
    public var idempotencyKey: String
    public var request: CheckInRequest
    public var attempts: Int
    public var nextAttemptAt: Date
    public var state: State
    public var lastError: String?

    public typealias State = OutboxState
}
