import Foundation

/// Timings of one measured operation.
struct Samples {
    var seconds: [Double] = []

    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        let value = try body()
        seconds.append((ContinuousClock.now - start).seconds)
        return value
    }

    func percentile(_ p: Double) -> Double {
        guard !seconds.isEmpty else { return 0 }
        let sorted = seconds.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
}

extension Duration {
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}

/// One row of the results table.
struct BenchFigure: Codable {
    var name: String
    var median: Double
    var p99: Double
    var unit: String
    var floorName: String?
    var floor: Double?
    /// How far the figure is from its floor (figure ÷ floor for times; floor ÷ figure for rates).
    var ratio: Double?
    var note: String?
}

/// The process's peak resident memory so far, in MiB (Linux `VmHWM`).
func peakResidentMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    let kilobytes = Double(line.split(separator: " ").dropFirst().first.map(String.init) ?? "0") ?? 0
    return kilobytes / 1024
}
