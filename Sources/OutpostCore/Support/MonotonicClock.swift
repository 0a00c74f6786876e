import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A reading of the device's monotonic clock: seconds since the device booted, counting time
/// asleep, and which boot that was. Unlike the wall clock, nobody can set it; it restarts at
/// zero on a reboot, which is why the boot is part of the reading.
public struct MonotonicInstant: Codable, Sendable, Hashable {
    public var boot: String
    public var seconds: TimeInterval

    public init(boot: String, seconds: TimeInterval) {
        self.boot = boot
        self.seconds = seconds
    }
}

/// The monotonic time source, injected like ``WallClock``.
public struct MonotonicClock: Sendable {
    private let read: @Sendable () -> MonotonicInstant

    public init(_ read: @escaping @Sendable () -> MonotonicInstant) { self.read = read }

    public func now() -> MonotonicInstant { read() }

    /// Linux: `CLOCK_BOOTTIME` and the kernel's boot id. (iOS: `mach_continuous_time` and the
    /// boot time from `sysctl kern.boottime`.)
    public static let system = MonotonicClock {
        #if canImport(Glibc)
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        let boot =
            (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
        return MonotonicInstant(boot: boot, seconds: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
        #else
        return MonotonicInstant(boot: "process", seconds: ProcessInfo.processInfo.systemUptime)
        #endif
    }
}
