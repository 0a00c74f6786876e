import Foundation

/// The committed ratios `outpost bench --check` guards: per build mode ("debug", "release"),
/// each figure's ratio to its floor as a good run measured it. A ratio, not a time, so a slower
/// or busier machine moves figure and floor together; the margin absorbs the rest.
package struct BenchBaselines: Codable, Equatable {
    package var builds: [String: [String: Double]]

    package init(builds: [String: [String: Double]] = [:]) { self.builds = builds }

    /// One guarded figure's outcome.
    package struct Verdict: Equatable {
        package var name: String
        package var baseline: Double
        /// Nil when this run did not measure the figure.
        package var measured: Double?
        package var limit: Double

        package var passed: Bool { measured.map { $0.isFinite && $0 <= limit } ?? false }
    }

    /// Every baseline of `build` against `figures`: a figure fails when its ratio is more than
    /// `margin` times its baseline, or when it was not measured.
    package func verdicts(build: String, figures: [BenchFigure], margin: Double) -> [Verdict] {
        let measured = Dictionary(figures.compactMap { figure in figure.ratio.map { (figure.name, $0) } }) { $1 }
        return (builds[build] ?? [:]).sorted { $0.key < $1.key }.map { name, baseline in
            Verdict(name: name, baseline: baseline, measured: measured[name], limit: baseline * margin)
        }
    }

    /// The ratios of `figures` recorded as `build`'s baselines (figures without a floor are not guarded).
    package mutating func record(build: String, figures: [BenchFigure]) {
        builds[build] = Dictionary(
            figures.compactMap { figure in figure.ratio.flatMap { $0.isFinite ? (figure.name, $0) : nil } }
        ) { $1 }
    }
}

extension BenchFigure {
    /// `first` with each figure that `second` measured better (a lower ratio to its floor)
    /// replaced by `second`'s: the best of two runs, figure by figure.
    package static func better(_ first: [BenchFigure], _ second: [BenchFigure]) -> [BenchFigure] {
        let again = Dictionary(second.map { ($0.name, $0) }) { first, _ in first }
        return first.map { figure in
            guard let other = again[figure.name], let ratio = other.ratio, ratio.isFinite else { return figure }
            guard let mine = figure.ratio, mine.isFinite else { return other }
            return ratio < mine ? other : figure
        }
    }

    /// How each floor-normalized figure grew from the smallest size to the largest: its ratio at
    /// the largest over its ratio at the smallest. A path whose cost per action grows with the
    /// roster (a COUNT per screen reload, a scan where an index should be) shows here long
    /// before it shows in one size's figure.
    package static func growth(_ figures: [BenchFigure], sizes: [Int]) -> [BenchFigure] {
        guard let smallest = sizes.min(), let largest = sizes.max(), smallest < largest else { return [] }
        let suffix = { (size: Int) in ", \(size) guests" }
        let small = Dictionary(
            figures.compactMap { figure in
                figure.name.hasSuffix(suffix(smallest))
                    ? (String(figure.name.dropLast(suffix(smallest).count)), figure) : nil
            }
        ) { first, _ in first }
        return figures.compactMap { figure in
            guard figure.name.hasSuffix(suffix(largest)) else { return nil }
            let kind = String(figure.name.dropLast(suffix(largest).count))
            guard let before = small[kind]?.ratio, let after = figure.ratio, before > 0 else { return nil }
            let grown = after / before
            return BenchFigure(
                name: "growth \(smallest)→\(largest) guests: \(kind)", median: grown, p99: grown, unit: "×",
                floorName: "the same figure at \(smallest) guests", floor: before, ratio: grown)
        }
    }

    /// The most memory of its own a cold open may add per guest: 300 MiB at 1,000,000 guests
    /// (the target) less about 40 MiB for the process and the store's fixed costs.
    package static let ownMemoryLimitPerGuest = 250.0

    /// The cold open's own memory per guest added from the smallest size to the largest: the
    /// fixed costs (the runtime, SQLite's caches) cancel out, and what is left is what the
    /// index holds per guest. Its floor is the snapshot's own growth per guest.
    package static func ownMemoryPerGuest(_ figures: [BenchFigure], sizes: [Int]) -> [BenchFigure] {
        guard let smallest = sizes.min(), let largest = sizes.max(), smallest < largest else { return [] }
        func figure(_ size: Int) -> BenchFigure? {
            figures.first { $0.name == "cold open in a child process, own memory growth, \(size) guests" }
        }
        guard let small = figure(smallest), let large = figure(largest) else { return [] }
        let added = Double(largest - smallest)
        let bytes = (large.median - small.median) * 1_048_576 / added
        let floor = ((large.floor ?? 0) - (small.floor ?? 0)) * 1_048_576 / added
        return [
            BenchFigure(
                name: "cold open's own memory per guest added, \(smallest)→\(largest) guests", median: bytes,
                p99: bytes,
                unit: "bytes per guest", floorName: "the index snapshot's bytes per guest added", floor: floor,
                ratio: floor > 0 ? bytes / floor : nil,
                note: "limit \(Int(ownMemoryLimitPerGuest)) bytes per guest (300 MiB at 1,000,000 guests)",
                limit: ownMemoryLimitPerGuest)
        ]
    }
}
