import Foundation

/// `--check` and `--write-baseline`: the regression guard over ratios to floors.
extension Bench {
    /// The names of the figures past their limit in `document` (none when nothing is guarded).
    func regressedFigures(_ document: BenchDocument) throws -> [String] {
        try storedBaselines().verdicts(build: document.build, figures: document.figures, margin: margin)
            .filter { !$0.passed }.map(\.name) + document.figures.filter(\.overLimit).map(\.name)
    }

    func storedBaselines() throws -> BenchBaselines {
        let url = URL(fileURLWithPath: baselines)
        return FileManager.default.fileExists(atPath: url.path)
            ? try JSONDecoder().decode(BenchBaselines.self, from: Data(contentsOf: url)) : BenchBaselines()
    }

    func compareWithBaselines(_ document: BenchDocument) throws {
        let url = URL(fileURLWithPath: baselines)
        var stored = try storedBaselines()
        if writeBaseline {
            stored.record(build: document.build, figures: document.figures)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try (encoder.encode(stored) + Data("\n".utf8)).write(to: url)
            print("Baselines of the \(document.build) build written to \(baselines).")
        }
        guard check else { return }
        let verdicts = stored.verdicts(build: document.build, figures: document.figures, margin: margin)
        guard !verdicts.isEmpty else {
            throw CleanFailure(
                "\(baselines) has no baselines for a \(document.build) build: record them with --write-baseline")
        }
        print("Regression check (\(document.build) build, ratios to floors, limit \(margin)× the baseline)")
        print("| figure | baseline | now | limit | |\n|---|---|---|---|---|")
        for verdict in verdicts {
            let now = verdict.measured.map { String(format: "%.2f", $0) } ?? "not measured"
            print(
                "| \(verdict.name) | \(String(format: "%.2f", verdict.baseline)) | \(now) | "
                    + "\(String(format: "%.2f", verdict.limit)) | \(verdict.passed ? "ok" : "REGRESSED") |")
        }
        let limited = document.figures.filter { $0.limit != nil }
        for figure in limited {
            print(
                "| \(figure.name) | (a bound) | \(String(format: "%.2f", figure.median)) | "
                    + "\(String(format: "%.2f", figure.limit ?? 0)) | \(figure.overLimit ? "PAST ITS LIMIT" : "ok") |")
        }
        if let over = limited.first(where: \.overLimit) {
            throw CleanFailure(
                "bench --check: \(over.name) is \(String(format: "%.0f", over.median)) \(over.unit), past its limit of "
                    + "\(String(format: "%.0f", over.limit ?? 0)).")
        }
        let failed = verdicts.filter { !$0.passed }
        if !failed.isEmpty {
            throw CleanFailure(
                "bench --check: \(failed.count) of \(verdicts.count) figures are more than \(margin)× their baseline: "
                    + failed.map(\.name).joined(separator: "; "))
        }
        print("bench --check: all \(verdicts.count) figures within \(margin)× their baselines.")
    }
}
