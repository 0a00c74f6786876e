import Foundation
import GRDB
import OutpostCore
import OutpostProtocol

/// The handler of one kind of outbox entry, contributed by the module that writes it: the
/// route an entry goes to, what a 2xx answer looks like, and how the answer is applied.
@MainActor
package protocol OutboxEntryHandler {
    var kind: OutboxKind { get }
    /// What one entry is, in the words of the pending banner ("check-in", "activity").
    var noun: ShellStatus.Noun { get }
    /// The request to send for `row`; throws when the row cannot be read (it is quarantined).
    func request(for row: OutboxRow) throws -> TransportRequest
    /// True when a 2xx response is this kind's answer (a portal's HTML 200 is not).
    func accepts(_ response: TransportResponse) -> Bool
    /// Stores the answer (or, with `refusal`, the final refusal) and applies it inside the
    /// replayer's write transaction `db` (the answers of a batch share one commit); returns what
    /// to tell the module once that has committed (nil: nothing). Throws when the answer cannot
    /// be stored: nothing it wrote is kept and the entry stays queued.
    func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice?
    /// Several consecutive entries as one request, when the kind has a batch route; nil sends
    /// them one at a time.
    func batchRequest(for rows: [OutboxRow]) throws -> TransportRequest?
    /// Each entry's answer out of a batch's response, in the rows' order; nil when the response
    /// is not the server's batch answer for these rows (a portal's page, a server without the
    /// route): the first entry is then sent alone.
    func batchAnswers(_ response: TransportResponse, for rows: [OutboxRow]) -> [TransportResponse]?
    /// True when several entries can write one record (``subject(ofKey:)``); the pending count
    /// then reads this kind's keys (the others are counted by SQL alone).
    var countsBySubject: Bool { get }
    /// The record an entry writes, read from its Idempotency-Key: entries of one subject count
    /// as one thing waiting (the pending banner, the sign-out warning). Nil: each entry is one.
    func subject(ofKey key: String) -> String?
}

extension OutboxEntryHandler {
    package var countsBySubject: Bool { false }
    package func subject(ofKey key: String) -> String? { nil }
    package func batchRequest(for rows: [OutboxRow]) throws -> TransportRequest? { nil }
    package func batchAnswers(_ response: TransportResponse, for rows: [OutboxRow]) -> [TransportResponse]? { nil }

    /// For ``accepts(_:)``: the response's body decodes as the kind's answer. A portal's page (a
    /// hotel Wi-Fi's login form answered with 200) does not.
    package func decodes<Answer: Decodable>(_ response: TransportResponse, as answer: Answer.Type) -> Bool {
        // A body that is not the answer is the portal's page: not accepted, the entry stays queued.
        (try? OutpostJSON.decode(answer, from: response.body)) != nil
    }
}

/// What a module is told once an answer it stored has committed (a notice on its screen).
package typealias OutboxNotice = @MainActor () -> Void

/// The thin I/O loop around ``OutboxMachine``: loads the rows, feeds the machine what the
/// network and the store say, and carries out its actions. It decides nothing itself.
///
/// Batches: when the machine sends an entry and more of the same user's entries of
/// the same kind and event are due right behind it, the replayer sends them together (the
/// handler's batch route) and keeps the answers of the ones behind; when the machine then sends
/// those, their answer is already here. The machine sees the same one-at-a-time answers, in
/// order, so every rule it keeps holds. A batch that fails or is not understood falls back to
/// sending the first entry alone (the server answers a repeated key with its stored answer).
///
/// Answers are written when the pass next needs the network (while that request is out, so the
/// server and the device work at the same time) or ends, all of those waiting in one
/// transaction, each entry in a savepoint of its own: a batch of 100 answers is one commit, not
/// 100. The machine is told each is stored as it comes, which is what it would hear if the
/// writes were immediate; if one cannot be written, it and the answers after it are not kept
/// (their entries stay queued and are sent again, and the server replays its stored answers),
/// the ones before it are, and the pass ends, as it did when each answer was its own commit.
@MainActor
package final class OutboxReplayer {
    /// What a pass ended with.
    package struct Outcome: Sendable, Equatable {
        package var sent = 0
        package var answered = 0
        package var refused = 0
        package var failed = 0
        package var quarantined = 0
        /// The server ended the session (its refresh token was refused).
        package var sessionEnded = false
        /// The server's code when it did (`account_removed`: the user was removed).
        package var sessionEndedCode: String?
        /// Requests that carried several entries.
        package var batches = 0
        /// Store writes of the pass that failed (what, and the error): the entries they were
        /// for stay queued; the shell shows them as its storage-fault banner.
        package var storeFaults: [StoreFault] = []
    }

    /// A write of the pass that failed.
    package struct StoreFault: Sendable, Equatable {
        package var what: String
        package var error: String
    }

    /// The entries due right behind `row`, in order: the same owner's, pending, of the same kind
    /// and event, up to the batch limit; the run stops at the first of that owner's entries that
    /// is not (order is kept: a batch is a stretch of the queue).
    package static func due(behind row: OutboxRow, in rows: [OutboxRow], force: Bool, now: Date) -> [OutboxRow] {
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

    /// An answer to write, and the handler that writes it.
    private struct Staged {
        package var row: OutboxRow
        package var handler: any OutboxEntryHandler
        package var response: TransportResponse
        package var refusal: String?
    }

    private let store: DeviceStore
    private let handlers: [OutboxKind: any OutboxEntryHandler]
    private var running = false
    /// Entries one batch carries at most (the server takes 500).
    package nonisolated static let batchLimit = 100

    package init(store: DeviceStore, handlers: [any OutboxEntryHandler]) {
        self.store = store
        self.handlers = Dictionary(uniqueKeysWithValues: handlers.map { ($0.kind, $0) })
    }

    /// Writes the staged answers in one transaction, each entry in a savepoint, and empties
    /// `staged`; false when one could not be written (it and those after it are not kept).
    /// A state write of the pass; a failure goes into the outcome's ``Outcome/storeFaults``.
    private func keep(_ what: String, into outcome: inout Outcome, _ write: () throws -> Void) {
        do {
            try write()
        } catch {
            outcome.storeFaults.append(StoreFault(what: what, error: "\(error)"))
        }
    }

    private func write(_ staged: inout [Staged], now: Date, into outcome: inout Outcome) -> Bool {
        guard !staged.isEmpty else { return true }
        let entries = staged
        staged = []
        var written: [(Staged, OutboxNotice?)] = []
        var failure: (any Error)?
        do {
            try store.queue.write { db in
                for entry in entries {
                    var notice: OutboxNotice?
                    do {
                        try db.inSavepoint {
                            notice = try entry.handler.store(
                                entry.response, refusal: entry.refusal, for: entry.row, now: now, in: db)
                            return .commit
                        }
                    } catch {
                        // This entry and those after it stay queued; the server answers them
                        // again from its stored answers.
                        failure = error
                        return
                    }
                    written.append((entry, notice))
                }
            }
        } catch {
            written = []
            failure = error
        }
        if let failure {
            outcome.storeFaults.append(StoreFault(what: "store the server's answers", error: "\(failure)"))
        }
        for (entry, notice) in written {
            if entry.refusal == nil { outcome.answered += 1 } else { outcome.refused += 1 }
            notice?()
        }
        return written.count == entries.count
    }

    /// One pass: the signed-in user's entries, oldest first, until one fails or none is left.
    /// A second call while a pass runs returns at once (the running pass carries on).
    package func replay(
        force: Bool, session: SessionKeeper, client: APIClient?, online: Bool, now: () -> Date, seed: UInt64
    ) async -> Outcome {
        var outcome = Outcome()
        // Offline, or without a session to send with, a pass sends nothing: the queue is not
        // read (a door offline all evening read all of it after every confirm).
        guard !running, online, client != nil else { return outcome }
        let rows: [OutboxRow]
        do {
            rows = try store.outboxRows()
        } catch {
            outcome.storeFaults.append(StoreFault(what: "read the entries waiting", error: "\(error)"))
            return outcome
        }
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
        /// Answers the machine was told are stored, waiting for the pass's next write.
        var staged: [Staged] = []
        var batching = true
        var actions = machine.handle(.replay(force: force), now: now())
        while !actions.isEmpty {
            let action = actions.removeFirst()
            switch action {
            case .send(let id):
                guard let row = byId[id], let owner = row.owner, let client else { break }
                if let handler = handlers[row.kind], let answer = prefetched.removeValue(forKey: id) {
                    // Its request went in an earlier batch (which read it whole).
                    outcome.sent += 1
                    answers[id] = answer
                    actions += machine.handle(
                        ServerAnswer.outboxEvent(for: id, response: answer, accepts: handler.accepts), now: now())
                    continue
                }
                // An entry no handler can make a request of (an unknown kind, an unreadable body)
                // is damaged: the machine quarantines it, kept and counted, never sent.
                guard let handler = handlers[row.kind], let request = try? handler.request(for: row) else {
                    guard write(&staged, now: now(), into: &outcome) else {
                        actions = []
                        continue
                    }
                    actions += machine.handle(.damaged(id, owner: owner), now: now())
                    continue
                }
                outcome.sent += 1
                let behind = batching ? Self.due(behind: row, in: rows, force: force, now: now()) : []
                // No batch (a kind without one, or an entry behind it unreadable): the entry goes alone.
                let batch = behind.isEmpty ? nil : try? handler.batchRequest(for: [row] + behind)
                // The network next, and what is answered so far is written while the request is
                // out: the server decides the next entries while the device stores the last
                // ones. Every entry it carries was decided on by the machine already; if the
                // write fails, the pass ends and the answer is dropped (those entries stay queued
                // and the server answers them again from its stored answers).
                let inFlight = Task { try await session.authorized(batch ?? request, client: client) }
                await Task.yield()  // the task takes the main actor to put its request on the wire
                let written = write(&staged, now: now(), into: &outcome)
                let sent = await inFlight.result
                guard written else {
                    actions = []
                    continue
                }
                if batch != nil {
                    // One try a pass: a batch that fails or is not understood is not sent again.
                    batching = false
                    switch sent {
                    case .success(let response):
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
                    case .failure(APIClientError.sessionEnded(let code)):
                        outcome.sessionEndedCode = code ?? outcome.sessionEndedCode
                        actions += machine.handle(.authFailed(id), now: now())
                        continue
                    case .failure:
                        break
                    }
                }
                let event: OutboxMachine.Event
                do {
                    // Alone: the first answer, or after a batch that failed (the server answers
                    // whatever of the batch it applied).
                    let response = try await batch == nil ? sent.get() : session.authorized(request, client: client)
                    answers[id] = response
                    event = ServerAnswer.outboxEvent(for: id, response: response, accepts: handler.accepts)
                } catch APIClientError.sessionEnded(let code) {
                    outcome.sessionEndedCode = code ?? outcome.sessionEndedCode
                    event = .authFailed(id)
                } catch {
                    event = .transportFailed(id, reason: "\(error)")
                }
                actions += machine.handle(event, now: now())
            case .storeAnswer(let id), .storeRefusal(let id, _):
                var refusal: String?
                if case .storeRefusal(_, let code) = action { refusal = code }
                guard let row = byId[id], let handler = handlers[row.kind],
                    let response = answers.removeValue(forKey: id)
                else { break }
                staged.append(Staged(row: row, handler: handler, response: response, refusal: refusal))
                actions += machine.handle(.stored(id), now: now())
            case .backOff(let id, let attempts, let until, let reason):
                if !write(&staged, now: now(), into: &outcome) { actions = [] }
                outcome.failed += 1
                keep("note a failed attempt", into: &outcome) {
                    try store.recordAttempt(id, attempts: attempts, nextAttemptAt: until, error: reason)
                }
            case .quarantine(let id):
                if !write(&staged, now: now(), into: &outcome) { actions = [] }
                outcome.quarantined += 1
                keep("set a damaged entry aside", into: &outcome) { try store.quarantine(id) }
            case .forget(let id):
                if !write(&staged, now: now(), into: &outcome) { actions = [] }
                keep("forget an entry the server refused for good", into: &outcome) { try store.forgetRejected(id) }
            case .askForSignIn:
                outcome.sessionEnded = true
            case .wait, .idle, .stop:
                break
            }
        }
        _ = write(&staged, now: now(), into: &outcome)
        return outcome
    }
}
