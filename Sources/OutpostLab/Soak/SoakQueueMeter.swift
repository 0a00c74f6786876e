import Foundation
import OutpostCore
import OutpostProtocol

/// How long the devices' outboxes are while the soak runs: the check-ins the devices reported
/// confirmed whose key the server has not decided yet (its audit log, read incrementally).
/// Sampled every few seconds; a queue that drains faster than it fills stays low.
package struct SoakQueueMeter: Sendable {
    package struct Sample: Sendable, Equatable {
        package var seconds: Int
        package var waiting: Int

        package init(seconds: Int, waiting: Int) {
            self.seconds = seconds
            self.waiting = waiting
        }
    }

    private var decided: Set<String> = []
    private var cursor: String?
    package private(set) var samples: [Sample] = []

    package init() {}

    /// Reads the audit entries appended since the last sample and records how many confirmed
    /// keys wait. A failed read (a server being restarted) skips the sample.
    package mutating func sample(
        at seconds: Int, confirmed: Set<String>, read: (String?) async throws -> AuditPage
    ) async {
        do {
            var page: AuditPage
            repeat {
                page = try await read(cursor)
                for entry in page.entries where SoakVerdict.decisionKinds.contains(entry.kind) {
                    if let key = SoakVerdict.key(of: entry) { decided.insert(key) }
                }
                cursor = page.cursor
            } while page.hasMore
        } catch {
            return
        }
        samples.append(Sample(seconds: seconds, waiting: confirmed.subtracting(decided).count))
    }

    /// The samples as one line, at most `count` of them evenly spread, e.g. `0 s: 0 · 5 s: 31`.
    package static func line(_ samples: [Sample], count: Int = 12) -> String {
        guard !samples.isEmpty else { return "no sample" }
        let step = max(1, Int((Double(samples.count) / Double(count)).rounded(.up)))
        var shown = stride(from: 0, to: samples.count, by: step).map { samples[$0] }
        if shown.last != samples.last, let last = samples.last { shown.append(last) }
        return shown.map { "\($0.seconds) s: \($0.waiting)" }.joined(separator: " · ")
    }
}
