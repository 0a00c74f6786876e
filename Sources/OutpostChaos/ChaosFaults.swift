/// How often the proxy does each harmful thing, as independent probabilities per request.
///
/// The draws happen in the order the fields are listed: a reset or a dropped request ends the
/// exchange before the server sees it; a truncated request reaches the server cut short; a
/// dropped or truncated response means the server applied the request and the client never
/// learns it.
public struct ChaosFaults: Sendable, Hashable, Codable {
    /// Answer in the server's place as a captive portal or proxy would (200, 302 or 403 with an
    /// HTML login page); the server never sees the request.
    public var portal: Double
    /// Abort the client's connection with a TCP reset, half of the time after the server applied it.
    public var reset: Double
    /// Close the client's connection without forwarding anything.
    public var dropRequest: Double
    /// Forward only part of the request body, then hang up on the server; the client gets nothing.
    public var truncateRequest: Double
    /// Wait a random time up to ``maxDelayMilliseconds`` before forwarding.
    public var delay: Double
    /// Send the request to the server twice at once; the client gets one of the answers.
    public var duplicate: Double
    /// Forward, let the server answer, then close the client's connection without the answer.
    public var dropResponse: Double
    /// Forward, then give the client the answer cut short.
    public var truncateResponse: Double
    public var maxDelayMilliseconds: Int

    public init(
        portal: Double = 0, reset: Double = 0, dropRequest: Double = 0, truncateRequest: Double = 0, delay: Double = 0,
        duplicate: Double = 0, dropResponse: Double = 0, truncateResponse: Double = 0, maxDelayMilliseconds: Int = 200
    ) {
        self.portal = portal
        self.reset = reset
        self.dropRequest = dropRequest
        self.truncateRequest = truncateRequest
        self.delay = delay
        self.duplicate = duplicate
        self.dropResponse = dropResponse
        self.truncateResponse = truncateResponse
        self.maxDelayMilliseconds = maxDelayMilliseconds
    }

    /// Passes everything through untouched.
    public static let none = ChaosFaults()

    /// The soak's mix: 30% drops each way, 10% duplicates, 5% resets, 5% portal pages, plus some
    /// truncation and delay.
    public static let soak = ChaosFaults(
        portal: 0.05, reset: 0.05, dropRequest: 0.30, truncateRequest: 0.03, delay: 0.10, duplicate: 0.10,
        dropResponse: 0.30,
        truncateResponse: 0.03, maxDelayMilliseconds: 150)

    /// The probabilities that are not in 0...1, by name (empty when all are valid).
    public var invalidFields: [String] {
        let all: [(String, Double)] = [
            ("portal", portal), ("reset", reset), ("drop-request", dropRequest), ("truncate-request", truncateRequest),
            ("delay", delay),
            ("duplicate", duplicate), ("drop-response", dropResponse), ("truncate-response", truncateResponse),
        ]
        return all.filter { !(0...1).contains($0.1) }.map(\.0) + (maxDelayMilliseconds < 0 ? ["max-delay"] : [])
    }
}

/// What the proxy decided for one request; pure, so the decision logic is tested without sockets.
public struct ChaosPlan: Sendable, Hashable {
    public enum Before: Sendable, Hashable {
        case forward
        /// Answer as a captive portal with this status (200, 302 or 403).
        case portal(status: Int)
        case reset
        case dropRequest
        case truncateRequest
    }

    public enum After: Sendable, Hashable {
        case deliver
        case reset
        case dropResponse
        case truncateResponse
    }

    public var before: Before
    public var delayMilliseconds: Int
    public var duplicate: Bool
    public var after: After

    public static let passThrough = ChaosPlan(before: .forward, delayMilliseconds: 0, duplicate: false, after: .deliver)

    /// Draws a plan from `faults` with `random`; the same seed gives the same sequence of plans.
    public static func draw(_ faults: ChaosFaults, using random: inout some RandomNumberGenerator) -> ChaosPlan {
        func chance(_ probability: Double) -> Bool {
            probability > 0 && Double.random(in: 0..<1, using: &random) < probability
        }
        var plan = ChaosPlan.passThrough
        if chance(faults.portal) {
            plan.before = .portal(status: [200, 302, 403][Int.random(in: 0..<3, using: &random)])
            return plan
        }
        if chance(faults.reset) {
            if Bool.random(using: &random) {
                plan.before = .reset
                return plan
            }
            plan.after = .reset
        }
        if chance(faults.dropRequest) {
            plan.before = .dropRequest
            plan.after = .deliver
            return plan
        }
        if chance(faults.truncateRequest) {
            plan.before = .truncateRequest
            plan.after = .deliver
            return plan
        }
        if chance(faults.delay) {
            plan.delayMilliseconds = Int.random(in: 1...max(1, faults.maxDelayMilliseconds), using: &random)
        }
        plan.duplicate = chance(faults.duplicate)
        if plan.after == .deliver {
            if chance(faults.dropResponse) {
                plan.after = .dropResponse
            } else if chance(faults.truncateResponse) {
                plan.after = .truncateResponse
            }
        }
        return plan
    }
}

/// Counts of what the proxy did, by kind.
public struct ChaosStats: Sendable, Hashable, Codable {
    /// Complete requests received from clients.
    public var requests = 0
    /// Requests to `/v1/auth/refresh` (token rotations the devices attempted).
    public var refreshRequests = 0
    /// Of those, answers the server gave that the device never received (dropped, truncated, reset).
    public var refreshAnswersLost = 0
    /// Requests answered by the proxy as a captive portal (the server never saw them).
    public var portalAnswers = 0
    /// Requests the server answered and the client received in full.
    public var delivered = 0
    public var resets = 0
    public var droppedRequests = 0
    public var truncatedRequests = 0
    public var delayed = 0
    public var duplicated = 0
    public var droppedResponses = 0
    public var truncatedResponses = 0
    /// Connections refused because the network was switched off.
    public var offline = 0
    /// Requests no server could take (all instances down or killed mid-request).
    public var upstreamUnavailable = 0
    /// Answers with status 500 or more from a server: never caused by the proxy's faults.
    public var serverErrors = 0
    /// Answers from the servers by status code (duplicates counted too).
    public var statuses: [Int: Int] = [:]

    public init() {}

    /// The injected faults by kind, for reports.
    public var faultsByKind: [(String, Int)] {
        [
            ("captive portal page", portalAnswers), ("reset", resets), ("drop request", droppedRequests),
            ("truncate request", truncatedRequests),
            ("delay", delayed), ("duplicate", duplicated), ("drop response", droppedResponses),
            ("truncate response", truncatedResponses), ("network off", offline),
            ("server down", upstreamUnavailable),
        ]
    }
}
