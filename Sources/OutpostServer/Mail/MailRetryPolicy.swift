import Foundation

/// When a mail that did not go out is tried again, and when the queue gives up. Pure.
///
/// A relay that is down or busy (a connection failure, a timeout, a 4xx reply) is tried again
/// after 2 s, 8 s, 32 s, … (four times longer each time, at most an hour); a 5xx reply or a
/// message that cannot be sent as it is fails at once; after ``maxAttempts`` tries the mail
/// fails. A mail with an expiry (a sign-in code) is not sent after it: the code in it no
/// longer works, and a late mail would only confuse.
enum MailRetryPolicy {
    static let maxAttempts = 8
    static let firstDelay: TimeInterval = 2
    static let longestDelay: TimeInterval = 3600
    /// How long a claimed mail is left to its sender before it is due again: longer than the
    /// SMTP client's timeout, so only a sender that died leaves it.
    static let lease: TimeInterval = 60

    enum Outcome: Equatable {
        case retry(at: Date)
        case failed
    }

    /// The wait after the `attempts`-th failed try.
    static func delay(afterAttempt attempts: Int) -> TimeInterval {
        let exponent = Double(max(attempts, 1) - 1)
        return min(longestDelay, firstDelay * pow(4, exponent))
    }

    /// What follows the `attempts`-th try failing with `error` at `now`.
    static func afterFailure(attempts: Int, error: any Error, now: Date) -> Outcome {
        if let error = error as? MailError, error.isPermanent { return .failed }
        guard attempts < maxAttempts else { return .failed }
        return .retry(at: now + delay(afterAttempt: attempts))
    }
}

extension MailError {
    /// Whether trying again cannot help: the relay refused for good (5xx), or the message itself
    /// cannot be sent.
    var isPermanent: Bool {
        switch self {
        case .invalidHeader: true
        case .rejected(let code, _): (500...599).contains(code)
        case .notConfigured, .connectionFailed, .timedOut: false
        }
    }
}
