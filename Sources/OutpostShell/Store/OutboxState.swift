/// Where an outbox entry stands.
public enum OutboxState: String, Sendable {
    /// Waiting to be sent (or re-sent).
    case pending
    /// The server refused it for good (404, 409, 422); shown to staff, never retried.
    case rejected
    /// It cannot be read (damaged on disk): kept, counted, never sent.
    case quarantined
}
