import Foundation
import OutpostCore

/// Group commit for check-ins: requests for one event that arrive while a transaction for that
/// event is running wait for it to end and are then decided together, in one transaction with
/// one durable commit (``Store/checkIns(_:render:)``), each still getting its own answer.
///
/// The window is adaptive: a request that finds fewer than ``width(_:)`` groups running for its
/// event starts its own at once (nothing added at concurrency 1), and a group is exactly what
/// arrived while the ones before it ran. Every group takes the event's change counter last, so
/// sequence numbers follow commit order as for single requests; different events run side by
/// side.
///
/// When a group of several requests fails (a deadlock with another instance's group, a statement
/// one entry makes fail), nothing of it is committed and each request is applied again in a
/// transaction of its own, so one request's failure is only its own.
final class CheckInGroups: Sendable {
    /// Groups of one event that run at once. SQLite has one writer: a second group would only
    /// wait for the first. On PostgreSQL a group's statements are round trips one after another
    /// on one connection, so a second group decides while the first settles and commits (both
    /// take the event's counter row last). Measured (`bench --quick`, durable PostgreSQL, 8 / 64
    /// clients, against a transaction per request in the same run): one group 0.88× / 1.09×,
    /// two 1.24× / 1.69×, four 1.16× / 1.54× (PERFORMANCE.md, "group commit on the server").
    /// With a group's statements set-based (``CheckInSets``), one group still lost to two:
    /// 550–644 against 653–686 per s at 8 clients, 1,365–1,417 against 1,574–1,652 at 64.
    static func width(_ dialect: SQLDialect) -> Int {
        switch dialect {
        case .sqlite: 1
        case .postgres: 2
        }
    }

    /// Whether a batch request joins groups too. On SQLite it does: one writer, and a group of
    /// batches saves commits (8 devices posting batches of 100: 9,193 against 6,130 check-ins/s
    /// in the same run). On PostgreSQL a batch is its own transaction: it is a group already, and
    /// grouping batches put their statements one after another on one connection where 8
    /// connections ran them side by side (1,086 against 1,536/s). Measured again with set-based
    /// groups: grouped batches 2,170–2,356 against 3,461–3,513/s alone.
    static func groupsBatches(_ dialect: SQLDialect) -> Bool { dialect == .sqlite }

    /// Entries one group may hold; a request is never split (a batch holds at most 500).
    static let maxEntries = 1_000

    private let store: Store
    private let metrics: ServerMetrics
    private let render: @Sendable (CheckInOutcome) throws -> StoredAnswer
    private let lanes: Lanes
    /// Off: each request is its own transaction (``ServerConfiguration/groupCommit``).
    private let enabled: Bool

    init(
        store: Store, metrics: ServerMetrics, enabled: Bool = true,
        render: @escaping @Sendable (CheckInOutcome) throws -> StoredAnswer
    ) {
        self.store = store
        self.metrics = metrics
        self.enabled = enabled
        self.render = render
        self.lanes = Lanes(width: Self.width(store.database.dialect))
    }

    /// Decides `commands` (all of one event) with whatever else arrives for the event meanwhile;
    /// the answers are the commands' own, in order.
    func checkIns(_ commands: [CheckInCommand]) async throws -> [CheckInAnswer] {
        guard let eventId = commands.first?.eventId else { return [] }
        guard enabled, commands.count == 1 || Self.groupsBatches(store.database.dialect) else {
            return try await store.checkIns(commands, render: render)
        }
        if lanes.open(eventId) {
            // No group running for the event: this request is the group, at once.
            let results = await apply([commands])
            handOver(eventId)
            return try results[0].get()
        }
        return try await withCheckedThrowingContinuation { continuation in
            metrics.groupWaiting(1)
            if lanes.wait(eventId, Waiting(commands: commands, continuation: continuation)) {
                // The group it would have waited for ended in between: run it now.
                handOver(eventId)
            }
        }
    }

    /// After a group of `eventId`: the requests that arrived meanwhile are the next group, run
    /// in a task of their own so the one that ended answers at once.
    private func handOver(_ eventId: EventID) {
        guard let next = lanes.next(eventId, maxEntries: Self.maxEntries) else { return }
        Task { [self] in
            var group = next
            while true {
                metrics.groupWaiting(-group.count)
                let results = await apply(group.map(\.commands))
                for (waiting, result) in zip(group, results) { waiting.continuation.resume(with: result) }
                guard let following = lanes.next(eventId, maxEntries: Self.maxEntries) else { return }
                group = following
            }
        }
    }

    /// One transaction for the requests; when it fails and held more than one, each again alone.
    private func apply(_ requests: [[CheckInCommand]]) async -> [Result<[CheckInAnswer], any Error>] {
        metrics.groupDeciding(requests.count)
        defer { metrics.groupDeciding(-requests.count) }
        let all = requests.flatMap { $0 }
        do {
            let answers = try await store.checkIns(all, render: render)
            metrics.countGroup(requests: requests.count, entries: all.count, commit: "one")
            var results: [Result<[CheckInAnswer], any Error>] = []
            var start = 0
            for commands in requests {
                results.append(.success(Array(answers[start..<start + commands.count])))
                start += commands.count
            }
            return results
        } catch {
            guard requests.count > 1 else {
                metrics.countGroup(requests: 1, entries: all.count, commit: "failed")
                return [.failure(error)]
            }
            metrics.countGroup(requests: requests.count, entries: all.count, commit: "per_request")
            var results: [Result<[CheckInAnswer], any Error>] = []
            for commands in requests {
                do {
                    results.append(.success(try await store.checkIns(commands, render: render)))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        }
    }

    fileprivate struct Waiting {
        var commands: [CheckInCommand]
        var continuation: CheckedContinuation<[CheckInAnswer], any Error>
    }

    /// Per event with groups running, how many, and the requests waiting for one to end.
    private final class Lanes: @unchecked Sendable {
        private struct Lane {
            var running = 0
            var waiting: [Waiting] = []
        }
        private let lock = NSLock()
        private let width: Int
        private var lanes: [EventID: Lane] = [:]

        /// `width`: groups of one event that may run at once.
        init(width: Int) { self.width = width }

        /// True when fewer than `width` groups were running for the event (the caller now runs one).
        func open(_ eventId: EventID) -> Bool {
            lock.withLock {
                guard lanes[eventId, default: Lane()].running < width else { return false }
                lanes[eventId, default: Lane()].running += 1
                return true
            }
        }

        /// Queues a request behind the running groups; true when one of them ended in between
        /// (the request is queued and a group's place taken: the caller hands over).
        func wait(_ eventId: EventID, _ request: Waiting) -> Bool {
            lock.withLock {
                lanes[eventId, default: Lane()].waiting.append(request)
                guard lanes[eventId, default: Lane()].running < width else { return false }
                lanes[eventId, default: Lane()].running += 1
                return true
            }
        }

        /// The next group (whole requests, up to `maxEntries` entries, at least one request), or
        /// nil and the group's place given up when nothing waits.
        func next(_ eventId: EventID, maxEntries: Int) -> [Waiting]? {
            lock.withLock {
                guard var lane = lanes[eventId] else { return nil }
                guard !lane.waiting.isEmpty else {
                    lane.running -= 1
                    lanes[eventId] = lane.running == 0 ? nil : lane
                    return nil
                }
                var taken = 0
                var entries = 0
                for request in lane.waiting {
                    if taken > 0 && entries + request.commands.count > maxEntries { break }
                    taken += 1
                    entries += request.commands.count
                }
                let group = Array(lane.waiting[..<taken])
                lane.waiting.removeFirst(taken)
                lanes[eventId] = lane
                return group
            }
        }
    }
}
