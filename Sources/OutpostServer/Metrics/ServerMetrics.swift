import Foundation
import Hummingbird
import Prometheus

/// The server's Prometheus metrics, on a registry of its own (no global bootstrap, so several
/// servers can live in one test process).
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()

    static var checkInDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "checkins", unitName: "total",
            helpText: "Check-in requests by result (replayed = a retry answered from the idempotency store).")
    }
    static var meshEntryDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "mesh_entries", unitName: "total",
            helpText: "Venue mesh entries doors handed in, by result (applied, held, or the reason refused).")
    }
    static var batchDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "checkin_batches", unitName: "total",
            helpText:
                "Check-in batches by how they committed (one = one transaction for all entries; per_entry = rolled back and applied one entry at a time)."
        )
    }
    static var groupDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "checkin_groups", unitName: "total",
            helpText:
                "Check-in transactions (groups of requests for one event committed together) by how they ended (one = one commit for the group; per_request = rolled back and applied one request at a time; failed = a group of one that failed)."
        )
    }
    static var groupRequestsDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "checkin_group_requests", unitName: "total",
            helpText: "Check-in requests (single or batch) decided in groups, by how their group ended.")
    }
    static var groupEntriesDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "checkin_group_entries", unitName: "total",
            helpText: "Check-in entries decided in groups, by how their group ended.")
    }
    static var groupWaitingDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "checkin_group_waiting", unitName: "",
            helpText: "Check-in requests waiting for their event's running group to commit (they form the next group).")
    }
    static var groupDecidingDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "checkin_group_deciding", unitName: "",
            helpText: "Check-in requests in a group that is being decided and committed now.")
    }
    static var latencyDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", subsystem: "http", metricName: "request_duration", unitName: "seconds",
            helpText: "HTTP request latency by method, route and status.")
    }

    static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
        .seconds(5),
    ]

    static var inFlightDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", subsystem: "http", metricName: "requests_in_flight", unitName: "",
            helpText: "HTTP requests being handled now (a draining server waits for these).")
    }

    static var mailQueueDescriptor: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "outpost", metricName: "mail_queue", unitName: "",
            helpText:
                "Mails in the durable mail queue by state (queued = waiting to be sent or tried again), as this instance last counted them."
        )
    }

    public init() {}

    /// Sets the mail queue's counts by state (every state, so one that emptied shows 0).
    func setMailQueue(_ counts: [String: Int]) {
        for (state, count) in counts {
            registry.makeGauge(descriptor: Self.mailQueueDescriptor, labels: [("state", state)]).set(Int64(count))
        }
    }

    func requestStarted() { registry.makeGauge(descriptor: Self.inFlightDescriptor).increment() }

    func requestFinished() { registry.makeGauge(descriptor: Self.inFlightDescriptor).decrement() }

    /// Counts one check-in answer under its result name.
    func countCheckIn(result: String) {
        registry.makeCounter(descriptor: Self.checkInDescriptor, labels: [("result", result)]).increment()
    }

    /// Counts one venue mesh entry a door handed in, by what became of it.
    func countMeshEntry(result: String) {
        registry.makeCounter(descriptor: Self.meshEntryDescriptor, labels: [("result", result)]).increment()
    }

    /// Counts one check-in batch under how it committed (`one` or `per_entry`).
    func countBatch(commit: String) {
        registry.makeCounter(descriptor: Self.batchDescriptor, labels: [("commit", commit)]).increment()
    }

    /// Counts one check-in group: its requests and entries, under how it ended.
    func countGroup(requests: Int, entries: Int, commit: String) {
        registry.makeCounter(descriptor: Self.groupDescriptor, labels: [("commit", commit)]).increment()
        registry.makeCounter(descriptor: Self.groupRequestsDescriptor, labels: [("commit", commit)])
            .increment(by: Int64(requests))
        registry.makeCounter(descriptor: Self.groupEntriesDescriptor, labels: [("commit", commit)])
            .increment(by: Int64(entries))
    }

    /// Check-in requests that started or stopped waiting for their event's group.
    func groupWaiting(_ change: Int) {
        registry.makeGauge(descriptor: Self.groupWaitingDescriptor).increment(by: Double(change))
    }

    /// Check-in requests that joined or left a group being decided.
    func groupDeciding(_ change: Int) {
        registry.makeGauge(descriptor: Self.groupDecidingDescriptor).increment(by: Double(change))
    }

    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: Self.latencyDescriptor,
            labels: [("method", method), ("route", route), ("status", String(status))],
            buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}

/// Times every request into ``ServerMetrics``, labelled by the matched route, not the raw path,
/// so ids never become label values.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        metrics.requestStarted()
        defer { metrics.requestFinished() }
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, start: start)
            return response
        } catch let error as any HTTPResponseError {
            record(request, context, status: error.status.code, start: start)
            throw error
        } catch {
            record(request, context, status: 500, start: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, start: ContinuousClock.Instant) {
        metrics.recordRequest(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status,
            duration: ContinuousClock.now - start)
    }
}
