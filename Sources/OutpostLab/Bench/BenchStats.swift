import Foundation

/// Timings of one measured operation.
package struct Samples {
    package var seconds: [Double] = []

    package init() {}

    package mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        let value = try body()
        seconds.append((ContinuousClock.now - start).seconds)
        return value
    }

    package func percentile(_ p: Double) -> Double {
        guard !seconds.isEmpty else { return 0 }
        let sorted = seconds.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    package var median: Double { percentile(50) }
    package var p99: Double { percentile(99) }
}

extension Duration {
    package var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}

/// One row of the results table.
package struct BenchFigure: Codable {
    package var name: String
    package var median: Double
    package var p99: Double
    package var unit: String
    package var floorName: String?
    package var floor: Double?
    /// How far the figure is from its floor (figure ÷ floor for times; floor ÷ figure for rates).
    package var ratio: Double?
    package var note: String?
    /// A bound the median must stay at or under, whatever the baseline: for memory, which a
    /// phone limits, never for time.
    package var limit: Double?

    package init(
        name: String, median: Double, p99: Double, unit: String, floorName: String? = nil, floor: Double? = nil,
        ratio: Double? = nil, note: String? = nil, limit: Double? = nil
    ) {
        self.name = name
        self.median = median
        self.p99 = p99
        self.unit = unit
        self.floorName = floorName
        self.floor = floor
        self.ratio = ratio
        self.note = note
        self.limit = limit
    }

    /// Past its ``limit``.
    package var overLimit: Bool { limit.map { median > $0 } ?? false }
}

/// The process's resident memory, from Linux's `/proc/self/status`.
package enum ResidentMemory {
    /// The peak so far (`VmHWM`), in MiB.
    package static func peakMiB() -> Double { figure("VmHWM:") }

    /// Now (`VmRSS`), in MiB.
    package static func currentMiB() -> Double { figure("VmRSS:") }

    /// The process's own memory now (`RssAnon`: heap and stacks, not the pages of files it maps,
    /// which the system can drop and read again), in MiB: what a phone's memory limit counts.
    package static func anonymousMiB() -> Double { figure("RssAnon:") }

    /// Starts a new peak from the current size (`5` to `/proc/self/clear_refs`, Linux 4.0 and
    /// later); returns that size in MiB.
    @discardableResult
    package static func resetPeak() -> Double {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        return currentMiB()
    }

    private static func figure(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return 0 }
        let kilobytes = Double(line.split(separator: " ").dropFirst().first.map(String.init) ?? "0") ?? 0
        return kilobytes / 1024
    }
}
