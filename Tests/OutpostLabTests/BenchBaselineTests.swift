import Foundation
import OutpostLab
import Testing

/// `outpost bench --check` guards ratios to floors against committed baselines: it fails on a
/// regression beyond the margin and on a guarded figure that was not measured, and passes a
/// run like the one that recorded them.
@Suite("bench baselines")
struct BenchBaselineTests {
    static func figure(_ name: String, ratio: Double?) -> BenchFigure {
        BenchFigure(
            name: name, median: 1, p99: 1, unit: "ms", floorName: ratio == nil ? nil : "floor",
            floor: ratio.map { _ in 1 },
            ratio: ratio)
    }

    @Test(
        "bench-check-flags-regression: beyond margin × baseline fails, within passes, unmeasured fails, no floor is not guarded"
    )
    func flagsRegression() {
        let baselines = BenchBaselines(builds: [
            "release": ["sync": 10, "scan": 4, "open": 20], "debug": ["sync": 40],
        ])
        let figures = [
            Self.figure("sync", ratio: 29.9), Self.figure("scan", ratio: 12.1), Self.figure("drain", ratio: nil),
        ]
        let verdicts = baselines.verdicts(build: "release", figures: figures, margin: 3)
        #expect(verdicts.map(\.name) == ["open", "scan", "sync"])
        #expect(verdicts.map(\.passed) == [false, false, true], "open unmeasured, scan 12.1 > 12, sync 29.9 ≤ 30")
        #expect(verdicts.first { $0.name == "scan" }?.limit == 12)
        // Another build's baselines are its own.
        #expect(baselines.verdicts(build: "debug", figures: figures, margin: 3).map(\.passed) == [true])
        // A broken floor (NaN) never passes.
        #expect(
            baselines.verdicts(build: "debug", figures: [Self.figure("sync", ratio: .nan)], margin: 3).map(\.passed)
                == [false])
    }

    @Test("bench-check-record: the recorded run passes its own check; figures without a floor are left out")
    func record() {
        var baselines = BenchBaselines()
        let figures = [Self.figure("sync", ratio: 11), Self.figure("drain", ratio: nil), Self.figure("x", ratio: .nan)]
        baselines.record(build: "debug", figures: figures)
        #expect(baselines.builds == ["debug": ["sync": 11]])
        #expect(baselines.verdicts(build: "debug", figures: figures, margin: 3).allSatisfy { $0.passed })
    }

    @Test(
        "bench-check-reproduce: a figure past its limit is measured again and keeps the better ratio; a regression in both runs still fails"
    )
    func reproduce() {
        let baselines = BenchBaselines(builds: ["debug": ["search": 40, "scan": 4]])
        let first = [Self.figure("search", ratio: 124), Self.figure("scan", ratio: 13), Self.figure("drain", ratio: nil)]
        #expect(baselines.verdicts(build: "debug", figures: first, margin: 3).map(\.passed) == [false, false])
        // Noise: search measures 60 the second time. A real regression: scan stays past 12.
        let second = [Self.figure("search", ratio: 60), Self.figure("scan", ratio: 12.5)]
        let best = BenchFigure.better(first, second)
        #expect(best.map(\.ratio) == [60, 12.5, nil])
        #expect(baselines.verdicts(build: "debug", figures: best, margin: 3).map(\.passed) == [false, true])
        // A second run that did not measure a figure, or measured it broken, keeps the first.
        let broken = BenchFigure.better(first, [Self.figure("search", ratio: .nan)])
        #expect(broken.map(\.ratio) == [124, 13, nil])
        #expect(BenchFigure.better([Self.figure("x", ratio: .nan)], [Self.figure("x", ratio: 2)]).map(\.ratio) == [2])
    }

    @Test("seeder-parts: a large roster is imported in parts with the same first rows and no e-mail twice")
    func seederParts() {
        let types = ["General"]
        #expect(GuestNames.csv(rows: 0..<50, accessTypes: types) == GuestNames.csv(count: 50, accessTypes: types))
        func emails(_ range: Range<Int>) -> Set<Substring> {
            Set(
                GuestNames.csv(rows: range, accessTypes: types).split(separator: "\r\n").dropFirst().map {
                    $0.split(separator: ",")[1]
                })
        }
        let first = emails(0..<500)
        let second = emails(500..<1_000)
        #expect(first.count == 500 && second.count == 500)
        #expect(first.isDisjoint(with: second))
    }

    @Test(
        "bench-check-growth: each floor-normalized figure's growth from the smallest size to the largest, only where both exist"
    )
    func growth() {
        let figures = [
            Self.figure("scan, 2000 guests", ratio: 4), Self.figure("scan, 50000 guests", ratio: 13),
            Self.figure("sync (rows/s), 2000 guests", ratio: 7), Self.figure("sync (rows/s), 50000 guests", ratio: 7),
            Self.figure("open, 50000 guests", ratio: 9), Self.figure("size, 2000 guests", ratio: nil),
            Self.figure("size, 50000 guests", ratio: nil),
        ]
        let grown = BenchFigure.growth(figures, sizes: [2_000, 50_000])
        #expect(grown.map(\.name) == ["growth 2000→50000 guests: scan", "growth 2000→50000 guests: sync (rows/s)"])
        #expect(grown.map(\.ratio) == [3.25, 1])
        #expect(BenchFigure.growth(figures, sizes: [2_000]).isEmpty)
    }
}
