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
    /// Several consecutive entries as one request, when the kind has a batch route; nil sends
    /// them one at a time.
    func batchRequest(for rows: [OutboxRow]) throws -> TransportRequest?
    /// Each entry's answer out of a batch's response, in the rows' order; nil when the response
    /// is not the server's batch answer for these rows (a portal's page, a server without the
    /// route): the first entry is then sent alone.
    func batchAnswers(_ response: TransportResponse, for rows: [OutboxRow]) -> [TransportResponse]?
}

extension OutboxEntryHandler {
    func batchRequest(for rows: [OutboxRow]) throws -> TransportRequest? { nil }
    func batchAnswers(_ response: TransportResponse, for rows: [OutboxRow]) -> [TransportResponse]? { nil }
}

/// The thin I/O loop around ``OutboxMachine``: loads the rows, feeds the machine what the
/// network and the store say, and carries out its actions. It decides nothing itself.
///
/// Batches (issue 15): when the machine sends an entry and more of the same user's entries of
/// the same kind and event are due right behind it, the replayer sends them together (the
/// handler's batch route) and keeps the answers of the ones behind; when the machine then sends
/// those, their answer is already here. The machine sees the same one-at-a-time answers, in
/// order, so every rule it keeps holds. A batch that fails or is not understood falls back to
/// sending the first entry alone (the server answers a repeated key with its stored answer).
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
        /// Requests that carried several entries.
        var batches = 0
    }

    /// The entries due right behind `row`, in order: the same owner's, pending, of the same kind
    /// and event, up to the batch limit; the run stops at the first of that owner's entries that
    /// is not (order is kept: a batch is a stretch of the queue).
    static func due(behind row: OutboxRow, in rows: [OutboxRow], force: Bool, now: Date) -> [OutboxRow] {
        guard let start = rows.firstIndex(where: { $0.id == row.id }) else { return [] }
        var run: [OutboxRow] = []
        for next in rows[(start + 1)...] where next.owner == row.owner {
            guard run.count < batchLimit - 1, next.state == .pending, next.kind == row.kind,
                next.eventId != nil, next.eventId == row.eventId, force || next.nextAttemptAt <= now
            else { break }
            run.append(next)
        }
        return run
    }

    private let store: DeviceStore
    private let handlers: [OutboxKind: any OutboxEntryHandler]
    private var running = false
    /// Entries one batch carries at most (the server takes 500).
    static let batchLimit = 100

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
        /// Answers that came in a batch, for entries the machine has not sent yet.
        var prefetched: [OutboxMachine.EntryID: TransportResponse] = [:]
        var batching = true
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
                if let answer = prefetched.removeValue(forKey: id) {
                    answers[id] = answer
                    actions += machine.handle(
                        ServerAnswer.outboxEvent(for: id, response: answer, accepts: handler.accepts), now: now())
                    continue
                }
                let behind = batching ? Self.due(behind: row, in: rows, force: force, now: now()) : []
                if !behind.isEmpty, let batch = try? handler.batchRequest(for: [row] + behind) {
                    // One try a pass: a batch that fails or is not understood is not sent again.
                    batching = false
                    do {
                        let response = try await session.authorized(batch, client: client)
                        if let each = handler.batchAnswers(response, for: [row] + behind), let first = each.first {
                            for (entry, answer) in zip(behind, each.dropFirst()) { prefetched[entry.id] = answer }
                            outcome.batches += 1
                            batching = true
                            answers[id] = first
                            actions += machine.handle(
                                ServerAnswer.outboxEvent(for: id, response: first, accepts: handler.accepts), now: now()
                            )
                            continue
                        }
                    } catch APIClientError.sessionEnded {
                        actions += machine.handle(.authFailed(id), now: now())
                        continue
                    } catch {
                        // Sent alone below: the server answers whatever of the batch it applied.
                    }
                }
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
