import Foundation
import GRDB
import OutpostCore

/// A module's handle on the device store, made by the shell for that module alone (`Owner` is
/// the module): its own tables, read and written in transactions; the sealer for what it keeps
/// secret; and the outbox, where it queues an entry in the same transaction as the local write it
/// sends, and reads back, answers and forgets rows of its own kinds. Not the shell's meta, events,
/// session or vault. A module's store functions are extensions `where Owner == ItsModule`, so no
/// module sees another's.
public struct ModuleStore<Owner>: Sendable {
    private let store: DeviceStore

    package init(_ store: DeviceStore) { self.store = store }

    /// The module's writes and multi-statement reads, in one transaction each.
    package var queue: DatabaseQueue { store.queue }

    /// Seals and opens what the module keeps secret, with the device's key.
    package var sealer: Sealer { store.sealer }

    /// A read of one SQL statement (``DeviceStore/readStatement(_:)``).
    package func readStatement<T>(_ value: (Database) throws -> T) throws -> T { try store.readStatement(value) }

    // MARK: - The outbox

    /// Queues an entry of `kind` inside the caller's transaction (``DeviceStore/enqueue``).
    package func enqueue(
        _ db: Database, kind: OutboxKind, eventId: EventID?, idempotencyKey: String, request: some Encodable,
        owner: UserID, now: Date
    ) throws -> OutboxMachine.EntryID {
        try store.enqueue(
            db, kind: kind, eventId: eventId, idempotencyKey: idempotencyKey, request: request, owner: owner, now: now)
    }

    /// The rows of `kind` in `state` (every state when nil), oldest first, requests still sealed.
    package func outboxRows(kind: OutboxKind, state: OutboxState? = nil) throws -> [OutboxRow] {
        try store.outboxRows(state: state).filter { $0.kind == kind }
    }

    /// The sealed request of a row as the module wrote it.
    package func request<T: Decodable>(of row: OutboxRow, as type: T.Type) throws -> T {
        try store.request(of: row, as: type)
    }

    /// Stores the server's answer to one of the module's rows (``DeviceStore/recordAnswer``).
    package func recordAnswer(
        _ db: Database, _ row: OutboxRow, status: Int, body: Data, rejection: String?, now: Date,
        apply: (Database) throws -> Void = { _ in }
    ) throws {
        try store.recordAnswer(db, row, status: status, body: body, rejection: rejection, now: now, apply: apply)
    }

    /// True while an entry with this key waits in the outbox.
    package func isPending(idempotencyKey: String) throws -> Bool {
        try store.isPending(idempotencyKey: idempotencyKey)
    }

    /// Staff saw a refused entry: it leaves the outbox.
    package func forgetRejected(_ id: OutboxMachine.EntryID) throws { try store.forgetRejected(id) }
}
