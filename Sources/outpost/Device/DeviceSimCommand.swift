import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// `outpost device sim ...`: the simulator's switches, like Detox's device API.
struct DeviceSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Flip a simulated platform switch.",
        discussion: """
            network on|off, camera granted|denied, battery PCT, os ios|android VERSION, \
            clock-skew SECONDS, background, foreground, migration-failure on|off, damage-outbox-row \
            (the newest pending entry becomes unreadable; prints its Idempotency-Key), \
            biometric enrolled|none|match|no-match|cancel|lockout|changed (the sensor and the OS \
            prompt: what the next prompts are shown, a lockout, a changed enrolment), \
            device-passcode CODE|none (the phone's own passcode; default 123456), kill (the app \
            process ends: the next command is a cold launch); time tracking: geofence enter|exit \
            LOCATION_ID [--accuracy M] [--no-fix] [--distance M] [--source event|active_fetch] \
            (the OS region monitor's event; the fix is the sim GPS position, or --distance metres \
            from the location's centre), gps LAT LON [--accuracy M] | gps off (the position an \
            active fetch finds), time advance DURATION (90s, 6m, 2h, 1d: time passes in the \
            background; due exit checks run), time freeze TIME (the clock stands at an RFC 3339 time \
            until advanced: screens that show today stay the same), time thaw, location always|when-in-use|denied (the location \
            permission), locale en|de (the phone's language).
            """
    )

    @OptionGroup var device: DeviceOptions

    @Argument(
        help:
            "The switch: network, camera, battery, os, clock-skew, background, foreground, migration-failure, damage-outbox-row, biometric, device-passcode, kill, geofence, gps, time, location, locale."
    )
    var name: String

    @Argument(help: "Its value(s).")
    var values: [String] = []

    @Option(help: "geofence, gps: the fix's horizontal accuracy in metres.")
    var accuracy: Double?

    @Flag(name: .customLong("no-fix"), help: "geofence: the event comes without any position.")
    var noFix = false

    @Option(help: "geofence: the fix lies this many metres from the location's centre.")
    var distance: Double?

    @Option(help: "geofence: where the fix came from, event or active_fetch (default).")
    var source: String = "active_fetch"

    func validate() throws {
        let expected: [String: Int] = [
            "network": 1, "camera": 1, "battery": 1, "os": 2, "clock-skew": 1, "background": 0, "foreground": 0,
            "migration-failure": 1, "damage-outbox-row": 0, "biometric": 1, "device-passcode": 1, "kill": 0,
            "geofence": 2, "gps": values.first == "off" ? 1 : 2, "time": values.first == "thaw" ? 1 : 2, "location": 1,
            "locale": 1,
        ]
        guard let count = expected[name] else {
            throw ValidationError("Unknown switch '\(name)'; see `outpost device sim --help`.")
        }
        guard values.count == count else { throw ValidationError("'\(name)' takes \(count) value(s).") }
        switch name {
        case "network", "migration-failure":
            guard ["on", "off"].contains(values[0]) else { throw ValidationError("'\(name)' is on or off.") }
        case "camera":
            guard CameraPermission(rawValue: values[0]) != nil else {
                throw ValidationError("camera is granted or denied.")
            }
        case "battery":
            guard let percent = Int(values[0]), (0...100).contains(percent) else {
                throw ValidationError("battery is a percentage from 0 to 100.")
            }
        case "os":
            guard PlatformInfo.OS(rawValue: values[0]) != nil else { throw ValidationError("os is ios or android.") }
        case "clock-skew":
            guard Double(values[0]) != nil else { throw ValidationError("clock-skew is a number of seconds.") }
        case "geofence":
            guard ["enter", "exit"].contains(values[0]) else { throw ValidationError("geofence is enter or exit.") }
            guard LocationID(wire: values[1]) != nil else {
                throw ValidationError("geofence needs a location id (see `outpost device track locations`).")
            }
            guard AccuracySource(rawValue: source) != nil else {
                throw ValidationError("--source is event or active_fetch.")
            }
        case "gps":
            guard values[0] == "off" || (Double(values[0]) != nil && Double(values[1]) != nil) else {
                throw ValidationError("gps is LATITUDE LONGITUDE, or off.")
            }
        case "time":
            let valid =
                switch values[0] {
                case "advance": Self.seconds(values[1]) != nil
                case "freeze": OutpostJSON.parse(values[1]) != nil
                case "thaw": true
                default: false
                }
            guard valid else {
                throw ValidationError(
                    "time is advance DURATION (e.g. 90s, 6m, 2h, 1d), freeze TIME (RFC 3339) or thaw.")
            }
        case "location":
            guard LocationPermission(rawValue: values[0]) != nil else {
                throw ValidationError("location is always, when-in-use or denied.")
            }
        case "locale":
            guard AppLanguage(rawValue: values[0]) != nil else { throw ValidationError("locale is en or de.") }
        case "biometric":
            guard Self.biometricValues.contains(values[0]) else {
                throw ValidationError("biometric is one of \(Self.biometricValues.joined(separator: ", ")).")
            }
        default: break
        }
    }

    static let biometricValues = ["enrolled", "none", "match", "no-match", "cancel", "lockout", "changed"]

    /// "90", "90s", "6m", "2h", "1d" in seconds.
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let last = text.last, let unit = units[last], let value = Double(text.dropLast()), value >= 0 {
            return value * unit
        }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    @MainActor
    func run() async throws {
        var settings = try SimulatorSettings.load(home: device.homeURL)
        switch name {
        case "network": settings.network = values[0] == "on"
        case "camera": settings.camera = CameraPermission(rawValue: values[0]) ?? .granted
        case "battery": settings.battery = Int(values[0]) ?? 100
        case "os":
            settings.platform = PlatformInfo(os: PlatformInfo.OS(rawValue: values[0]) ?? .ios, version: values[1])
        case "clock-skew": settings.clockSkew = Double(values[0]) ?? 0
        case "migration-failure": settings.migrationFailure = values[0] == "on"
        case "biometric":
            switch values[0] {
            case "enrolled":
                settings.biometric.enrolled = settings.platform.os == .ios ? .faceID : .fingerprint
                settings.biometric.presented = .match
                settings.biometric.lockedOut = false
                settings.biometric.failedMatches = 0
            case "none": settings.biometric.enrolled = nil
            case "match": settings.biometric.presented = .match
            case "no-match": settings.biometric.presented = .noMatch
            case "cancel": settings.biometric.presented = .cancel
            case "lockout": settings.biometric.lockedOut = true
            case "changed": settings.biometric.enrolment += 1
            default: break
            }
        case "device-passcode": settings.biometric.devicePasscode = values[0] == "none" ? nil : values[0]
        case "kill": try? FileManager.default.removeItem(at: SimulatorSettings.memoryURL(device.homeURL))
        case "gps":
            settings.gps =
                values[0] == "off"
                ? nil
                : GeoFix(
                    GeoPoint(latitude: Double(values[0]) ?? 0, longitude: Double(values[1]) ?? 0),
                    accuracy: accuracy ?? 20)
        case "time" where values[0] == "advance": settings.clockSkew += Self.seconds(values[1]) ?? 0
        case "time" where values[0] == "freeze":
            settings.frozenAt = OutpostJSON.parse(values[1])
            settings.clockSkew = 0
        case "time":
            // thaw: the clock runs again from the moment it showed.
            if let frozen = settings.frozenAt { settings.clockSkew += frozen.timeIntervalSinceNow }
            settings.frozenAt = nil
        case "location": settings.locationPermission = LocationPermission(rawValue: values[0]) ?? .always
        case "locale": settings.language = AppLanguage(rawValue: values[0]) ?? .en
        default: break
        }
        try settings.save(home: device.homeURL)
        try await device.perform { app in
            switch name {
            case "background":
                app.background()
            case "foreground":
                await app.foreground().value
            case "damage-outbox-row":
                print("damaged-outbox-entry \(app.simulateDamagedOutboxEntry() ?? "none")")
            case "geofence":
                guard let id = LocationID(wire: values[1]) else { return }
                let fence = app.workLocations.first { $0.id == id }?.fence
                app.geofence(values[0] == "enter" ? .enter : .exit, location: id, fix: fix(fence, settings.gps))
            case "time" where values[0] == "advance":
                app.backgroundTimePassed()
            case "network" where settings.network:
                // The launch read the new switch; the app reacts as to the platform's report.
                await app.sync()
            default:
                break
            }
        }
    }
}

extension DeviceSimCommand {
    /// The fix a boundary event carries: none with --no-fix; --distance metres east of the
    /// fence's centre; else the simulated GPS position; else the centre (enter) or well outside
    /// it (exit).
    func fix(_ fence: Fence?, _ gps: GeoFix?) -> GeoFix? {
        guard !noFix, let fence else { return nil }
        let source = AccuracySource(rawValue: source) ?? .activeFetch
        if distance == nil, let gps {
            return GeoFix(gps.point, accuracy: accuracy ?? gps.accuracy, source: source)
        }
        let metres = distance ?? (values[0] == "enter" ? 0 : fence.radius * 1.5 + 50)
        return GeoFix(fence.center.moved(metres: metres, bearing: 90), accuracy: accuracy ?? 20, source: source)
    }
}
