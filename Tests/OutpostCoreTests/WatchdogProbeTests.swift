import Foundation
import Testing

/// The fixture of the test run's watchdog (scripts/lib/test-watchdog.py): a test that
/// hangs the way a broken test did (blocked where cancellation cannot reach it, as a stream read
/// to its end was), so `scripts/test` can show the watchdog naming and killing a real
/// `swift test` run. It runs only when OUTPOST_WATCHDOG_PROBE=1, which only that check sets.
@Suite("the test run's watchdog")
struct WatchdogProbeTests {
    @Test(
        "watchdog-hang-probe: blocks forever, ignoring cancellation (only with OUTPOST_WATCHDOG_PROBE=1)",
        .enabled(if: ProcessInfo.processInfo.environment["OUTPOST_WATCHDOG_PROBE"] == "1"))
    func hangs() {
        DispatchSemaphore(value: 0).wait()
    }
}
