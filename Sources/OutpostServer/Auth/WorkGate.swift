/// A cap on expensive work (bcrypt): at most `running` jobs at once and `waiting` queued behind
/// them; past that, ``run(_:)`` refuses at once instead of growing a queue that would stall every
/// sign-in behind a burst. Waiters are served first come, first served.
actor WorkGate {
    /// The gate is full: the caller should answer "busy, try again" instead of waiting.
    struct Full: Error {}

    let running: Int
    let waiting: Int
    private var active = 0
    private var queue: [CheckedContinuation<Void, Never>] = []

    init(running: Int, waiting: Int) {
        precondition(running > 0 && waiting >= 0)
        self.running = running
        self.waiting = waiting
    }

    /// How many jobs run and how many wait now (tests and metrics).
    var load: (active: Int, queued: Int) { (active, queue.count) }

    /// Runs `body` when a slot is free; throws ``Full`` when `waiting` jobs already wait.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if active < running {
            active += 1
        } else {
            guard queue.count < waiting else { throw Full() }
            // The slot is handed over by `finish()`: `active` already counts this job.
            await withCheckedContinuation { queue.append($0) }
        }
        defer { finish() }
        return try await body()
    }

    private func finish() {
        if queue.isEmpty {
            active -= 1
        } else {
            queue.removeFirst().resume()
        }
    }
}
