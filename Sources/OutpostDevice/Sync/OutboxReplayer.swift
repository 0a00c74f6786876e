import Foundation
import OutpostCore
import OutpostProtocol

/// The handler of one kind of outbox entry, contributed by the module that writes it: the
/// route an entry goes to, what a 2xx answer looks like, and how the answer is applied.
@MainActor
protocol OutboxEntryHandler {
    var kind: OutboxKind { get }
    /// What one entry is, in the words of the pending banner ("check-in", "activity").
    var noun: ShellStatus.Noun { get }
    /// The request to send for `row`; throws when the row cannot be read (it is quarantined).
    func request(for row: OutboxRow) throws -> TransportRequest
    /// True when a 2xx response is this kind's answer (a portal's HTML 200 is not).
    func accepts(_ response: TransportResponse) -> Bool
    /// Stores the answer (or, with `refusal`, the final refusal) and applies it, in one transaction.
    func store(_ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date) throws
}

/// The thin I/O loop around ``OutboxMachine``: loads the rows, feeds the machine what the
/// network and the store say, and carries out its actions. It decides nothing itself.
@MainActor
final class OutboxReplayer {
    /// What a pass ended with.
    struct Outcome: Sendable, Equatable {
        var sent = 0
        var answered = 0
        var refused = 0
        var failed = 0
        var quarantined = 0
        /// The server ended the session (its refresh token was refused).
        var sessionEnded = false
    }

    private let store: DeviceStore
    private let handlers: [OutboxKind: any OutboxEntryHandler]
    private var running = false

    init(store: DeviceStore, handlers: [any OutboxEntryHandler]) {
        self.store = store
        self.handlers = Dictionary(uniqueKeysWithValues: handlers.map { ($0.kind, $0) })
    }

    /// One pass: the signed-in user's entries, oldest first, until one fails or none is left.
    /// A second call while a pass runs returns at once (the running pass carries on).
    func replay(
        force: Bool, session: SessionKeeper, client: APIClient?, online: Bool, now: () -> Date, seed: UInt64
    ) async -> Outcome {
        var outcome = Outcome()
        guard !running, let rows = try? store.outboxRows() else { return outcome }
        running = true
        defer { running = false }
        var machine = OutboxMachine(user: session.userId, online: online && client != nil, seed: seed)
        var byId: [OutboxMachine.EntryID: OutboxRow] = [:]
        for row in rows {
            guard let owner = row.owner else { continue }
            byId[row.id] = row
            let phase: OutboxMachine.Phase =
                switch row.state {
                case .pending: .queued
                case .rejected: .refused(code: row.lastError ?? "")
                case .quarantined: .quarantined
                }
            _ = machine.handle(
                .added(
                    .init(id: row.id, owner: owner, attempts: row.attempts, notBefore: row.nextAttemptAt, phase: phase)),
                now: now())
        }
        var answers: [OutboxMachine.EntryID: TransportResponse] = [:]
        var actions = machine.handle(.replay(force: force), now: now())
        while !actions.isEmpty {
            let action = actions.removeFirst()
            switch action {
            case .send(let id):
                guard let row = byId[id], let owner = row.owner, let client else { break }
                guard let handler = handlers[row.kind], let request = try? handler.request(for: row) else {
                    actions += machine.handle(.damaged(id, owner: owner), now: now())
                    continue
                }
                outcome.sent += 1
                let event: OutboxMachine.Event
                do {
                    let response = try await session.authorized(request, client: client)
                    answers[id] = response
                    event = ServerAnswer.outboxEvent(for: id, response: response, accepts: handler.accepts)
                } catch APIClientError.sessionEnded {
                    event = .authFailed(id)
                } catch {
                    event = .transportFailed(id, reason: "\(error)")
                }
                actions += machine.handle(event, now: now())
            case .storeAnswer(let id), .storeRefusal(let id, _):
                var refusal: String?
                if case .storeRefusal(_, let code) = action { refusal = code }
                guard let row = byId[id], let handler = handlers[row.kind], let response = answers[id] else { break }
                do {
                    try handler.store(response, refusal: refusal, for: row, now: now())
                } catch {
                    // Not stored: the entry stays queued in the store and is sent again (the server
                    // answers a repeated Idempotency-Key with the stored answer). End the pass.
                    actions = []
                    continue
                }
                if refusal == nil { outcome.answered += 1 } else { outcome.refused += 1 }
                actions += machine.handle(.stored(id), now: now())
            case .backOff(let id, let attempts, let until, let reason):
                outcome.failed += 1
                try? store.recordAttempt(id, attempts: attempts, nextAttemptAt: until, error: reason)
            case .quarantine(let id):
                outcome.quarantined += 1
                try? store.quarantine(id)
            case .forget(let id):
                try? store.forgetRejected(id)
            case .askForSignIn:
                outcome.sessionEnded = true
            case .wait, .idle, .stop:
                break
            }
        }
        return outcome
    }
}
