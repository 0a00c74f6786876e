import Dispatch

/// Runs blocking work (a child process read to its end, a pipe waited on) on a Dispatch thread
/// and awaits it, so it never holds one of the few threads Swift concurrency shares between all
/// the tests running at once (two on two cores: a test that blocks one for seconds stalls
/// every other test's tasks: import-cross-tenant-latency saw a 1.7 s check-in).
package enum Blocking {
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}
