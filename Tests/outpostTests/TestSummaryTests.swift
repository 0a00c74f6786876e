import Foundation
import Testing

/// scripts/test's summary reads the swift test log without ending the run: the CI run of
/// 2026-11-26 passed every step and still exited 141, because `sort | head` under pipefail
/// turned sort's SIGPIPE into the run's status.
@Suite("the test command's summary")
struct TestSummaryTests {
    @Test(
        "test-summary-long-log: the slowest tests of a log far larger than a pipe's buffer are listed, slowest first, and the reading exits 0 under pipefail"
    )
    func longLog() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-summary-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: log) }
        // 20,000 passed tests (about 2 MB of lines once read), in an order that is not the answer.
        let lines = (1...20_000).map { index in
            let seconds = (index * 7_919) % 20_000
            let name = "probe \(index) with a name long enough to fill the pipe"
            return "✔ Test \"\(name)\" passed after \(seconds).5 seconds."
        }
        try (lines + ["✔ Test run with 20000 tests passed after 99999.0 seconds."]).joined(separator: "\n")
            .write(to: log, atomically: true, encoding: .utf8)
        let run = try FirstCommandTests.bash(
            "set -euo pipefail; source scripts/lib/build.sh; slowest_tests '\(log.path)' 20; echo status=$?",
            path: "/usr/bin")
        #expect(run.status == 0, "\(run.output.suffix(400))")
        let listed = run.output.split(separator: "\n").dropLast()
        #expect(listed.count == 20)
        #expect(run.output.hasSuffix("status=0\n"))
        let seconds = listed.compactMap { Double($0.split(separator: " ").first ?? "") }
        #expect(seconds == (0..<20).map { Double(19_999 - $0) + 0.5 })
        #expect(!run.output.contains("Test run with"))
    }
}
