import Foundation
import OutpostCore

/// The camera permission as the OS reports it, read on every entry to a camera screen.
public enum CameraPermission: String, Codable, Sendable {
    case granted
    case denied
}

/// The location permission as the OS reports it. Automatic clock-in and clock-out need
/// `always` (region monitoring and background fetches); `whenInUse` only works while the app
/// is open; `denied` leaves clocking by hand.
public enum LocationPermission: String, Codable, Sendable, CaseIterable {
    case always
    case whenInUse = "when-in-use"
    case denied
}

/// The language the app speaks (the phone's preferred language, where the app has it): seed
/// 003's app ships English and German.
public enum AppLanguage: String, Codable, Sendable, CaseIterable {
    case en
    case de
}

/// Which OS, and which version of it, the app runs on.
public struct PlatformInfo: Codable, Sendable, Hashable {
    public enum OS: String, Codable, Sendable {
        case ios
        case android
    }

    public var os: OS
    /// iOS: "16.4"; Android: the API level, "30".
    public var version: String

    public init(os: OS, version: String) {
        self.os = os
        self.version = version
    }

    /// True when this OS is older than the client policy allows.
    public func isBelow(minIOS: String, minAndroidAPI: Int) -> Bool {
        switch os {
        case .ios: Self.compare(version, minIOS) < 0
        case .android: (Int(version) ?? 0) < minAndroidAPI
        }
    }

    /// Compares dotted version numbers numerically ("16.10" > "16.9").
    package static func compare(_ lhs: String, _ rhs: String) -> Int {
        let left = lhs.split(separator: ".").map { Int($0) ?? 0 }
        let right = rhs.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a != b { return a < b ? -1 : 1 }
        }
        return 0
    }
}

/// Everything platform-shaped the engine needs, injected at launch.
public struct DevicePorts: Sendable {
    public var keyStore: any KeyStore
    public var transport: any Transport
    public var camera: @Sendable () -> CameraPermission
    public var platform: PlatformInfo
    public var clock: WallClock
    /// Time nobody can set (the kiosk lockout runs on it).
    public var monotonic: MonotonicClock
    /// Random numbers for backoff jitter; seeded in tests.
    public var random: @Sendable (ClosedRange<Double>) -> Double
    /// Whether the device believes it has a network (the offline banner).
    public var online: Bool
    /// The battery level in percent.
    public var battery: @Sendable () -> Int
    /// The biometric check that releases the session key (the lock screen).
    public var biometrics: any Biometrics
    /// What the app holds in memory while unlocked (the session key, when last in use).
    public var memory: any ProcessMemory
    /// An active GPS fetch (CLLocationManager.requestLocation, FusedLocationProvider): the
    /// current fix, or nil when it fails or times out.
    public var gps: @Sendable () -> GeoFix?
    /// The location permission, read whenever the tracking screens are built.
    public var locationPermission: @Sendable () -> LocationPermission
    public var language: AppLanguage
    /// The phone's time zone: where its days begin and end.
    public var timeZone: TimeZone
    /// The badge printers in reach (Bluetooth; on Linux also CUPS queues).
    public var printers: any BadgePrinters

    public init(
        keyStore: any KeyStore, transport: any Transport,
        camera: @escaping @Sendable () -> CameraPermission = { .granted },
        platform: PlatformInfo = PlatformInfo(os: .ios, version: "17.5"), clock: WallClock = .system,
        monotonic: MonotonicClock = .system,
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }, online: Bool = true,
        battery: @escaping @Sendable () -> Int = { 100 }, biometrics: (any Biometrics)? = nil,
        memory: any ProcessMemory = InProcessMemory(), gps: @escaping @Sendable () -> GeoFix? = { nil },
        locationPermission: @escaping @Sendable () -> LocationPermission = { .always }, language: AppLanguage = .en,
        timeZone: TimeZone = .current, printers: any BadgePrinters = NoBadgePrinters()
    ) {
        self.keyStore = keyStore
        self.transport = transport
        self.camera = camera
        self.platform = platform
        self.clock = clock
        self.monotonic = monotonic
        self.random = random
        self.online = online
        self.battery = battery
        self.biometrics = biometrics ?? SimulatedBiometrics(keyStore: keyStore)
        self.memory = memory
        self.gps = gps
        self.locationPermission = locationPermission
        self.language = language
        self.timeZone = timeZone
        self.printers = printers
    }
}
