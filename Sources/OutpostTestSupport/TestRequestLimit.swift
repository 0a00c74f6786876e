import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// How long one request of a test may take. A response that never ends (an event stream a
/// broken route left open for another tenant, on a test server whose clock never moves) fails
/// its test, naming the request, instead of holding the whole test run.
public let testRequestLimit: Duration = .seconds(120)

/// A test request that did not answer within its limit.
public struct TestRequestTimedOut: Error, CustomStringConvertible {
    public var method: HTTPRequest.Method
    public var uri: String
    public var limit: Duration

    public var description: String { "\(method) \(uri) did not answer within \(limit)" }
}

extension TestClientProtocol {
    /// `execute`, failing with ``TestRequestTimedOut`` after `limit`. The request runs in a task
    /// of its own that is cancelled then; the caller does not wait for it to notice, so a request
    /// that ignores cancellation cannot hold the test either.
    public func execute(
        within limit: Duration, uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?
    ) async throws -> TestResponse {
        let outcome = FirstOutcome<TestResponse>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.continuation = continuation
            let work = Task {
                do {
                    let response = try await execute(uri: uri, method: method, headers: headers, body: body)
                    outcome.settle(.success(response))
                } catch {
                    outcome.settle(.failure(error))
                }
            }
            let deadline = Task {
                try await Task.sleep(for: limit)
                if outcome.settle(.failure(TestRequestTimedOut(method: method, uri: uri, limit: limit))) {
                    work.cancel()
                }
            }
            outcome.setTimer(deadline)
        }
    }
}

/// The first of a request's answer and its deadline resumes the caller; the other is ignored.
private final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var settled = false
    var continuation: CheckedContinuation<Value, any Error>?
    private var timer: Task<Void, any Error>?

    /// Keeps the deadline's task, to cancel when the answer comes first (or at once, if it has).
    func setTimer(_ task: Task<Void, any Error>) {
        let settledAlready = lock.withLock {
            timer = task
            return settled
        }
        if settledAlready { task.cancel() }
    }

    /// Resumes the caller with `result` unless something did already; true if this did.
    @discardableResult
    func settle(_ result: Result<Value, any Error>) -> Bool {
        let (continuation, timer): (CheckedContinuation<Value, any Error>?, Task<Void, any Error>?) = lock.withLock {
            guard !settled else { return (nil, nil) }
            settled = true
            defer { self.continuation = nil }
            return (self.continuation, self.timer)
        }
        guard let continuation else { return false }
        timer?.cancel()
        continuation.resume(with: result)
        return true
    }
}
